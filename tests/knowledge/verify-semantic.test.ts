/**
 * Issue 4 acceptance, memory_verify with a semantic embedder: the same fact in other words on two independent
 * sites becomes `verified`; on two pages of one site it stays `candidate`. The embedder is OllamaEmbedder talking
 * to the stand-in test server of ollama-stub.ts (not Ollama, no model): it answers scripted vectors, giving the
 * two wordings of a fact the near-identical vectors a semantic model would give them, and unrelated texts
 * pseudo-random ones.
 */
import { describe, expect, test } from "bun:test";
import type { SqlCanonicalStore } from "../../src/adapters/sql/store.ts";
import { storeAtom } from "../../src/core/knowledge/store-atom.ts";
import { verifyAtoms } from "../../src/core/verify/verify.ts";
import { STUB_MODEL, startOllamaStub } from "../support/ollama-stub.ts";
import { pgSkipReason } from "../support/pg.ts";
import { suiteServices } from "../support/services.ts";

const skip = await pgSkipReason();
const stub = startOllamaStub({ dim: 8 });

/** Each fact's wordings share one direction (a semantic model's view); the second wording is tilted slightly. */
const FACTS: Array<{ words: string[]; base: number[] }> = [
  {
    words: ["Aspirin lowers the risk of stroke.", "The risk of stroke is reduced by taking aspirin."],
    base: [1, 0.2, 0, 0, 0, 0, 0, 0],
  },
  { words: ["Пингвины живут в Антарктиде.", "В Антарктиде обитают пингвины."], base: [0, 0, 1, 0.1, 0, 0, 0, 0] },
];

stub.vectors = (input) => {
  for (const f of FACTS) {
    const i = f.words.findIndex((w) => input.includes(w));
    if (i >= 0) return f.base.map((x, j) => (j === 7 ? 0.05 * i : x));
  }
  return undefined;
};
const t = suiteServices(
  "postgres",
  { ollama_host: stub.url, embed_model: STUB_MODEL, embed_dim: 8 },
  { skip, after: () => stub.stop() },
);

const statusOf = async (id: number) => {
  const [row] = await (t.services.maintenance as SqlCanonicalStore).db.sql`SELECT status FROM pm_atom WHERE id = ${id}`;
  return String(row.status);
};

describe.skipIf(skip !== null)("memory_verify with a semantic embedder (scripted stand-in)", () => {
  test("other words on two independent sites: verified", async () => {
    const [first, second] = FACTS[0].words;
    const a = await storeAtom(t.services, {
      type: "fact",
      claim: first,
      source_uri: "https://stroke.example.org/aspirin",
    });
    const b = await storeAtom(t.services, {
      type: "fact",
      claim: second,
      source_uri: "https://medicine.example.net/review",
    });
    // The semantic policy merges the paraphrase (no guarded feature differs); the kept atom carries both citations.
    expect(b.atom_id).toBe(a.atom_id);
    const r = await verifyAtoms(t.services, { atom_id: a.atom_id });
    expect(r.changes.map((c) => c.to)).toEqual(["verified"]);
    expect(await statusOf(a.atom_id)).toBe("verified");
  });

  test("other words on two pages of one site: stays candidate", async () => {
    const [first, second] = FACTS[1].words;
    const a = await storeAtom(t.services, {
      type: "fact",
      claim: first,
      source_uri: "https://zoo.example.org/penguins",
    });
    await storeAtom(t.services, { type: "fact", claim: second, source_uri: "https://zoo.example.org/antarctica" });
    const r = await verifyAtoms(t.services, { atom_id: a.atom_id });
    expect(r.changes).toEqual([]);
    expect(await statusOf(a.atom_id)).toBe("candidate");
  });
});
