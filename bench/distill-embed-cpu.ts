/**
 * `bun bench/distill-embed-cpu.ts [MB] [input…]`: CPU seconds per MB (10⁶ bytes of input) of ingest's CPU-bound
 * steps in process, without a store: chunking (`chunkSections` at 1200), distilling (`distillChunks` with the heuristic
 * distiller) and embedding every draft's search text (`LexicalHashEmbedder`, 256). Inputs: `natural`, `repetitive`,
 * `one-line` (bench/lib/large-texts.ts at MB, default 3) and `books` (the two fixture books, read in place); all by
 * default. CPU is process.cpuUsage (user + system), so load from other processes does not count, though it still
 * slows a loaded host's caches: each input runs once to warm the JIT up, then `PEGAS_BENCH_RUNS` times (default 3),
 * and each step's least CPU is reported. `bun --cpu-prof` works on top of it.
 */
import { readFileSync } from "node:fs";
import { heuristicDistiller } from "../src/adapters/distiller/heuristic/index.ts";
import { LexicalHashEmbedder } from "../src/adapters/embedded/lexical-embedder.ts";
import { distillChunks } from "../src/core/documents/distill.ts";
import { chunkSections } from "../src/core/documents/plan.ts";
import type { ParsedDocument } from "../src/ports/models/parser.ts";
import { TEXTS } from "./lib/env.ts";
import { naturalText, oneLineText, repetitiveText } from "./lib/large-texts.ts";

const args = process.argv.slice(2);
const mb = Number(args.find((a) => /^\d+(?:\.\d+)?$/.test(a)) ?? 3);
const chosen = args.filter((a) => !/^\d/.test(a));
const INPUTS: Record<string, () => string> = {
  natural: () => naturalText(mb * 1e6),
  repetitive: () => repetitiveText(mb * 1e6),
  "one-line": () => oneLineText(mb * 1e6),
  books: () => [TEXTS.botchan, TEXTS.chekhov].map((p) => readFileSync(p, "utf8")).join("\n\n"),
};

function cpu(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
}

async function run(text: string): Promise<{ chunk: number; distill: number; embed: number; atoms: number }> {
  const parsed: ParsedDocument = {
    kind: "text",
    title: null,
    mediaType: "text/plain",
    sections: [{ text, locator: {} }],
    warnings: [],
    metadata: {},
  };
  let t = cpu();
  const chunks = chunkSections(parsed, 1200);
  const chunk = cpu() - t;
  t = cpu();
  const distilled = await distillChunks(heuristicDistiller, chunks, {});
  const distill = cpu() - t;
  t = cpu();
  const embedder = new LexicalHashEmbedder();
  const texts = distilled.drafts.map((d) => d.draft.searchText);
  for (let i = 0; i < texts.length; i += 64) await embedder.embedDocuments(texts.slice(i, i + 64));
  const embed = cpu() - t;
  return { chunk, distill, embed, atoms: distilled.drafts.length };
}

for (const name of chosen.length ? chosen : Object.keys(INPUTS)) {
  const make = INPUTS[name];
  if (!make) throw new Error(`unknown input '${name}'; choose from ${Object.keys(INPUTS).join(", ")}`);
  const text = make();
  const size = Buffer.byteLength(text) / 1e6;
  await run(text);
  const runs: Awaited<ReturnType<typeof run>>[] = [];
  for (let i = 0; i < Number(process.env.PEGAS_BENCH_RUNS ?? 3); i++) runs.push(await run(text));
  const least = (k: "chunk" | "distill" | "embed") => Math.min(...runs.map((x) => x[k]));
  const r = { chunk: least("chunk"), distill: least("distill"), embed: least("embed"), atoms: runs[0].atoms };
  const per = (s: number) => (s / size).toFixed(3);
  process.stdout.write(
    `${name} ${size.toFixed(2)} MB, ${r.atoms} atoms: CPU s/MB chunk ${per(r.chunk)} distill ${per(r.distill)} embed ${per(r.embed)} total ${per(r.chunk + r.distill + r.embed)}\n`,
  );
}
