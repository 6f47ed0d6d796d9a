/**
 * Truth maintenance when a derived edge has more than one justification (PGlite and PostgreSQL): removing the premise
 * of one rule keeps the edge another rule still implies (re-derived, counted as kept); the same for one chain rule
 * with two paths; an asserted edge that a rule also implies is never retracted, nor is what was derived from it.
 */
import { describe, expect, test } from "bun:test";
import { infer } from "../../src/core/inference/infer.ts";
import { forget, linkNodes, unlinkNodes } from "../../src/core/knowledge/link-forget.ts";
import type { Services } from "../../src/core/services.ts";
import { pgSkipReason } from "../support/pg.ts";
import { suiteServices } from "../support/services.ts";
import { atom, atomEdges, link, rule, sqlOf } from "./support.ts";

/** The inferred atom link `a -kind-> b`: its id and recorded rule, or undefined. */
async function inferredLink(
  s: Services,
  a: number,
  b: number,
  kind: string,
): Promise<{ id: number; rule: number } | undefined> {
  const [r] = await sqlOf(s)`
    SELECT id, justification->>'rule' AS rule FROM pm_atom_link WHERE src_atom_id = ${a} AND dst_atom_id = ${b} AND kind = ${kind} AND inferred`;
  return r ? { id: Number(r.id), rule: Number(r.rule) } : undefined;
}

for (const backend of ["pglite", "postgres"] as const) {
  const skip = backend === "postgres" ? await pgSkipReason() : null;
  describe.skipIf(!!skip)(`TMS with several justifications (${backend})`, () => {
    const t = suiteServices(backend, {}, { skip });

    test("two rules imply one edge: removing the premise of either keeps it; removing both retracts it", async () => {
      const s = t.services;
      const [a, b] = [await atom(s, "Claim two of the TMS case"), await atom(s, "Claim three of the TMS case")];
      const rA = await rule(s, '{"if": "supports", "then": "related_to"}');
      const rB = await rule(s, '{"if": "confirms", "then": "related_to"}');
      await linkNodes(s, { src: a, dst: b, kind: "supports" });
      await linkNodes(s, { src: a, dst: b, kind: "confirms" });
      const first = await infer(s, { ruleIds: [rA, rB] });
      expect(first.edgesAdded).toBe(1);
      const before = await inferredLink(s, a, b, "related_to");
      expect(before?.rule).toBe(rA); // the first rule's justification is the recorded one

      const gone = await unlinkNodes(s, { src: a, dst: b, kind: "supports" });
      expect(gone).toMatchObject({ inferredRetracted: 0, inferredRederived: 1 });
      const after = await inferredLink(s, a, b, "related_to");
      expect(after?.rule).toBe(rB); // held now by the other rule, recorded as such
      const premises = await sqlOf(
        s,
      )`SELECT rule_atom_id FROM pm_inference_premise WHERE derived_origin = 'pm_atom_link' AND derived_id = ${after!.id}`;
      expect(premises.map((p) => Number(p.rule_atom_id))).toEqual([rB]);
      expect((await infer(s, { ruleIds: [rA, rB] })).edgesAdded).toBe(0); // nothing was missing

      const last = await unlinkNodes(s, { src: a, dst: b, kind: "confirms" });
      expect(last).toMatchObject({ inferredRetracted: 1, inferredRederived: 0 });
      expect(await inferredLink(s, a, b, "related_to")).toBeUndefined();
    });

    test("two rules imply one edge: forgetting the recorded rule's atom keeps the edge under the other rule", async () => {
      const s = t.services;
      const [a, b] = [await atom(s, "Claim four of the TMS case"), await atom(s, "Claim five of the TMS case")];
      const rA = await rule(s, '{"if": "cites", "then": "builds_on"}');
      const rB = await rule(s, '{"if": "extends", "then": "builds_on"}');
      await linkNodes(s, { src: a, dst: b, kind: "cites" });
      await linkNodes(s, { src: a, dst: b, kind: "extends" });
      expect((await infer(s, { ruleIds: [rA, rB] })).edgesAdded).toBe(1);
      expect((await inferredLink(s, a, b, "builds_on"))?.rule).toBe(rA);
      await forget(s, { atom_id: rA, reason: "rule A withdrawn" });
      expect((await inferredLink(s, a, b, "builds_on"))?.rule).toBe(rB);
      await forget(s, { atom_id: rB, reason: "rule B withdrawn" });
      expect(await inferredLink(s, a, b, "builds_on")).toBeUndefined();
    });

    test("a rule whose body is longer than the recorded rule's still re-derives (the neighbourhood read grows)", async () => {
      const s = t.services;
      const n = {
        A: await atom(s, "Long body A"),
        B: await atom(s, "Long body B"),
        C: await atom(s, "Long body C"),
        D: await atom(s, "Long body D"),
      };
      const short = await rule(s, '{"if": "cites", "then": "traces_to"}');
      const long = await rule(s, '{"if": ["quotes", "quotes", "quotes"], "then": "traces_to"}');
      const cites = await link(s, n.A, n.D, "cites");
      await link(s, n.A, n.B, "quotes");
      await link(s, n.B, n.C, "quotes");
      await link(s, n.C, n.D, "quotes");
      await infer(s, { ruleIds: [short, long] });
      expect((await inferredLink(s, n.A, n.D, "traces_to"))?.rule).toBe(short);
      const gone = await unlinkNodes(s, { src: n.A, dst: n.D, kind: "cites" });
      expect(cites).toBeGreaterThan(0);
      expect(gone).toMatchObject({ inferredRetracted: 0, inferredRederived: 1 });
      expect((await inferredLink(s, n.A, n.D, "traces_to"))?.rule).toBe(long);
    });

    test("one chain rule, two paths: removing a link of one path keeps the edge through the other", async () => {
      const s = t.services;
      const n = {
        A: await atom(s, "Two paths A"),
        B: await atom(s, "Two paths B"),
        C: await atom(s, "Two paths C"),
        D: await atom(s, "Two paths D"),
      };
      const r = await rule(s, '{"if": ["feeds", "feeds"], "then": "feeds_into"}');
      for (const [x, y] of [
        ["A", "B"],
        ["B", "C"],
        ["A", "D"],
        ["D", "C"],
      ] as const)
        await linkNodes(s, { src: n[x], dst: n[y], kind: "feeds" });
      expect((await infer(s, { ruleIds: [r] })).edgesAdded).toBe(1);
      const gone = await unlinkNodes(s, { src: n.A, dst: n.B, kind: "feeds" });
      expect(gone).toMatchObject({ inferredRetracted: 0, inferredRederived: 1 });
      expect(await atomEdges(s, n, "feeds_into", true)).toEqual(["A>C"]);
      const last = await unlinkNodes(s, { src: n.D, dst: n.C, kind: "feeds" });
      expect(last).toMatchObject({ inferredRetracted: 1, inferredRederived: 0 });
      expect(await atomEdges(s, n, "feeds_into")).toEqual([]);
    });

    test("an asserted edge a rule also implies is never retracted, nor what was derived from it", async () => {
      const s = t.services;
      const n = { A: await atom(s, "Asserted A"), B: await atom(s, "Asserted B"), C: await atom(s, "Asserted C") };
      const r1 = await rule(s, '{"if": "backs", "then": "endorses"}');
      const r2 = await rule(s, '{"if": ["endorses", "endorses"], "then": "endorses"}');
      await linkNodes(s, { src: n.A, dst: n.B, kind: "backs" });
      await link(s, n.A, n.B, "endorses"); // extracted: the rule's conclusion is already there, asserted
      await linkNodes(s, { src: n.B, dst: n.C, kind: "endorses" });
      expect((await infer(s, { ruleIds: [r1, r2] })).edgesAdded).toBe(1); // A→C only
      await unlinkNodes(s, { src: n.A, dst: n.B, kind: "backs" });
      expect(await atomEdges(s, n, "endorses", false)).toEqual(["A>B", "B>C"]);
      expect(await atomEdges(s, n, "endorses", true)).toEqual(["A>C"]);

      // An inferred edge the agent then asserts is the agent's: its premise going retracts neither it nor A→C.
      const [x, y] = [await atom(s, "Asserted later X"), await atom(s, "Asserted later Y")];
      await linkNodes(s, { src: x, dst: y, kind: "backs" });
      await linkNodes(s, { src: y, dst: n.A, kind: "endorses" });
      await infer(s, { ruleIds: [r1, r2] });
      expect(await inferredLink(s, x, y, "endorses")).toBeDefined();
      await linkNodes(s, { src: x, dst: y, kind: "endorses" });
      const gone = await unlinkNodes(s, { src: x, dst: y, kind: "backs" });
      expect(gone.inferredRetracted).toBe(0);
      expect(await atomEdges(s, { X: x, Y: y, A: n.A, B: n.B, C: n.C }, "endorses", false)).toContain("X>Y");
      expect(await atomEdges(s, { X: x, Y: y, A: n.A, B: n.B, C: n.C }, "endorses", true)).toEqual([
        "A>C",
        "X>A",
        "X>B",
        "X>C",
        "Y>B",
        "Y>C",
      ]);
    });
  });
}
