/**
 * The extractor inside a `bun build --compile` executable: a throwaway entry (fixtures/extract-cli.ts) is compiled
 * into a temp dir (with the extraction worker as an extra entrypoint under `--root`, as package.json builds the
 * product) and run from there on every snippet whose language is registered, in-process and on the worker pool;
 * its output must equal the in-process extraction (which the per-language tests assert exactly), and its grammars
 * must come from the executable's embedded /$bunfs/ files, not from node_modules.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { treeSitterExtractor } from "../../src/adapters/tree-sitter/extractor.ts";
import { LANGUAGE_SPECS } from "../../src/adapters/tree-sitter/languages/index.ts";
import type { CodeLanguage, ExtractedFile } from "../../src/ports/models/symbol-extractor.ts";
import { HERE, REPO_ROOT as ROOT } from "./support.ts";

let dir = "";
let binary = "";

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "pegas-ts-exe-"));
  binary = join(dir, "extract-cli");
  const built = spawnSync(
    process.execPath,
    [
      "build",
      "--compile",
      "--root",
      ROOT,
      join(HERE, "fixtures", "extract-cli.ts"),
      join(ROOT, "src/adapters/tree-sitter/worker.ts"),
      "--outfile",
      binary,
    ],
    {
      encoding: "utf8",
      timeout: 300_000,
    },
  );
  if (built.status !== 0) throw new Error(`bun build --compile failed (${built.status}): ${built.stderr}`);
}, 300_000);

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** [language, absolute path] of every snippet whose folder names a registered language. */
function registeredSnippets(): [CodeLanguage, string][] {
  const root = join(HERE, "snippets");
  const out: [CodeLanguage, string][] = [];
  for (const lang of readdirSync(root).sort()) {
    if (!(lang in LANGUAGE_SPECS)) continue;
    for (const name of readdirSync(join(root, lang)).sort()) out.push([lang as CodeLanguage, join(root, lang, name)]);
  }
  return out;
}

for (const mode of ["in-process", "worker pool"] as const) {
  test(`the compiled executable extracts every registered language's snippet exactly as in-process (${mode})`, async () => {
    const snippets = registeredSnippets();
    expect(snippets.length).toBeGreaterThanOrEqual(12);
    // Run from the temp dir, so that nothing (grammar or worker script) resolves against the checkout.
    const args = [...(mode === "worker pool" ? ["--pool"] : []), ...snippets.flat()];
    const run = spawnSync(binary, args, { cwd: dir, encoding: "utf8", timeout: 120_000 });
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    const out = JSON.parse(run.stdout) as { grammarPath: string; files: Record<string, ExtractedFile> };
    expect(out.grammarPath).toStartWith("/$bunfs/");
    const extractor = treeSitterExtractor();
    for (const [language, path] of snippets) {
      const expected = await extractor.extract(path, readFileSync(path, "utf8"), language);
      expect(out.files[path]).toEqual(expected);
      expect(out.files[path].symbols.length).toBeGreaterThan(0);
    }
  }, 180_000);
}

test("the executable reports a missing file as an error on stderr with status 1, stdout empty", () => {
  const run = spawnSync(binary, ["python", join(dir, "missing.py")], { cwd: dir, encoding: "utf8", timeout: 60_000 });
  expect(run.status).toBe(1);
  expect(run.stdout).toBe("");
  expect(run.stderr).toContain("missing.py");
});
