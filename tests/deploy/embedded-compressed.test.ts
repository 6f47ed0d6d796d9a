/**
 * Files embedded compressed (scripts/build.ts): the build plugin emits the WebAssembly and PGlite data files
 * Zstandard-compressed under the `file` loader, and readEmbedded (src/platform/embedded.ts) gives back the original bytes
 * from the compressed copy as from the raw file; other files are embedded as they are.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { COMPRESSED, compressEmbedded } from "../../scripts/build.ts";
import { readEmbedded } from "../../src/platform/embedded.ts";

const ROOT = resolve(import.meta.dir, "../..");
const GRAMMAR = join(ROOT, "node_modules/tree-sitter-go/tree-sitter-go.wasm");
const dir = mkdtempSync(join(tmpdir(), "pm-embedded-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("embedded files", () => {
  test("which files are compressed: WebAssembly and pglite.data, not pg_trgm's tarball or migrations", () => {
    expect(COMPRESSED.test("/x/node_modules/@electric-sql/pglite/dist/pglite.wasm")).toBe(true);
    expect(COMPRESSED.test("/x/node_modules/@electric-sql/pglite/dist/pglite.data")).toBe(true);
    expect(COMPRESSED.test("/x/tree-sitter-c_sharp.wasm")).toBe(true);
    expect(COMPRESSED.test("/x/node_modules/@electric-sql/pglite/dist/pg_trgm.tar.gz")).toBe(false);
    expect(COMPRESSED.test("/x/migrations/0001_init.sql")).toBe(false);
  });

  test("a grammar is embedded Zstandard-compressed and read back as the original module", async () => {
    const entry = join(dir, "entry.ts");
    writeFileSync(entry, `import g from ${JSON.stringify(GRAMMAR)} with { type: "file" };\nconsole.log(g);\n`);
    const out = await Bun.build({ entrypoints: [entry], outdir: join(dir, "out"), plugins: [compressEmbedded] });
    expect(out.success).toBe(true);
    const asset = out.outputs.find((o) => o.path.endsWith(".wasm"));
    expect(asset).toBeDefined();
    const embedded = readFileSync(asset!.path);
    const raw = readFileSync(GRAMMAR);
    expect([...embedded.subarray(0, 4)]).toEqual([0x28, 0xb5, 0x2f, 0xfd]);
    expect(embedded.length).toBeLessThan(raw.length / 3);
    expect(Buffer.from(readEmbedded(asset!.path)).equals(raw)).toBe(true);
    expect(Buffer.from(readEmbedded(GRAMMAR)).equals(raw)).toBe(true); // from source: the raw file as it is
    expect(WebAssembly.validate(readEmbedded(asset!.path))).toBe(true);
  });
});
