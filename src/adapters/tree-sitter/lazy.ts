/**
 * The symbol extractor services hold: languageOf at once (no WebAssembly), the tree-sitter extractor loaded on the
 * first `extract` (its WebAssembly would slow every start).
 */
import type { SymbolExtractor } from "../../ports/models/symbol-extractor.ts";
import { languageOfPath } from "./languages/index.ts";

/**
 * The tree-sitter extractor, loaded on the first `extract` (its WebAssembly would slow every start): on `workers`
 * threads (pool.ts), or in-process when `workers` is 0.
 */
export function lazyExtractor(workers: number): SymbolExtractor {
  let real: Promise<SymbolExtractor> | null = null;
  const load = () =>
    (real ??=
      workers > 0
        ? import("./pool.ts").then((m) => new m.ExtractorPool(workers))
        : import("./extractor.ts").then((m) => m.treeSitterExtractor()));
  return {
    languageOf: (path) => languageOfPath(path),
    extract: async (path, source, language) => (await load()).extract(path, source, language),
    close: async () => {
      const loaded = real;
      real = null;
      await (await loaded)?.close?.();
    },
  };
}
