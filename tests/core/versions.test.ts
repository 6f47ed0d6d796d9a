/**
 * Document versions: a changed file is a new version whose new wording is a new atom; atoms found only in the old
 * version become stale (provenance kept) and come back when the text returns; unchanged atoms keep their ids;
 * facts the agent stored citing the file are left alone.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { ingest } from "../../src/core/documents/ingest.ts";
import { search } from "../../src/core/search/search.ts";
import { stats } from "../../src/core/projections/stats.ts";
import { storeAtom } from "../../src/core/knowledge/store-atom.ts";
import { fixture, openTestServices, type TestServices } from "../support/services.ts";

let t: TestServices;
let dir: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "pegas-versions-"));
  const opened = await openTestServices("pglite", { ingest_roots: [dir] });
  if (typeof opened === "string") throw new Error(opened);
  t = opened;
}, 60_000);
afterAll(async () => {
  await t?.dispose();
  rmSync(dir, { recursive: true, force: true });
});

test("edit, re-ingest, revert", async () => {
  const s = t.services;
  const path = join(dir, "palata.txt");
  const original = readFileSync(fixture("text/ru_chekhov_palata_no6.txt"), "utf8");
  writeFileSync(path, original);
  const v1 = await ingest(s, { path });
  expect(v1.atoms_created + v1.atoms_existing + v1.atoms_near_duplicate).toBe(v1.atoms_distilled);
  const agent = await storeAtom(s, {
    type: "fact",
    claim: "Флигель окружён репейником.",
    source_uri: pathToFileURL(path).href,
    quote: "целым лесом репейника",
  });

  const word = "замечательный";
  expect(original).toContain(word);
  writeFileSync(path, original.replace(word, "удивительный"));
  const v2 = await ingest(s, { path });
  // Only the atoms holding the edited sentence are new; the old ones go stale, the rest are found again.
  expect(v2).toMatchObject({ doc_id: v1.doc_id, version: 2, atoms_near_duplicate: 0 });
  expect(v2.atoms_created).toBeGreaterThanOrEqual(1);
  expect(v2.atoms_staled).toBe(v2.atoms_created);
  expect(v2.atoms_existing).toBe(v2.atoms_distilled - v2.atoms_created);
  const hit = (await search(s, { query: "удивительный", k: 1, mode: "lexical" })).hits[0];
  expect(hit.content).toContain("удивительный");
  expect(hit.citations.some((c) => c.doc_id === v1.doc_id && c.doc_version === 2)).toBe(true);
  const old = (await search(s, { query: word, k: 1, mode: "lexical", status: ["stale"] })).hits[0];
  expect(old.status).toBe("stale");
  const byDefault = await search(s, { query: word, k: 50, mode: "lexical" });
  expect(byDefault.hits.map((h) => h.atom_id)).not.toContain(old.atom_id);
  expect(old.citations[0].doc_version).toBe(1);

  writeFileSync(path, original);
  const v3 = await ingest(s, { path });
  expect(v3).toMatchObject({
    version: 3,
    atoms_created: 0,
    atoms_staled: v2.atoms_created,
    atoms_revived: v2.atoms_created,
  });
  const st = await stats(s);
  // Stale: the edited version's atoms, and the atoms v1 merged into near-duplicates (kept for undo).
  expect(st.atoms.by_status.stale).toBe(v2.atoms_created + v1.atoms_near_duplicate);
  expect(st.atoms.total).toBe(v1.atoms_created + v1.atoms_near_duplicate + v2.atoms_created + 1);
  const again = (await search(s, { query: word, k: 1, mode: "lexical" })).hits[0];
  expect(again.status).toBe("candidate");
  const fact = (await search(s, { query: "окружён репейником", k: 5, types: ["fact"] })).hits.find(
    (h) => h.atom_id === agent.atom_id,
  );
  expect(fact?.status).toBe("candidate");
}, 60_000);
