/**
 * Parse trees are freed: extracting the same 200 KB file 300 times (≈ 60 MB of source) keeps the resident set
 * flat. A leaked tree of this file holds several MB of WASM memory, so even a leak on one call in ten grows the
 * process by about 30 MB in every 100 calls. RSS is sampled after 100, 200 and 300 calls: a leak grows both
 * intervals alike, while the allocator, the JIT or the WebAssembly memory may step up once (a one-time step of
 * 73 MiB, flat afterwards, was seen in a full-suite process of 785 MiB). So the smaller of the two steps must stay
 * under {@link MAX_STEADY_GROWTH}, and the whole growth under {@link MAX_GROWTH}.
 */
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { treeSitterExtractor } from "../../src/adapters/tree-sitter/extractor.ts";
import { pythonStdlib, REPO_ROOT } from "./support.ts";

const ITERATIONS = 300;
const SIZE = 200 * 1024;
/** Allowed RSS growth over the quieter of the two 100-call intervals (bytes): a steady leak shows in both. */
const MAX_STEADY_GROWTH = 16 * 1024 * 1024;
/** Allowed RSS growth from the 100th to the 300th call, one-time steps included (bytes). */
const MAX_GROWTH = 128 * 1024 * 1024;

/** ~200 KB of real code cut at a line end: Python's _pydecimal.py, else this repository's own sources. */
function source(): { path: string; text: string; language: "python" | "typescript" } {
  const stdlib = pythonStdlib();
  if (stdlib) {
    const text = readFileSync(join(stdlib, "_pydecimal.py"), "utf8");
    if (text.length > SIZE)
      return { path: "_pydecimal.py", text: text.slice(0, text.lastIndexOf("\n", SIZE) + 1), language: "python" };
  }
  let text = "";
  for (const f of ["src/adapters/tree-sitter/extractor.ts", "src/errors.ts", "src/mcp/server.ts"])
    text += readFileSync(join(REPO_ROOT, f), "utf8");
  while (text.length < SIZE) text += text;
  return { path: "big.ts", text: text.slice(0, text.lastIndexOf("\n", SIZE) + 1), language: "typescript" };
}

function rss(): number {
  Bun.gc(true);
  return process.memoryUsage().rss;
}

test(`extracting one 200 KB file ${ITERATIONS} times keeps RSS flat (trees freed)`, async () => {
  const { path, text, language } = source();
  expect(text.length).toBeGreaterThan(SIZE - 4096);
  const extractor = treeSitterExtractor();
  const first = await extractor.extract(path, text, language);
  expect(first.symbols.length).toBeGreaterThan(50);
  const samples: number[] = [];
  for (let i = 1; i < ITERATIONS; i++) {
    const r = await extractor.extract(path, text, language);
    if (r.symbols.length !== first.symbols.length)
      throw new Error(`call ${i} found ${r.symbols.length} symbols, not ${first.symbols.length}`);
    if (i % 100 === 0) samples.push(rss());
  }
  samples.push(rss());
  expect(samples).toHaveLength(3);
  const steady = Math.min(samples[1] - samples[0], samples[2] - samples[1]);
  const growth = samples[2] - samples[0];
  const shown = `samples ${samples.map((s) => (s / 2 ** 20).toFixed(0)).join(", ")} MiB`;
  if (steady >= MAX_STEADY_GROWTH)
    throw new Error(`RSS grew ${(steady / 2 ** 20).toFixed(1)} MiB in each 100 calls: ${shown}`);
  if (growth >= MAX_GROWTH) throw new Error(`RSS grew ${(growth / 2 ** 20).toFixed(1)} MiB in 200 calls: ${shown}`);
}, 600_000);
