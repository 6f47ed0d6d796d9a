/**
 * ConfidenceReads over SQL on PGlite and PostgreSQL: the facts of an atom as its story unfolds — cited by one page,
 * contradicted and verified (contested, checked, one live contradiction), its page gone (404), superseded by a newer
 * statement, merged into another atom as a duplicate — each turned into the reason the model lists.
 */
import { describe, expect, test } from "bun:test";
import { explainedConfidences } from "../../src/core/knowledge/confidence.ts";
import { storeAtom } from "../../src/core/knowledge/store-atom.ts";
import { verifyAtoms } from "../../src/core/verify/verify.ts";
import { pgSkipReason } from "../support/pg.ts";
import { suiteServices } from "../support/services.ts";

function scenario(backend: "pglite" | "postgres", skip: string | null): void {
  describe.skipIf(Boolean(skip))(`confidence facts over SQL (${backend})`, () => {
    const t = suiteServices(backend, {}, { skip });

    test("cited, contradicted, verified, gone: each shows in the facts and the reasons", async () => {
      const s = t.services;
      const a = await storeAtom(s, {
        type: "fact",
        claim: "Иван Дмитрич Громов лежит в палате номер шесть уже пять лет.",
        source_uri: "https://palata.example.org/gromov",
      });
      let facts = (await s.confidence.confidenceFacts([a.atom_id])).get(a.atom_id)!;
      expect(facts).toMatchObject({ status: "candidate", checked: false, contradictions: 0, supersededBy: 0 });
      expect(facts.prior).toBeCloseTo(0.5, 5);
      expect(facts.sources).toEqual([
        { site: "web:example.org", authority: 0.5, gone: false, uncheckedDays: expect.any(Number) },
      ]);
      expect(facts.ageDays).toBeLessThan(1);

      const b = await storeAtom(s, {
        type: "fact",
        claim: "Иван Дмитрич Громов лежит в палате номер шесть уже девять лет.",
        source_uri: "https://other.example.net/gromov",
      });
      expect(b.contradicts.map((c) => c.atom_id)).toContain(a.atom_id);
      await verifyAtoms(s, { atom_id: a.atom_id });
      facts = (await s.confidence.confidenceFacts([a.atom_id])).get(a.atom_id)!;
      expect(facts).toMatchObject({ status: "contested", checked: true, contradictions: 1 });
      const contested = (await explainedConfidences(s, [a.atom_id])).get(a.atom_id)!;
      expect(contested.reasons[0].code).toBe("contested");

      const docId = a.doc_id!;
      await s.freshness.markGone(docId, 404);
      facts = (await s.confidence.confidenceFacts([a.atom_id])).get(a.atom_id)!;
      expect(facts.sources[0].gone).toBe(true);
      const gone = (await explainedConfidences(s, [a.atom_id])).get(a.atom_id)!;
      expect(gone.reasons.map((r) => r.code)).toEqual(expect.arrayContaining(["source_gone", "unsourced"]));
      expect(gone.value).toBeLessThan(contested.value);
      expect((await s.confidence.confidenceFacts([987654321])).size).toBe(0);
    });

    test("superseded and merged atoms: their facts say so", async () => {
      const s = t.services;
      const old = await storeAtom(s, { type: "fact", claim: "Kiyo works at Acme", observed_at: "2023-02-01" });
      const now = await storeAtom(s, { type: "fact", claim: "Kiyo now works at Globex", observed_at: "2025-05-01" });
      expect(now.supersedes?.map((x) => x.atom_id)).toEqual([old.atom_id]);
      const f = (await s.confidence.confidenceFacts([old.atom_id])).get(old.atom_id)!;
      expect(f).toMatchObject({ status: "superseded", supersededBy: 1 });
      expect(f.ageDays).toBeGreaterThan(365);
      const e = (await explainedConfidences(s, [old.atom_id])).get(old.atom_id)!;
      expect(e.reasons[0].code).toBe("superseded");

      const kept = await storeAtom(s, { type: "fact", claim: "Kiyo's office is on the fourth floor of the tower." });
      const dup = await storeAtom(s, { type: "fact", claim: "Kiyo's office is on the fourth floor of the tower!" });
      expect(dup.merge).not.toBeNull();
      const absorbed = (await s.confidence.confidenceFacts([dup.merge!.absorbed_atom_id])).get(
        dup.merge!.absorbed_atom_id,
      )!;
      expect(absorbed).toMatchObject({ status: "stale", duplicate: true });
      expect(kept.atom_id).toBe(dup.atom_id);
    });
  });
}

scenario("pglite", null);
scenario("postgres", await pgSkipReason());
