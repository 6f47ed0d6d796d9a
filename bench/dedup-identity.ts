/**
 * `bun bench/dedup-identity.ts [out.json]`: what dedup decided, to compare two versions of the dedup code (a speed-up
 * must not change one decision). Two parts:
 * - corpus: the shared fixtures (tests/support/fixtures-store.ts FIXTURE_FILES, in that order) ingested in process
 *   into a fresh embedded data dir; every `pm_atom_link` and `pm_atom_merge` row made, with its reason, read back;
 * - generated: 1 MB of natural and of repetitive text (bench/lib/large-texts.ts) distilled and embedded as an ingest
 *   does, then `findDuplicates` against an empty store (the decisions within the document), with its CPU seconds.
 * Prints, per part, the row count and a SHA-256 of the rows; the rows themselves go to `out.json` (default
 * .tmp/dedup-identity.json) for a diff. Run it on both versions and compare the digests.
 */
import { createHash } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import postgres from "postgres";
import { chunkSections } from "../src/core/documents/plan.ts";
import { distillChunks } from "../src/core/documents/distill.ts";
import { ingest } from "../src/core/documents/ingest.ts";
import { type DedupDraft, findDuplicates } from "../src/core/knowledge/dedup.ts";
import type { Services } from "../src/core/services.ts";
import { setLogLevel } from "../src/log.ts";
import { FIXTURE_FILES } from "../tests/support/fixtures-store.ts";
import { fixturePath } from "../tests/support/shared.ts";
import { pgliteServices, removeTempDirs, ROOT, tempDir } from "./lib/env.ts";
import { naturalText, repetitiveText } from "./lib/large-texts.ts";

const digest = (rows: unknown[]) => createHash("sha256").update(JSON.stringify(rows)).digest("hex").slice(0, 16);
const cpuSeconds = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};

/** Links and merges of the fixtures corpus, read through the embedded database's socket. */
async function corpus(): Promise<{ links: unknown[]; merges: unknown[] }> {
  const dir = tempDir("identity");
  const s = await pgliteServices(dir);
  try {
    for (const f of FIXTURE_FILES) await ingest(s.services, { path: fixturePath(f) }, { trustedPath: true });
    const sql = postgres({ path: join(dir, ".s.PGSQL.5432"), user: "postgres", database: "postgres", max: 1 });
    const links = await sql`SELECT src_atom_id, dst_atom_id, kind, confidence, source, justification
      FROM pm_atom_link ORDER BY src_atom_id, dst_atom_id, kind`;
    const merges = await sql`SELECT * FROM pm_atom_merge ORDER BY id`;
    await sql.end();
    const plain = (rows: unknown[]) => rows.map((r) => ({ ...(r as object), created_at: undefined }));
    return { links: plain(links), merges: plain(merges) };
  } finally {
    await s.dispose();
  }
}

/** Findings within one generated text of `bytes` (see module doc) and the CPU seconds of `findDuplicates`. */
async function generated(services: Services, text: string): Promise<{ findings: unknown[]; cpu_s: number }> {
  const doc = { kind: "text" as const, mediaType: "text/plain", title: null, metadata: {}, warnings: [] };
  const chunks = chunkSections({ ...doc, sections: [{ text, locator: {} }] }, services.config.chunk_chars);
  const distilled = await distillChunks(services.distiller, chunks, { title: "generated" });
  const drafts: DedupDraft[] = [];
  for (let i = 0; i < distilled.drafts.length; i += 64) {
    const batch = distilled.drafts.slice(i, i + 64).map((d) => d.draft);
    const vectors = await services.embedder.embedDocuments(batch.map((d) => d.searchText));
    for (const [k, d] of batch.entries()) drafts.push({ ...d, vector: vectors[k] });
  }
  const t = cpuSeconds();
  const findings = await findDuplicates(services, drafts);
  return { findings, cpu_s: Number((cpuSeconds() - t).toFixed(3)) };
}

setLogLevel("warn");
const out = process.argv[2] ?? join(ROOT, ".tmp/dedup-identity.json");
const report: Record<string, unknown> = {};
const rows: Record<string, unknown> = {};
const c = await corpus();
rows.corpus = c;
report.corpus = { links: c.links.length, merges: c.merges.length, sha256: digest([c.links, c.merges]) };
const s = await pgliteServices();
try {
  for (const [name, make] of [
    ["natural", naturalText],
    ["repetitive", repetitiveText],
  ] as const) {
    const g = await generated(s.services, make(1e6));
    rows[name] = g.findings;
    report[name] = { drafts: g.findings.length, dedup_cpu_s: g.cpu_s, sha256: digest(g.findings) };
  }
} finally {
  await s.dispose();
  removeTempDirs();
}
mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, JSON.stringify(rows));
process.stdout.write(`${JSON.stringify(report, null, 1)}\n`);
