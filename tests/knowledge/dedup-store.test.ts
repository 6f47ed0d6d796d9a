/**
 * Dedup that respects meaning, end to end through memory_store and ingest on PostgreSQL with the embedded lexical
 * embedder: a restatement is merged (the agent's atom kept as a stale row, the merge recorded and undoable), a negated
 * claim or another number is kept and linked `contradicts`, a different fact is kept apart; agent links are checked.
 */
import { describe, expect, test } from "bun:test";
import type { SqlCanonicalStore } from "../../src/adapters/sql/store.ts";
import { ingest } from "../../src/core/documents/ingest.ts";
import { search } from "../../src/core/search/search.ts";
import { storeAtom } from "../../src/core/knowledge/store-atom.ts";
import { verifyAtoms } from "../../src/core/verify/verify.ts";
import { rejectsWith } from "../support/errors.ts";
import { pgSkipReason } from "../support/pg.ts";
import { suiteServices } from "../support/services.ts";

const skip = await pgSkipReason();
const t = suiteServices("postgres", {}, { skip });

const sql = () => (t.services.maintenance as SqlCanonicalStore).db.sql;

describe.skipIf(skip !== null)("dedup through memory_store and ingest", () => {
  let base = 0;

  test("a restatement merges into the stored atom; the merge is recorded and can be undone", async () => {
    const a = await storeAtom(t.services, {
      type: "fact",
      claim: "Aspirin reduces the risk of stroke by 20 percent.",
      source_uri: "https://a.example/1",
    });
    base = a.atom_id;
    expect(a.created).toBe(true);
    const b = await storeAtom(t.services, {
      type: "fact",
      claim: "Aspirin reduces the risk of stroke by 20 percent!",
      source_uri: "https://b.example/2",
    });
    expect(b.atom_id).toBe(base);
    expect(b.created).toBe(false);
    expect(b.merge).not.toBeNull();
    expect(b.near_duplicate_of?.atom_id).toBe(base);
    const [absorbed] = await sql()`SELECT status FROM pm_atom WHERE id = ${b.merge!.absorbed_atom_id}`;
    expect(absorbed.status).toBe("stale");
    // The kept atom carries the evidence of both sources.
    const cites =
      await sql()`SELECT d.uri FROM pm_citation c JOIN pm_document d ON d.id = c.doc_id WHERE c.atom_id = ${base} ORDER BY d.uri`;
    expect(cites.map((c) => c.uri)).toEqual(["https://a.example/1", "https://b.example/2"]);

    const undone = await t.services.atomWrites.undoMerge(b.merge!.merge_id);
    expect(undone.undoneAt).not.toBeNull();
    const [back] = await sql()`SELECT status FROM pm_atom WHERE id = ${b.merge!.absorbed_atom_id}`;
    expect(back.status).toBe("candidate");
    const after =
      await sql()`SELECT d.uri FROM pm_citation c JOIN pm_document d ON d.id = c.doc_id WHERE c.atom_id = ${base}`;
    expect(after.map((c) => c.uri)).toEqual(["https://a.example/1"]);
    const [history] =
      await sql()`SELECT from_status, to_status, actor FROM pm_atom_status_change WHERE atom_id = ${b.merge!.absorbed_atom_id}`;
    expect(history).toMatchObject({ from_status: "stale", to_status: "candidate", actor: "unmerge" });
    // Verification respects the undo: the two are never called duplicates again.
    const v = await verifyAtoms(t.services, { atom_id: b.merge!.absorbed_atom_id });
    expect(v.verdicts.duplicate).toBe(0);
    const [still] = await sql()`SELECT status FROM pm_atom WHERE id = ${b.merge!.absorbed_atom_id}`;
    expect(still.status).not.toBe("stale");
    await rejectsWith(t.services.atomWrites.undoMerge(b.merge!.merge_id), "INVALID_INPUT");
    await rejectsWith(t.services.atomWrites.undoMerge(999_999), "NOT_FOUND");
  });

  test("the text of an absorbed atom stored again resolves to the atom that absorbed it", async () => {
    const k = await storeAtom(t.services, { type: "fact", claim: "The Kessler bridge is 120 metres long." });
    const m = await storeAtom(t.services, { type: "fact", claim: "The Kessler bridge is 120 metres long!" });
    expect(m.merge).not.toBeNull();
    const again = await storeAtom(t.services, {
      type: "fact",
      claim: "The Kessler bridge is 120 metres long!",
      source_uri: "https://c.example/3",
    });
    expect(again.atom_id).toBe(k.atom_id);
    const cites =
      await sql()`SELECT d.uri FROM pm_citation c JOIN pm_document d ON d.id = c.doc_id WHERE c.atom_id = ${k.atom_id}`;
    expect(cites.map((c) => c.uri)).toContain("https://c.example/3");
  });

  test("undoing a merge takes back what verification built on it, and cannot be reverted alone", async () => {
    const a = await storeAtom(t.services, {
      type: "fact",
      claim: "The Volga flows into the Caspian Sea.",
      source_uri: "https://rivers.example.org/volga",
    });
    const b = await storeAtom(t.services, {
      type: "fact",
      claim: "The Volga flows into the Caspian Sea!",
      source_uri: "https://geo.example.net/volga",
    });
    expect(b.merge).not.toBeNull();
    const v = await verifyAtoms(t.services, { atom_id: a.atom_id });
    expect(v.changes.map((c) => c.to)).toEqual(["verified"]);
    await t.services.atomWrites.undoMerge(b.merge!.merge_id);
    const [kept] = await sql()`SELECT status, confidence FROM pm_atom WHERE id = ${a.atom_id}`;
    expect(kept.status).toBe("candidate");
    expect(kept.confidence).toBeCloseTo(0.5, 5);
    const [change] =
      await sql()`SELECT id, actor FROM pm_atom_status_change WHERE atom_id = ${a.atom_id} ORDER BY id DESC LIMIT 1`;
    expect(change.actor).toBe("unmerge");
    await rejectsWith(t.services.verification.revertStatusChange(Number(change.id)), "INVALID_INPUT");
    // The split atoms never corroborate each other again.
    const again = await verifyAtoms(t.services, { atom_id: b.merge!.absorbed_atom_id });
    expect(again.verdicts.corroborates + again.verdicts.duplicate).toBe(0);
  });

  for (const [label, claim] of [
    ["a negation", "Aspirin does not reduce the risk of stroke by 20 percent."],
    ["another number", "Aspirin reduces the risk of stroke by 35 percent."],
    ["a Russian negation", "Аспирин не снижает риск инсульта на 20 процентов."],
  ] as const) {
    test(`${label} is kept apart and linked contradicts`, async () => {
      if (label === "a Russian negation")
        await storeAtom(t.services, { type: "fact", claim: "Аспирин снижает риск инсульта на 20 процентов." });
      const c = await storeAtom(t.services, { type: "fact", claim });
      expect(c.created).toBe(true);
      expect(c.merge).toBeNull();
      expect(c.contradicts.length).toBeGreaterThan(0);
      const links = await sql()`SELECT kind, source FROM pm_atom_link WHERE src_atom_id = ${c.atom_id}`;
      expect(links.map((l) => [l.kind, l.source])).toContainEqual(["contradicts", "dedup"]);
    });
  }

  test("another fact in the same sentence pattern is kept, not merged, not contradicting", async () => {
    const d = await storeAtom(t.services, {
      type: "fact",
      claim: "Ibuprofen reduces the risk of stroke by 20 percent.",
    });
    expect(d.created).toBe(true);
    expect(d.merge).toBeNull();
    expect(d.contradicts).toEqual([]);
  });

  test("agent links are stored; a bad kind or a missing target is refused and stores nothing", async () => {
    const e = await storeAtom(t.services, {
      type: "text",
      claim: "Stroke risk depends on blood pressure.",
      links: [{ atom_id: base, kind: "cause", confidence: 0.6 }],
    });
    const [l] =
      await sql()`SELECT dst_atom_id, kind, source, confidence FROM pm_atom_link WHERE src_atom_id = ${e.atom_id} AND source = 'agent'`;
    expect(l).toMatchObject({ dst_atom_id: base, kind: "cause", source: "agent" });
    const [{ n: before }] = await sql()`SELECT count(*)::int AS n FROM pm_atom`;
    await rejectsWith(
      storeAtom(t.services, { type: "text", claim: "Bad link kind.", links: [{ atom_id: base, kind: "Not A Token" }] }),
      "INVALID_INPUT",
    );
    await rejectsWith(
      storeAtom(t.services, { type: "text", claim: "Missing target.", links: [{ atom_id: 987_654, kind: "cause" }] }),
      "NOT_FOUND",
    );
    await rejectsWith(
      storeAtom(t.services, { type: "text", claim: "Script as evidence.", source_uri: "javascript:alert(1)" }),
      "INVALID_INPUT",
    );
    const [{ n: after }] = await sql()`SELECT count(*)::int AS n FROM pm_atom`;
    expect(after).toBe(before);
  });

  test("ingest merges a restated sentence of another document and links a contradicting one", async () => {
    const one = await ingest(t.services, {
      text: "The Eiffel Tower was completed in 1889. It is made of wrought iron.",
    });
    expect(one.atoms_created).toBeGreaterThanOrEqual(1);
    const two = await ingest(t.services, {
      text: "THE EIFFEL TOWER WAS COMPLETED IN 1889! Paris is the capital of France.",
    });
    expect(two.atoms_near_duplicate).toBe(1);
    expect(two.documents[0].merges.length).toBe(1);
    expect(two.documents[0].merges[0].kept_atom_id).toBeGreaterThan(0);
    const three = await ingest(t.services, { text: "The Eiffel Tower was completed in 1887." });
    expect(three.atoms_contradicting).toBe(1);
    const hits = (await search(t.services, { query: "Eiffel Tower completed", k: 5, mode: "lexical" })).hits;
    const merged = hits.find((h) => h.claim.startsWith("The Eiffel Tower was completed in 1889"));
    expect(merged?.citations.length).toBe(2);
  });
});

test("a passage is claimed by its first sentence of three words or more", async () => {
  const { passageClaim } = await import("../../src/core/documents/distill.ts");
  expect(passageClaim("29.\nThe ward stands in the yard. It is old.")).toBe("The ward stands in the yard.");
  expect(passageClaim("BOOK I.\n\nВ больничном дворе стоит флигель.")).toBe("В больничном дворе стоит флигель.");
  expect(passageClaim("1. 2. 3.")).toBe("1.");
});
