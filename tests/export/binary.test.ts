/**
 * `export` and `import` through the compiled executable on the embedded default: `export --out FILE` (no embeddings)
 * then `import FILE` into another data dir exits 0, embeds the atoms, and `search` finds the same hits; `export
 * --embeddings` on standard output piped into `import -` does too; a second import into a non-empty store fails
 * with exit status 65 and changes nothing.
 */
import { expect, test } from "bun:test";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { isolatedBinary, isolatedEnv, seededDataDir, sharedFixture } from "../support/binary.ts";

async function run(
  bin: string,
  env: Record<string, string>,
  args: string[],
  stdin?: Uint8Array,
): Promise<{ code: number; out: string; err: string }> {
  const p = Bun.spawn([bin, ...args], { env, stdin: stdin ?? "ignore", stdout: "pipe", stderr: "pipe" });
  const [out, err, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
  return { code, out, err };
}

test("export --out, import into another data dir, the same search hits", async () => {
  const { dir, bin } = await isolatedBinary();
  const env = isolatedEnv(dir);
  const at = (name: string) => ["--data-dir", join(dir, name)];
  for (const name of ["a", "b", "c"]) await seededDataDir(join(dir, name)); // created and migrated, as a first start leaves them
  const ingested = await run(bin, env, [...at("a"), "ingest", sharedFixture("text/ru_chekhov_palata_no6.txt")]);
  expect(ingested.code).toBe(0);
  const hits = async (name: string, query: string) => {
    const r = await run(bin, env, [...at(name), "search", query, "--k", "5", "--json"]);
    expect(r.code).toBe(0);
    return JSON.parse(r.out).hits.map((h: { atom_id: number }) => h.atom_id);
  };

  const file = join(dir, "memory.jsonl");
  const exported = await run(bin, env, [...at("a"), "export", "--out", file]);
  expect(exported.code).toBe(0);
  expect(exported.out).toBe("");
  expect(exported.err).toMatch(/pm_atom +\d+/);
  expect(exported.err).toContain(`to ${file}`);
  expect(existsSync(`${file}.tmp`)).toBe(false);
  expect(JSON.parse(readFileSync(file, "utf8").split("\n")[0])).toMatchObject({
    format: "pegas-memory-export",
    format_version: 1,
    embeddings: false,
  });

  const imported = await run(bin, env, [...at("b"), "import", file]);
  expect(imported.code).toBe(0);
  expect(imported.out).toMatch(/pm_chunk +\d+/);
  expect(imported.out).toMatch(/imported \d+ rows in \d+ ms .* from pglite/);
  expect(imported.err).toMatch(/embedded [1-9]\d* atom\(s\)/);
  // Store a's hits, each searched once (every search is a process starting the embedded database): c's are
  // compared with them below.
  const want = new Map<string, number[]>();
  for (const query of ["больничная палата", "Андрей Ефимыч"]) {
    want.set(query, await hits("a", query));
    expect(want.get(query)!.length).toBeGreaterThan(0);
    expect(await hits("b", query)).toEqual(want.get(query)!);
  }

  const piped = await run(bin, env, [...at("a"), "export", "--embeddings"]);
  expect(piped.code).toBe(0);
  expect(piped.err).toContain("with embeddings to standard output");
  writeFileSync(join(dir, "piped.jsonl"), piped.out);
  const fromStdin = await run(bin, env, [...at("c"), "import", "-"], new TextEncoder().encode(piped.out));
  expect(fromStdin.code).toBe(0);
  expect(fromStdin.err).toMatch(/embedded 0 atom\(s\)/);
  expect(await hits("c", "больничная палата")).toEqual(want.get("больничная палата")!);

  const again = await run(bin, env, [...at("b"), "import", file]);
  expect(again.code).toBe(65);
  expect(again.err).toContain("the target store is not empty");
}, 300_000);
