/**
 * memory_infer over atom links on PGlite and PostgreSQL: a cycle under a transitive rule reaches its closure (self-
 * loops included) and stops; a rerun adds nothing; derived edges carry inferred/source/justification, premise index
 * rows and outbox rows; a one-step rule feeds a chain rule; malformed, multi-word, wrong-shape and retracted rules
 * are ignored with reasons; a cap hit keeps nothing; retracting a premise retracts what depended on it (cascading)
 * and keeps what another justification holds; links of retracted atoms are no premises.
 */
import { describe, expect, test } from "bun:test";
import { retractForAtoms, retractUnsupported } from "../../src/adapters/sql/inference/tms.ts";
import { infer } from "../../src/core/inference/infer.ts";
import { pgSkipReason } from "../support/pg.ts";
import { suiteServices } from "../support/services.ts";
import { atom, atomEdges, closure, link, rule, sqlOf } from "./support.ts";

const TRANSITIVE = '{"if": ["depends_on", "depends_on"], "then": "depends_on"}';

for (const backend of ["pglite", "postgres"] as const) {
  const skip = backend === "postgres" ? await pgSkipReason() : null;
  if (skip) console.warn(`skipping inference tests on postgres: ${skip}`);
  describe.skipIf(!!skip)(`memory_infer (${backend})`, () => {
    const t = suiteServices(backend, {}, { skip });

    test("a cycle A→B→C→A under a transitive rule reaches its closure and stops; a rerun adds nothing", async () => {
      const s = t.services;
      const n = {
        A: await atom(s, "Узел А цикла"),
        B: await atom(s, "Node B of the cycle"),
        C: await atom(s, "Node C of the cycle"),
      };
      await link(s, n.A, n.B, "depends_on");
      await link(s, n.B, n.C, "depends_on");
      await link(s, n.C, n.A, "depends_on");
      const r = await rule(s, TRANSITIVE);
      const outboxBefore = Number(
        (await sqlOf(s)`SELECT count(*) AS n FROM pm_outbox WHERE entity_type = 'atom_link'`)[0].n,
      );
      const first = await infer(s, { ruleIds: [r] });
      expect(first.ignored).toEqual([]);
      expect(first.edgesAdded).toBe(6);
      expect(first.rules[0]).toMatchObject({ ruleAtomId: r, edgesAdded: 6 });
      expect(first.iterations).toBeGreaterThanOrEqual(3); // rounds deriving, then one deriving nothing
      expect(first.rules[0].iterations).toBe(first.iterations - 1);
      expect(await atomEdges(s, n, "depends_on")).toEqual(closure(["A>B", "B>C", "C>A"]));
      expect(await atomEdges(s, n, "depends_on", true)).toEqual(["A>A", "A>C", "B>A", "B>B", "C>B", "C>C"]);
      const rows = await sqlOf(
        s,
      )`SELECT id, source, justification, confidence FROM pm_atom_link WHERE inferred AND src_atom_id = ${n.A} AND dst_atom_id = ${n.C}`;
      expect(rows[0].source).toBe("inference");
      expect(rows[0].justification.rule).toBe(r);
      expect(rows[0].justification.premises).toHaveLength(2);
      expect(rows[0].justification.premises[0].origin).toBe("pm_atom_link");
      expect(Number(rows[0].confidence)).toBeCloseTo(0.81, 4);
      const premiseRows = await sqlOf(
        s,
      )`SELECT count(*) AS n FROM pm_inference_premise WHERE derived_origin = 'pm_atom_link' AND derived_id = ${rows[0].id}`;
      expect(Number(premiseRows[0].n)).toBe(2);
      const outboxAfter = Number(
        (await sqlOf(s)`SELECT count(*) AS n FROM pm_outbox WHERE entity_type = 'atom_link'`)[0].n,
      );
      expect(outboxAfter - outboxBefore).toBe(6);

      const again = await infer(s, { ruleIds: [r] });
      expect(again.edgesAdded).toBe(0);
      expect(again.iterations).toBe(1);
    });

    test("a one-step rule feeds a chain rule (imports → depends_on, then transitive)", async () => {
      const s = t.services;
      const n = {
        P: await atom(s, "Package P"),
        Q: await atom(s, "Package Q"),
        R: await atom(s, "Package R"),
        S: await atom(s, "Package S"),
      };
      await link(s, n.P, n.Q, "imports");
      await link(s, n.Q, n.R, "imports");
      await link(s, n.R, n.S, "imports");
      const r1 = await rule(s, '{"if": "imports", "then": "depends_on"}');
      const r2 = await rule(s, TRANSITIVE);
      const out = await infer(s, { ruleIds: [r1, r2] });
      expect(await atomEdges(s, n, "depends_on")).toEqual(closure(["P>Q", "Q>R", "R>S"]));
      expect(out.rules.find((x) => x.ruleAtomId === r1)!.edgesAdded).toBe(3);
      expect(out.rules.find((x) => x.ruleAtomId === r2)!.edgesAdded).toBe(3);
    });

    test("malformed, multi-word, wrong-shape, non-rule and retracted rules are ignored with reasons", async () => {
      const s = t.services;
      const bad = await rule(s, '{"if": "imports", "then": ');
      const multi = await rule(s, '{"if": "depends on", "then": "depends_on"}');
      const shape = await rule(s, '{"when": "imports", "then": "x"}');
      const headMulti = await rule(s, '{"if": ["imports"], "then": "Зависит от"}');
      const retracted = await rule(s, '{"if": "imports", "then": "uses"}', "retracted");
      const fact = await atom(s, "Not a rule at all");
      const out = await infer(s, { ruleIds: [bad, multi, shape, headMulti, retracted, fact, 99_999_999] });
      expect(out.applied).toEqual([]);
      expect(out.edgesAdded).toBe(0);
      const reason = (id: number) => out.ignored.find((x) => x.ruleAtomId === id)?.reason ?? "";
      expect(reason(bad)).toContain("JSON");
      expect(reason(multi)).toContain("single-token");
      expect(reason(shape)).toContain("unknown key");
      expect(reason(headMulti)).toContain('"then"');
      expect(reason(retracted)).toContain("retracted");
      expect(reason(fact)).toContain("not a logical_rule");
      expect(reason(99_999_999)).toContain("no atom");
      expect(await sqlOf(s)`SELECT 1 FROM pm_atom_link WHERE kind = 'uses'`).toHaveLength(0);
    });

    test("a cap hit is LIMIT_EXCEEDED and keeps nothing of the run", async () => {
      const s = t.services;
      const chain: Record<string, number> = {};
      for (let i = 0; i < 8; i++) chain[`N${i}`] = await atom(s, `Chain node ${i} of the capped run`);
      for (let i = 0; i < 7; i++) await link(s, chain[`N${i}`], chain[`N${i + 1}`], "part_of");
      const r = await rule(s, '{"if": ["part_of", "part_of"], "then": "part_of"}');
      const count = async () =>
        Number(
          (
            await sqlOf(
              s,
            )`SELECT (SELECT count(*) FROM pm_atom_link WHERE inferred) + (SELECT count(*) FROM pm_outbox) + (SELECT count(*) FROM pm_inference_premise) AS n`
          )[0].n,
        );
      const before = await count();
      await expect(infer(s, { ruleIds: [r], maxNewEdges: 5 })).rejects.toMatchObject({ code: "LIMIT_EXCEEDED" });
      await expect(infer(s, { ruleIds: [r], maxIterations: 1 })).rejects.toMatchObject({ code: "LIMIT_EXCEEDED" });
      expect(await count()).toBe(before);
      expect(await sqlOf(s)`SELECT 1 FROM pm_inference_rule WHERE rule_atom_id = ${r}`).toHaveLength(0);
      await expect(infer(s, { ruleIds: [r], maxIterations: 0 })).rejects.toMatchObject({ code: "INVALID_INPUT" });
      const ok = await infer(s, { ruleIds: [r] });
      expect(ok.edgesAdded).toBe(21); // 28 pairs of the chain minus its 7 links
    });

    test("endpoints decide the table: atom→symbol goes to pm_atom_symbol_link, symbol→name to pm_code_dependency, atom→name is skipped", async () => {
      const s = t.services;
      const sql = sqlOf(s);
      const x = await atom(s, "Заметка о функции разбора");
      const y = await atom(s, "Code atom of parse()", { type: "code" });
      const [sym] =
        await sql`INSERT INTO pm_code_symbol (repo, path, language, name, qualified_name, kind, line_start, line_end)
                              VALUES ('mixed', 'p.py', 'python', 'parse', 'parse', 'function', 1, 3) RETURNING id`;
      const [callee] =
        await sql`INSERT INTO pm_code_symbol (repo, path, language, name, qualified_name, kind, line_start, line_end)
                                 VALUES ('mixed', 'p.py', 'python', 'lex', 'lex', 'function', 5, 6) RETURNING id`;
      await link(s, x, y, "mentions");
      await sql`INSERT INTO pm_atom_symbol_link (atom_id, symbol_id, kind) VALUES (${y}, ${sym.id}, 'defines')`;
      await sql`INSERT INTO pm_code_dependency (repo, src_symbol_id, dst_symbol_id, dst_name, kind) VALUES ('mixed', ${sym.id}, ${callee.id}, 'lex', 'calls')`;
      await sql`INSERT INTO pm_code_dependency (repo, src_symbol_id, dst_name, kind) VALUES ('mixed', ${callee.id}, 'os.read', 'calls')`;
      const r1 = await rule(s, '{"if": ["mentions", "defines"], "then": "refers_to"}');
      const r2 = await rule(s, '{"if": ["calls", "calls"], "then": "reaches"}');
      const r3 = await rule(s, '{"if": ["defines", "calls", "calls"], "then": "reaches"}');
      const out = await infer(s, { ruleIds: [r1, r2, r3] });
      const by = (id: number) => out.rules.find((o) => o.ruleAtomId === id)!;
      expect(by(r1)).toMatchObject({ edgesAdded: 1, skipped: 0 });
      expect(by(r2)).toMatchObject({ edgesAdded: 1, skipped: 0 });
      expect(by(r3)).toMatchObject({ edgesAdded: 0, skipped: 1 }); // atom → name:os.read fits no table
      const [asl] =
        await sql`SELECT atom_id, symbol_id, inferred, source FROM pm_atom_symbol_link WHERE kind = 'refers_to'`;
      expect(asl).toMatchObject({ atom_id: x, symbol_id: Number(sym.id), inferred: true, source: "inference" });
      const [dep] =
        await sql`SELECT src_symbol_id, dst_symbol_id, dst_name, repo, path, inferred FROM pm_code_dependency WHERE kind = 'reaches'`;
      expect(dep).toMatchObject({
        src_symbol_id: Number(sym.id),
        dst_symbol_id: null,
        dst_name: "os.read",
        repo: "mixed",
        path: null,
        inferred: true,
      });
      const outbox =
        await sql`SELECT entity_type FROM pm_outbox WHERE entity_type IN ('atom_symbol_link', 'code_dependency') AND op = 'upsert'`;
      expect(outbox.map((o) => o.entity_type).sort()).toEqual(["atom_symbol_link", "code_dependency"]);
      expect((await infer(s, { ruleIds: [r1, r2, r3] })).edgesAdded).toBe(0);
    });

    test("retracting a premise retracts what depended on it, cascading, and keeps what another justification holds", async () => {
      const s = t.services;
      const names = ["A", "B", "C", "D", "E", "F"] as const;
      const n: Record<string, number> = {};
      for (const x of names) n[x] = await atom(s, `TMS node ${x}`);
      const base: Record<string, number> = {};
      for (const e of ["A>B", "B>C", "A>D", "D>C", "C>E", "B>F"]) {
        const [a, b] = e.split(">");
        base[e] = await link(s, n[a], n[b], "leads_to");
      }
      const r = await rule(s, '{"if": ["leads_to", "leads_to"], "then": "leads_to"}');
      await infer(s, { ruleIds: [r] });
      expect(await atomEdges(s, n, "leads_to")).toEqual(closure(Object.keys(base)));

      // A→B goes: A→F (only through B) goes; A→C and A→E stay (through D).
      const sql = sqlOf(s);
      const out = await sql.begin(async (tx) => {
        await tx`DELETE FROM pm_atom_link WHERE id = ${base["A>B"]}`;
        return retractUnsupported(tx, [{ origin: "pm_atom_link", id: base["A>B"] }]);
      });
      const left = Object.keys(base).filter((e) => e !== "A>B");
      expect(await atomEdges(s, n, "leads_to")).toEqual(closure(left));
      expect(out.retracted).toBeGreaterThanOrEqual(out.rederived);
      const deletes = await sql`SELECT count(*) AS n FROM pm_outbox WHERE entity_type = 'atom_link' AND op = 'delete'`;
      expect(Number(deletes[0].n)).toBeGreaterThanOrEqual(1);

      // D is retracted: its links are no premises, so A→C and A→E go, B→C→E stays.
      await sql.begin(async (tx) => {
        await tx`UPDATE pm_atom SET status = 'retracted' WHERE id = ${n.D}`;
        return retractForAtoms(tx, [n.D]);
      });
      const live = left.filter((e) => !e.includes("D"));
      const derivedLive = (await atomEdges(s, n, "leads_to")).filter((e) => !e.includes("D"));
      expect(derivedLive).toEqual(closure(live));
      expect(await atomEdges(s, n, "leads_to", true)).not.toContain("A>C");
      // A rerun derives nothing new over a retracted atom.
      expect((await infer(s, { ruleIds: [r] })).edgesAdded).toBe(0);

      // C goes stale by a writer that does not call the TMS: the next run sweeps what depended on C's links first.
      expect(await atomEdges(s, n, "leads_to", true)).toEqual(["B>E"]);
      await sql`UPDATE pm_atom SET status = 'stale' WHERE id = ${n.C}`;
      const swept = await infer(s, { ruleIds: [r] });
      expect(swept.retracted).toBe(1);
      expect(await atomEdges(s, n, "leads_to", true)).toEqual([]);
    });
  });
}
