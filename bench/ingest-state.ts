/**
 * `bun bench/ingest-state.ts <entry> <file…>`: ingests each file, in order, with `bun <entry> --data-dir <fresh>
 * ingest <file> --json` (entry: main.ts of a checkout, so two checkouts can be compared), then prints one JSON line of
 * digests (SHA-256, 16 hex digits) of everything an ingest stores: atoms with their search_tsv and times, embeddings,
 * citations, links, merges, entities, mentions, entity merges and outbox rows, ordered by id, plus row counts. Two
 * checkouts whose lines are equal stored the same rows: the check that a speed-up changed nothing stored.
 */
import { createHash } from "node:crypto";
import { PGlite } from "@electric-sql/pglite";
import { tempDir } from "./lib/env.ts";

const [entry, ...files] = process.argv.slice(2);
if (!entry || !files.length) {
  process.stderr.write("usage: bun bench/ingest-state.ts <main.ts> <file…>\n");
  process.exit(2);
}

const QUERIES: Record<string, string> = {
  atoms: `SELECT id, type, claim, content, content_hash, status, lang, metadata::text, search_tsv::text, observed_at,
                 event_start, event_end FROM pm_atom ORDER BY id`,
  embeddings: "SELECT atom_id, model, md5(vector) FROM pm_atom_embedding ORDER BY atom_id, model",
  citations: "SELECT atom_id, chunk_id, locator::text, quoted_text FROM pm_citation ORDER BY id",
  links: "SELECT src_atom_id, dst_atom_id, kind, confidence, source FROM pm_atom_link ORDER BY id",
  merges: "SELECT kept_atom_id, absorbed_atom_id, cosine, reason FROM pm_atom_merge ORDER BY id",
  entities: "SELECT id, kind, name, key, alias_keys FROM pm_entity ORDER BY id",
  mentions: `SELECT entity_id, atom_id, field, span_start, span_end, surface, confidence FROM pm_entity_mention
              ORDER BY id`,
  entity_merges: "SELECT from_entity_id, into_entity_id, reason, evidence::text FROM pm_entity_merge ORDER BY id",
  outbox: "SELECT entity_type, entity_id, op FROM pm_outbox ORDER BY id",
};

const dataDir = tempDir("state");
for (const file of files) {
  const p = Bun.spawn(["bun", entry, "--data-dir", dataDir, "ingest", file, "--json"], {
    stdout: "ignore",
    stderr: "pipe",
  });
  if ((await p.exited) !== 0) throw new Error(`ingest of ${file} failed: ${await new Response(p.stderr).text()}`);
}
const db = await PGlite.create(dataDir);
const out: Record<string, unknown> = {};
for (const [name, sql] of Object.entries(QUERIES)) {
  const rows = (await db.query(sql)).rows;
  out[name] = { rows: rows.length, sha: createHash("sha256").update(JSON.stringify(rows)).digest("hex").slice(0, 16) };
}
await db.close();
console.log(JSON.stringify(out));
