/**
 * A large document is written in parts inside one transaction (issue 21 item 3, core/documents/ingest-parts.ts):
 * - the parts store what one plan stores (atoms, embeddings, citations, links, merges, mentions, supersessions: the
 *   part size set small by the internal `partChars`, on generated prose and on a log whose lines merge and link
 *   across parts; entities and their alias merges are left out: aliases are resolved per part, see the module);
 * - while the ingest waits between parts, search, stats and export see nothing of it (PostgreSQL: PGlite makes every
 *   other statement wait for the transaction instead);
 * - a process killed after a part was written leaves nothing (the next open shows no document, no atom, no outbox
 *   row) and the same file then ingests whole; ingesting it again changes nothing.
 */
import { describe, expect, test } from "bun:test";
import { createHash } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { naturalText, repetitiveText } from "../../bench/lib/large-texts.ts";
import type { SqlCanonicalStore } from "../../src/adapters/sql/store.ts";
import { ingest } from "../../src/core/documents/ingest.ts";
import { stats } from "../../src/core/projections/stats.ts";
import { search } from "../../src/core/search/search.ts";
import type { Services } from "../../src/core/services.ts";
import type { Distiller } from "../../src/ports/models/distiller.ts";
import { exportToFile } from "../export/support.ts";
import { pgSkipReason } from "../support/pg.ts";
import { openTestServices } from "../support/services.ts";

/** What an ingest stores, as digests of ordered rows (ids included: two fresh stores number rows alike). */
const STATE: Record<string, string> = {
  atoms: `SELECT id, type, claim, content, content_hash, status, lang, metadata::text, search_tsv::text, observed_at,
                 event_start FROM pm_atom ORDER BY id`,
  embeddings: "SELECT atom_id, model, md5(vector) FROM pm_atom_embedding ORDER BY atom_id, model",
  chunks: "SELECT id, doc_id, doc_version, ord, content_hash, locator::text FROM pm_chunk ORDER BY id",
  citations:
    "SELECT atom_id, chunk_id, locator::text, quoted_text FROM pm_citation ORDER BY atom_id, chunk_id, quoted_text",
  links:
    "SELECT src_atom_id, dst_atom_id, kind, confidence, source FROM pm_atom_link ORDER BY src_atom_id, dst_atom_id, kind",
  merges: "SELECT kept_atom_id, absorbed_atom_id, cosine, reason FROM pm_atom_merge ORDER BY absorbed_atom_id",
  mentions:
    "SELECT atom_id, field, span_start, span_end, surface FROM pm_entity_mention ORDER BY atom_id, field, span_start",
  status: "SELECT atom_id, from_status, to_status FROM pm_atom_status_change ORDER BY atom_id, id",
  outbox: "SELECT entity_type, entity_id, op FROM pm_outbox WHERE entity_type <> 'entity' ORDER BY 1, 2, 3",
};

async function stateOf(services: Services): Promise<Record<string, string>> {
  const sql = (services.maintenance as SqlCanonicalStore).db.sql;
  const out: Record<string, string> = {};
  for (const [name, q] of Object.entries(STATE)) {
    const rows = await sql.unsafe(q);
    out[name] = `${rows.length}:${createHash("sha256").update(JSON.stringify(rows)).digest("hex").slice(0, 16)}`;
  }
  return out;
}

/** Ingests `text` into a fresh embedded store, whole or in parts of `partChars`: the stored state and the counters. */
async function ingestFresh(text: string, partChars?: number) {
  const t = await openTestServices("pglite");
  if (typeof t === "string") throw new Error(t);
  try {
    const messages: string[] = [];
    const r = await ingest(
      t.services,
      { text },
      { partChars, progressEveryMs: 0, onProgress: (_p, _t, m) => messages.push(m) },
    );
    const { took_ms, documents, ...counts } = r;
    return { state: await stateOf(t.services), counts, parts: messages.filter((m) => m.endsWith("atoms)")).length };
  } finally {
    await t.dispose();
  }
}

describe("a document written in parts", () => {
  test("stores what one plan stores: prose and a log whose lines merge and link across parts", async () => {
    for (const text of [naturalText(120_000), repetitiveText(60_000)]) {
      const whole = await ingestFresh(text);
      const parted = await ingestFresh(text, 15_000);
      expect(whole.parts).toBe(0);
      expect(parted.parts).toBeGreaterThanOrEqual(4);
      expect(parted.state).toEqual(whole.state);
      expect(parted.counts).toEqual(whole.counts);
    }
    // A newer statement in a later part supersedes the earlier part's, in English and Russian, as in one plan.
    const moves = [
      `In 2019 Dana lived in Porto.\n\nВ 2019 году Дарья жила в Казани.\n\n${naturalText(40_000, 7)}`,
      "Since 2022 Dana lives in Lisbon.\n\nС 2022 года Дарья живёт в Москве.",
    ].join("\n\n");
    const [whole, parted] = [await ingestFresh(moves), await ingestFresh(moves, 12_000)];
    expect(parted.parts).toBeGreaterThanOrEqual(3);
    expect(parted.counts.atoms_superseded).toBeGreaterThanOrEqual(2);
    expect(parted.state).toEqual(whole.state);
    expect(parted.counts).toEqual(whole.counts);
    // The log's lines are near-duplicates of each other: the parts met earlier parts' atoms (links or merges).
    const log = await ingestFresh(repetitiveText(60_000), 15_000);
    expect(log.counts.links_added + log.counts.atoms_near_duplicate + log.counts.atoms_existing).toBeGreaterThan(0);
  }, 300_000);
});

const pgSkip = await pgSkipReason();

describe.skipIf(pgSkip !== null)("while a document is written in parts", () => {
  test("search, stats and export see nothing of it until its last part commits", async () => {
    const t = await openTestServices("postgres");
    if (typeof t === "string") throw new Error(t);
    const dir = mkdtempSync(join(tmpdir(), "pegas-parts-"));
    try {
      const text = `Zanzibarite quorbles glitter in the Vexholm caverns.\n\n${naturalText(60_000)}`;
      let partTwo = false;
      let release!: () => void;
      const gate = new Promise<void>((r) => {
        release = r;
      });
      let waiting!: () => void;
      const reached = new Promise<void>((r) => {
        waiting = r;
      });
      const real = t.services.distiller;
      const gated: Distiller = {
        name: real.name,
        distill: async (input) => {
          if (partTwo) {
            partTwo = false;
            waiting();
            await gate;
          }
          return real.distill(input);
        },
      } as Distiller;
      const services = Object.create(t.services, { distiller: { value: gated } }) as Services;
      const messages: string[] = [];
      const running = ingest(
        services,
        { text },
        {
          partChars: 20_000,
          progressEveryMs: 0,
          onProgress: (_p, _t, m) => {
            messages.push(m);
            if (m.startsWith("part 2 of")) partTwo = true;
          },
        },
      );
      await reached;
      expect(messages.some((m) => m.startsWith("part 1 of") && m.includes("written"))).toBe(true);
      const hits = await search(t.services, { query: "Zanzibarite quorbles Vexholm" });
      expect(hits.hits).toHaveLength(0);
      const s = await stats(t.services);
      expect(s.atoms.total).toBe(0);
      expect(s.documents.total).toBe(0);
      const db = (t.services.maintenance as SqlCanonicalStore).db;
      const exported = await exportToFile(db, join(dir, "export.jsonl"), false);
      expect(JSON.stringify(exported)).not.toContain("Zanzibarite");
      const [{ n }] = await db.sql`SELECT (SELECT count(*) FROM pm_chunk) + (SELECT count(*) FROM pm_outbox) AS n`;
      expect(Number(n)).toBe(0);
      release();
      const done = await running;
      expect(done.atoms_created).toBeGreaterThan(0);
      const after = await search(t.services, { query: "Zanzibarite quorbles Vexholm" });
      expect(after.hits.length).toBeGreaterThan(0);
    } finally {
      await t.dispose();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 300_000);
});

const ROOT = join(import.meta.dir, "..", "..");

/** Runs the CLI from source on `dataDir`; resolves to its exit code and output. */
async function cli(dataDir: string, args: string[]) {
  const p = Bun.spawn([process.execPath, join(ROOT, "main.ts"), "--data-dir", dataDir, ...args], {
    stdout: "pipe",
    stderr: "pipe",
    env: { ...process.env, PEGAS_LOG_LEVEL: "warn" },
  });
  const [out, err, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
  return { code, out, err };
}

describe("a process killed while it writes a document in parts", () => {
  test("leaves nothing of it; the file then ingests whole, and again changes nothing", async () => {
    const dir = mkdtempSync(join(tmpdir(), "pegas-parts-kill-"));
    try {
      const data = join(dir, "data");
      const file = join(dir, "large.txt");
      writeFileSync(file, naturalText(2_600_000)); // above 2 × 10⁶ characters: written in parts
      const child = Bun.spawn([process.execPath, join(ROOT, "main.ts"), "--data-dir", data, "ingest", file, "--json"], {
        stdout: "ignore",
        stderr: "pipe",
        env: { ...process.env, PEGAS_LOG_LEVEL: "warn" },
      });
      let seen = "";
      let midway = false;
      const reader = child.stderr.getReader();
      const decoder = new TextDecoder();
      // Part 1 is written before part 2 is read; the progress lines (one per 2 s) name the part. Killed in a part
      // before the last, so the commit is still ahead.
      while (!midway) {
        const { value, done } = await reader.read();
        if (done) break;
        seen += decoder.decode(value);
        midway = [...seen.matchAll(/part (\d+) of (\d+)/g)].some(
          (m) => Number(m[1]) >= 2 && Number(m[1]) < Number(m[2]),
        );
      }
      expect(midway).toBe(true);
      child.kill("SIGKILL");
      await child.exited;
      const st = await cli(data, ["stats", "--json"]);
      expect(st.code).toBe(0);
      const s = JSON.parse(st.out);
      expect(s.atoms.total).toBe(0);
      expect(s.documents.total).toBe(0);
      expect(s.chunks).toBe(0);
      expect(s.projections.lexical.atoms_indexed).toBe(0);
      const first = await cli(data, ["ingest", file, "--json"]);
      expect(first.code).toBe(0);
      expect(JSON.parse(first.out).atoms_created).toBeGreaterThan(0);
      const again = await cli(data, ["ingest", file, "--json"]);
      expect(again.code).toBe(0);
      const r = JSON.parse(again.out);
      expect(r.atoms_created).toBe(0);
      expect(r.documents[0].unchanged).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 600_000);
});
