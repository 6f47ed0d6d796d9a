/**
 * `npm run build`: compiles `main.ts` and the tree-sitter worker into one executable (`bun build --compile
 * --splitting`, through Bun's JavaScript API so that a plugin can shrink what it embeds): code behind a dynamic
 * `import()` is a chunk loaded on first use (tests/cli/startup-graph.test.ts).
 *
 * The large embedded files that are read whole at run time (PGlite's `pglite.wasm`, `initdb.wasm` and
 * `pglite.data`, the tree-sitter runtime and its twelve grammars: ≈ 34 MB raw) are embedded Zstandard-compressed
 * (RFC 8878, ≈ 4.5× smaller); `readEmbedded` (src/platform/embedded.ts) inflates them on first use. From source
 * (`bun main.ts`) the same imports read the raw files under node_modules, so both paths share one loader.
 *
 * Usage: bun scripts/build.ts [--outfile PATH] [--target bun-linux-x64|…] [--executable-path RUNTIME]
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import type { BunPlugin } from "bun";

const ROOT = resolve(import.meta.dir, "..");

/** Files embedded compressed: WebAssembly modules and PGlite's file-system bundle (not pg_trgm, already a .tar.gz). */
export const COMPRESSED = /(\.wasm|[/\\]pglite\.data)$/;

/** Zstandard level of embedded files: 19 packs ≈ 15 % tighter than gzip -9 and still inflates ≈ 0.6 GB/s. */
const ZSTD_LEVEL = 19;

/** A bundler plugin that embeds every file matching {@link COMPRESSED} Zstandard-compressed (same `file` loader). */
export const compressEmbedded: BunPlugin = {
  name: "compress-embedded",
  setup(build) {
    build.onLoad({ filter: COMPRESSED }, (args) => ({
      contents: Bun.zstdCompressSync(readFileSync(args.path), { level: ZSTD_LEVEL }),
      loader: "file",
    }));
  },
};

/**
 * The bundler's options of every build: both entrypoints (a Worker file must be one), minified, and split into
 * chunks so that a start evaluates only what its static imports reach.
 */
export const BUNDLE = {
  entrypoints: [resolve(ROOT, "main.ts"), resolve(ROOT, "src/adapters/tree-sitter/worker.ts")] as string[],
  root: ROOT,
  minify: true,
  splitting: true,
  sourcemap: "none",
} as const;

/** Options of one build; `target` and `executablePath` cross-compile (see scripts/release.ts). */
export interface BuildOptions {
  outfile: string;
  target?: Bun.Build.CompileTarget;
  executablePath?: string;
}

/** Compiles the executable. @throws Error carrying the bundler's messages when the build fails. */
export async function buildExecutable(o: BuildOptions): Promise<void> {
  const out = await Bun.build({
    ...BUNDLE,
    plugins: [compressEmbedded],
    compile: {
      outfile: resolve(o.outfile),
      ...(o.target ? { target: o.target } : {}),
      ...(o.executablePath ? { executablePath: o.executablePath } : {}),
    },
  });
  if (!out.success) throw new Error(`build failed:\n${out.logs.map(String).join("\n")}`);
}

if (import.meta.main) {
  const { values } = parseArgs({
    options: {
      outfile: { type: "string", default: "dist/pegas-memory" },
      target: { type: "string" },
      "executable-path": { type: "string" },
    },
  });
  await buildExecutable({
    outfile: values.outfile,
    ...(values.target ? { target: values.target as Bun.Build.CompileTarget } : {}),
    ...(values["executable-path"] ? { executablePath: values["executable-path"] } : {}),
  });
}
