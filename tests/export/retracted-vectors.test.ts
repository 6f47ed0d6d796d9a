/**
 * An import without embeddings leaves every atom that can be searched again with a vector: the backfill after
 * `import` (and `rebuild vector`), backfillEmbeddings, embeds retracted atoms too; `forget --undo` embeds a restored
 * atom that has no vector of the active model (whatever the reason); doctor's embeddings check counts every atom
 * (retracted ones included). PGlite at both ends.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { backfillEmbeddings, backfillRetracted } from "../../src/core/projections/backfill.ts";
import { forget } from "../../src/core/knowledge/link-forget.ts";
import type { Services } from "../../src/core/services.ts";
import { storeAtom } from "../../src/core/knowledge/store-atom.ts";
import { checkEmbeddings } from "../../src/wiring/doctor/embeddings.ts";
import { setLogLevel } from "../../src/log.ts";
import { openTestServices, type TestServices } from "../support/services.ts";
import { dbOf, exportToFile, importFile } from "./support.ts";

beforeAll(() => setLogLevel("warn"));
afterAll(() => setLogLevel("info"));

const CLAIMS = [
  "Ragin let the hospital ward decay for twenty years",
  "Andrey Yefimitch reads in the evenings and drinks beer",
  "Ivan Dmitritch Gromov suffers from persecution mania",
];

const open = async (): Promise<TestServices> => {
  const t = await openTestServices("pglite");
  if (typeof t === "string") throw new Error(t);
  return t;
};

/** Atom ids with a vector of the active model, in id order. */
async function embedded(s: Services): Promise<number[]> {
  const rows = await dbOf(s).run(
    (sql) => sql`SELECT atom_id FROM pm_atom_embedding WHERE model = ${s.embedder.model} ORDER BY atom_id`,
  );
  return rows.map((r) => Number(r.atom_id));
}

describe("vectors of retracted atoms across an import without embeddings", () => {
  let source: TestServices;
  let file: string;
  let dir: string;
  const ids: number[] = [];
  let atomCount = 0;
  const targets: TestServices[] = [];
  beforeAll(async () => {
    source = await open();
    for (const claim of CLAIMS) ids.push((await storeAtom(source.services, { type: "fact", claim })).atom_id);
    await forget(source.services, { atom_id: ids[1], reason: "a test of the import's backfill" });
    atomCount = Number((await dbOf(source.services).run((sql) => sql`SELECT count(*) AS n FROM pm_atom`))[0].n);
    dir = mkdtempSync(join(tmpdir(), "pegas-retracted-vectors-"));
    file = join(dir, "store.jsonl");
    await exportToFile(dbOf(source.services), file, false);
  }, 120_000);
  afterAll(async () => {
    for (const t of targets) await t.dispose();
    await source?.dispose();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /** A fresh PGlite store holding the export, without any vector yet. */
  async function imported(): Promise<Services> {
    const t = await open();
    targets.push(t);
    await dbOf(t.services).run((sql) => sql`DELETE FROM pm_atom_embedding`);
    await importFile(dbOf(t.services), file);
    expect(await embedded(t.services)).toEqual([]);
    return t.services;
  }

  test("the import's backfill embeds every atom, the retracted one too; doctor says all of them", async () => {
    const s = await imported();
    expect(await backfillEmbeddings(s)).toBe(atomCount);
    expect(await embedded(s)).toContain(ids[1]);
    expect((await embedded(s)).length).toBe(atomCount);
    const check = await checkEmbeddings(dbOf(s), { model: s.embedder.model, dim: s.embedder.dim, kind: "lexical" });
    expect(check.level).toBe("ok");
    expect(check.detail).toContain(`${atomCount} of ${atomCount} atom(s) embedded`);
    expect(await backfillEmbeddings(s)).toBe(0); // idempotent
    expect(await backfillRetracted(s)).toBe(0);
  }, 60_000);

  test("a retracted atom without a vector: doctor warns; forget --undo embeds it as it restores it", async () => {
    const s = await imported();
    // A retracted atom without a vector of the active model: what the import left before, or forgotten before a
    // switch of model.
    await backfillEmbeddings(s);
    await dbOf(s).run((sql) => sql`DELETE FROM pm_atom_embedding WHERE atom_id = ${ids[1]}`);
    expect(await embedded(s)).not.toContain(ids[1]);
    const before = await checkEmbeddings(dbOf(s), { model: s.embedder.model, dim: s.embedder.dim, kind: "lexical" });
    expect(before.level).toBe("warn");
    expect(before.detail).toContain(`${atomCount - 1} of ${atomCount} atom(s) embedded`);
    const out = await forget(s, { atom_id: ids[1], reason: "it was right after all", undo: true });
    expect(out.changes.map((c) => c.atom_id)).toEqual([ids[1]]);
    expect(await embedded(s)).toContain(ids[1]);
    expect((await embedded(s)).length).toBe(atomCount);
    const hits = await s.embeddingStore.embeddingsOf([ids[1]], s.embedder.model);
    expect(hits.get(ids[1])?.length).toBe(s.embedder.dim);
  }, 60_000);
});
