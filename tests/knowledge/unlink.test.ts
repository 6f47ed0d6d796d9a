/**
 * Removing a link (core unlinkNodes over the SQL store) on PGlite and PostgreSQL: the agent's links go from each of
 * the three tables with an outbox `delete` row; an extracted atom → atom link may go too; an inferred link and the
 * links the code store made are refused with what to do instead; an unknown link is NOT_FOUND with a hint (the
 * reverse link, the kinds that exist); an inferred edge justified only by the removed link is retracted, one that
 * another justification holds is kept (re-derived). On PGlite the outbox worker then withdraws the edges from a
 * recording projection sink.
 */
import { describe, expect, test } from "bun:test";
import { infer } from "../../src/core/inference/infer.ts";
import { linkNodes, unlinkNodes } from "../../src/core/knowledge/link-forget.ts";
import type { Services } from "../../src/core/services.ts";
import { PegasError } from "../../src/errors.ts";
import { OutboxWorker } from "../../src/worker/outbox.ts";
import { atom, atomEdges, link, rule, sqlOf } from "../inference/support.ts";
import { pgSkipReason } from "../support/pg.ts";
import { RecordingSink } from "../support/recording-sink.ts";
import { suiteServices } from "../support/services.ts";

const TRANSITIVE = '{"if": ["depends_on", "depends_on"], "then": "depends_on"}';

/** Inserts a code symbol of repo `unlink`; returns its id. */
async function symbol(s: Services, qname: string): Promise<number> {
  const [r] = await sqlOf(s)`
    INSERT INTO pm_code_symbol (repo, path, language, name, qualified_name, kind, line_start, line_end)
    VALUES ('unlink', 'm.py', 'python', ${qname}, ${qname}, 'function', ${Math.floor(Math.random() * 1e6)}, 1) RETURNING id`;
  return Number(r.id);
}

/** The error a promise rejects with (fails when it resolves). */
async function failure(p: Promise<unknown>): Promise<PegasError> {
  const err = await p.then(
    () => null,
    (e) => e,
  );
  expect(err).toBeInstanceOf(PegasError);
  return err as PegasError;
}

const deletes = async (s: Services, entity: string, id: number) =>
  Number(
    (
      await sqlOf(
        s,
      )`SELECT count(*)::int AS n FROM pm_outbox WHERE entity_type = ${entity} AND entity_id = ${String(id)} AND op = 'delete'`
    )[0].n,
  );

for (const backend of ["pglite", "postgres"] as const) {
  const skip = backend === "postgres" ? await pgSkipReason() : null;
  describe.skipIf(!!skip)(`unlinkNodes (${backend})`, () => {
    const t = suiteServices(backend, {}, { skip });

    test("the agent's atom → atom link goes with an outbox delete row; again → NOT_FOUND; the hint names the reverse link or the kinds", async () => {
      const s = t.services;
      const [a, b] = [await atom(s, "Кислород поддерживает горение"), await atom(s, "Свеча гаснет под колпаком")];
      const made = await linkNodes(s, { src: b, dst: `atom:${a}`, kind: "cause", confidence: 0.7 });
      await linkNodes(s, { src: b, dst: a, kind: "related" });
      const gone = await unlinkNodes(s, { src: `atom:${b}`, dst: a, kind: "cause" });
      expect(gone).toMatchObject({
        linkId: made.linkId,
        table: "pm_atom_link",
        source: "agent",
        confidence: expect.closeTo(0.7, 5),
        inferredRetracted: 0,
        inferredRederived: 0,
      });
      expect(gone.src).toEqual({ kind: "atom", id: b });
      expect(await sqlOf(s)`SELECT id FROM pm_atom_link WHERE id = ${made.linkId}`).toHaveLength(0);
      expect(await deletes(s, "atom_link", made.linkId)).toBe(1);
      expect((await s.atomReads.atomLinks(a, 10)).in.map((l) => l.kind)).toEqual(["related"]);

      const again = await failure(unlinkNodes(s, { src: b, dst: a, kind: "cause" }));
      expect(again.code).toBe("NOT_FOUND");
      expect(again.message).toBe(`no link atom:${b} -cause-> atom:${a}`);
      expect(again.hint).toContain("kind related");
      const reversed = await failure(unlinkNodes(s, { src: a, dst: b, kind: "related" }));
      expect(reversed.code).toBe("NOT_FOUND");
      expect(reversed.hint).toContain("swap src and dst");
      expect((await failure(unlinkNodes(s, { src: a, dst: 987_654, kind: "related" }))).hint).toContain("memory_get");
      expect((await failure(unlinkNodes(s, { src: a, dst: b, kind: "Related link" }))).code).toBe("INVALID_INPUT");
      expect((await failure(unlinkNodes(s, { src: "doc:1", dst: b, kind: "related" }))).code).toBe("INVALID_INPUT");
    });

    test("an extracted atom → atom link may go; an inferred one is refused, naming its premises and rule", async () => {
      const s = t.services;
      const n = { A: await atom(s, "Extracted A"), B: await atom(s, "Extracted B"), C: await atom(s, "Extracted C") };
      const ab = await link(s, n.A, n.B, "depends_on"); // source 'extraction' (the column default)
      await link(s, n.B, n.C, "depends_on");
      const r = await rule(s, TRANSITIVE);
      await infer(s, { ruleIds: [r] });
      const refused = await failure(unlinkNodes(s, { src: n.A, dst: n.C, kind: "depends_on" }));
      expect(refused.code).toBe("INVALID_INPUT");
      expect(refused.message).toContain(`inferred by the rule atom ${r}`);
      expect(refused.hint).toContain(`atom:${n.A} -depends_on-> atom:${n.B}`);
      expect(refused.hint).toContain(`forget the rule atom ${r}`);
      const gone = await unlinkNodes(s, { src: n.A, dst: n.B, kind: "depends_on" });
      expect(gone).toMatchObject({ linkId: ab, source: "extraction", inferredRetracted: 1, inferredRederived: 0 });
      expect(await atomEdges(s, n, "depends_on")).toEqual(["B>C"]);
    });

    test("truth maintenance: what only the removed link justified is retracted; what another justification holds stays", async () => {
      const s = t.services;
      const n = {
        A: await atom(s, "TMS A"),
        B: await atom(s, "TMS B"),
        C: await atom(s, "TMS C"),
        D: await atom(s, "TMS D"),
      };
      await linkNodes(s, { src: n.A, dst: n.B, kind: "depends_on" });
      await linkNodes(s, { src: n.B, dst: n.C, kind: "depends_on" });
      const r = await rule(s, TRANSITIVE);
      await infer(s, { ruleIds: [r] }); // A→C justified by A→B, B→C
      await linkNodes(s, { src: n.A, dst: n.D, kind: "depends_on" });
      await linkNodes(s, { src: n.D, dst: n.C, kind: "depends_on" });
      await infer(s, { ruleIds: [r] }); // A→C exists: its recorded justification stays A→B, B→C
      const [ac] = await sqlOf(
        s,
      )`SELECT id FROM pm_atom_link WHERE src_atom_id = ${n.A} AND dst_atom_id = ${n.C} AND inferred`;

      const kept = await unlinkNodes(s, { src: n.A, dst: n.B, kind: "depends_on" });
      expect(kept).toMatchObject({ inferredRetracted: 0, inferredRederived: 1 });
      const [again] = await sqlOf(
        s,
      )`SELECT id, justification FROM pm_atom_link WHERE src_atom_id = ${n.A} AND dst_atom_id = ${n.C} AND inferred`;
      expect(Number(again.id)).not.toBe(Number(ac.id));
      // Held by the transitive rule: r, or the identical rule atom an earlier test of this store applied (any applied
      // rule with the edge's kind as head may hold it).
      const [holder] = await sqlOf(s)`SELECT content FROM pm_atom WHERE id = ${Number(again.justification.rule)}`;
      expect(holder.content).toBe(TRANSITIVE);
      expect(await deletes(s, "atom_link", Number(ac.id))).toBe(1);

      const gone = await unlinkNodes(s, { src: n.D, dst: n.C, kind: "depends_on" });
      expect(gone).toMatchObject({ inferredRetracted: 1, inferredRederived: 0 });
      expect(await atomEdges(s, n, "depends_on")).toEqual(["A>D", "B>C"]);
      expect(
        await sqlOf(
          s,
        )`SELECT 1 FROM pm_inference_premise WHERE derived_origin = 'pm_atom_link' AND derived_id = ${again.id}`,
      ).toHaveLength(0);
    });

    test("code: the agent's atom → symbol and symbol → symbol links go; what the code store made is refused", async () => {
      const s = t.services;
      const a = await atom(s, "parse() reads the configuration");
      const [f, g] = [await symbol(s, "parse"), await symbol(s, "load")];
      const toSym = await linkNodes(s, { src: a, dst: `symbol:${f}`, kind: "describes" });
      const between = await linkNodes(s, { src: `symbol:${f}`, dst: `symbol:${g}`, kind: "depends_on" });
      expect((await unlinkNodes(s, { src: a, dst: `symbol:${f}`, kind: "describes" })).table).toBe(
        "pm_atom_symbol_link",
      );
      expect(await deletes(s, "atom_symbol_link", toSym.linkId)).toBe(1);
      // An extracted call of the same endpoints and kind sits beside the agent's row: only the agent's goes.
      await sqlOf(
        s,
      )`INSERT INTO pm_code_dependency (repo, src_symbol_id, dst_symbol_id, dst_name, kind, path, line) VALUES ('unlink', ${f}, ${g}, 'load', 'depends_on', 'm.py', 3)`;
      const gone = await unlinkNodes(s, { src: `symbol:${f}`, dst: `symbol:${g}`, kind: "depends_on" });
      expect(gone).toMatchObject({ linkId: between.linkId, table: "pm_code_dependency", source: "agent" });
      expect(await deletes(s, "code_dependency", between.linkId)).toBe(1);
      const extracted = await failure(unlinkNodes(s, { src: `symbol:${f}`, dst: `symbol:${g}`, kind: "depends_on" }));
      expect(extracted.code).toBe("INVALID_INPUT");
      expect(extracted.message).toContain("extracted from the source");
      expect(extracted.hint).toContain("memory_store_code");
      expect(
        await sqlOf(s)`SELECT 1 FROM pm_code_dependency WHERE src_symbol_id = ${f} AND dst_symbol_id = ${g}`,
      ).toHaveLength(1);

      await sqlOf(
        s,
      )`INSERT INTO pm_atom_symbol_link (atom_id, symbol_id, kind, confidence, source) VALUES (${a}, ${g}, 'defines', 1, 'extraction')`;
      const defines = await failure(unlinkNodes(s, { src: a, dst: `symbol:${g}`, kind: "defines" }));
      expect(defines.code).toBe("INVALID_INPUT");
      expect(defines.hint).toContain("forget the code atom");
      const backwards = await failure(unlinkNodes(s, { src: `symbol:${g}`, dst: a, kind: "defines" }));
      expect(backwards.code).toBe("INVALID_INPUT");
      expect(backwards.hint).toContain(`src atom:${a}`);
    });
  });
}

describe("the projection follows a removal (pglite, outbox worker, recording sink)", () => {
  const t = suiteServices("pglite");
  test("the removed edge and the inferred edge it alone justified leave the sink; the rest stays", async () => {
    const s = t.services;
    const sink = new RecordingSink();
    const worker = new OutboxWorker({ outbox: s.outbox, sinks: [sink], model: s.embedder.model });
    const n = [await atom(s, "Проекция 1"), await atom(s, "Projection 2"), await atom(s, "Projection 3")];
    const ab = await linkNodes(s, { src: n[0], dst: n[1], kind: "causes" });
    const bc = await linkNodes(s, { src: n[1], dst: n[2], kind: "causes" });
    await infer(s, { ruleIds: [await rule(s, '{"if": ["causes", "causes"], "then": "causes"}')] });
    await worker.runOnce();
    const [ac] = await sqlOf(
      s,
    )`SELECT id FROM pm_atom_link WHERE inferred AND src_atom_id = ${n[0]} AND dst_atom_id = ${n[2]}`;
    const keys = [`pm_atom_link:${ab.linkId}`, `pm_atom_link:${bc.linkId}`, `pm_atom_link:${ac.id}`];
    for (const k of keys) expect(sink.state.edge.has(k)).toBe(true);

    await unlinkNodes(s, { src: n[0], dst: n[1], kind: "causes" });
    await worker.runOnce();
    expect(keys.map((k) => sink.state.edge.has(k))).toEqual([false, true, false]);
  });
});
