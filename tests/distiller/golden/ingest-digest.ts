/**
 * Digests of what ingest's CPU-bound steps produce on real text, to prove that a speed-up changed no output: each
 * input is parsed by the project's parsers (`selectParser`), chunked (`chunkSections` at 1200, ingest's default
 * `chunk_chars`), distilled through the core step (`distillChunks` with the heuristic distiller: passages, typed
 * atoms, quotes, locators, links, warnings) and every draft's search text embedded by the local embedder
 * (`LexicalHashEmbedder`, dimension 256, as wired by default). Inputs: the 13 fixture files (../shared/fixtures) and
 * the three generated texts of the linear-ingest benchmark (bench/lib/large-texts.ts) at 300 kB each.
 * Each part is a SHA-256 over a canonical JSON line per item (vectors: their Float32 bytes in hex), so any changed
 * chunk, atom field or vector bit changes the digest. Dedup and SQL writes are not covered (not part of this path).
 */
import { readdirSync, readFileSync } from "node:fs";
import { createHash } from "node:crypto";
import { heuristicDistiller } from "../../../src/adapters/distiller/heuristic/index.ts";
import { LexicalHashEmbedder } from "../../../src/adapters/embedded/lexical-embedder.ts";
import { selectParser } from "../../../src/adapters/parsers/select.ts";
import { distillChunks } from "../../../src/core/documents/distill.ts";
import { chunkSections } from "../../../src/core/documents/plan.ts";
import { naturalText, oneLineText, repetitiveText } from "../../../bench/lib/large-texts.ts";
import { fixturePath } from "../../support/shared.ts";

/** The digest of one input: counts, to see what changed, and one SHA-256 per part. */
export interface InputDigest {
  chunks: number;
  drafts: number;
  warnings: number;
  chunks_sha256: string;
  drafts_sha256: string;
  vectors_sha256: string;
  warnings_sha256: string;
}

const LIMITS = { maxBytes: 50 << 20, maxZipEntries: 10000, maxZipTotalBytes: 512 << 20, maxZipEntryBytes: 128 << 20 };
/** Ingest's default chunk target (config `chunk_chars`). */
const CHUNK_CHARS = 1200;
/** Size of each generated text: enough for every shape (a 300 kB single line, 5,000 log lines), still quick. */
const GENERATED_BYTES = 300_000;

/** The inputs, by name: "dir/file" for fixtures, "generated/<kind>" for the benchmark's texts. */
export function inputNames(): string[] {
  const names: string[] = [];
  for (const dir of ["pdf", "epub", "html", "text"])
    for (const f of readdirSync(fixturePath(dir)).sort()) names.push(`${dir}/${f}`);
  return [...names, "generated/natural", "generated/repetitive", "generated/one-line"];
}

function inputBytes(name: string): { bytes: Uint8Array; file: string } {
  const gen = { natural: naturalText, repetitive: repetitiveText, "one-line": oneLineText } as const;
  if (name.startsWith("generated/")) {
    const kind = name.slice("generated/".length) as keyof typeof gen;
    return { bytes: new TextEncoder().encode(gen[kind](GENERATED_BYTES)), file: `${kind}.txt` };
  }
  return { bytes: new Uint8Array(readFileSync(fixturePath(name))), file: name.slice(name.indexOf("/") + 1) };
}

function sha(lines: Iterable<string>): string {
  const h = createHash("sha256");
  for (const l of lines) h.update(`${l}\n`);
  return h.digest("hex");
}

function hex(v: Float32Array): string {
  return Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString("hex");
}

/** Parses, chunks, distills and embeds one input (see module doc) and digests each part. */
export async function digestInput(name: string): Promise<InputDigest> {
  const { bytes, file } = inputBytes(name);
  const parsed = await selectParser({ bytes, name: file }).parse({ bytes, uri: `file:///golden/${name}` }, LIMITS);
  const chunks = chunkSections(parsed, CHUNK_CHARS);
  const distilled = await distillChunks(heuristicDistiller, chunks, { title: name });
  const embedder = new LexicalHashEmbedder();
  const vectors = await embedder.embedDocuments(distilled.drafts.map((d) => d.draft.searchText));
  return {
    chunks: chunks.length,
    drafts: distilled.drafts.length,
    warnings: distilled.warnings.length,
    chunks_sha256: sha(chunks.map((c) => JSON.stringify([c.ord, c.text, c.contentHash, c.locator]))),
    drafts_sha256: sha(
      distilled.drafts.map((d) =>
        JSON.stringify([
          d.chunkOrd,
          d.draft.type,
          d.draft.claim,
          d.draft.content,
          d.draft.searchText,
          d.draft.contentHash,
          d.draft.confidence,
          d.draft.lang,
          d.draft.metadata,
          d.locator,
          d.quote,
          d.links,
        ]),
      ),
    ),
    vectors_sha256: sha(vectors.map(hex)),
    warnings_sha256: sha([...distilled.warnings, JSON.stringify(distilled.quarantine), `${distilled.emptyChunks}`]),
  };
}
