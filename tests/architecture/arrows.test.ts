/**
 * The layer arrows (.dependency-cruiser.cjs, docs/architecture.md): `npm run lint:arch` passes on the real tree, and
 * the same configuration fails, naming the broken rule, on a small tree of wrong imports — a domain module importing
 * core, an adapter importing another adapter's file, a front end importing an adapter, and a cycle — so the check is
 * known to be able to fail.
 */
import { describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";

const ROOT = resolve(import.meta.dir, "../..");
const BIN = join(ROOT, "node_modules/.bin");
const CONFIG = join(ROOT, ".dependency-cruiser.cjs");

/** Runs `cmd` through sh in `cwd` with node_modules/.bin first on PATH; resolves with its status and output. */
function run(cmd: string, cwd: string): { status: number; output: string } {
  const r = Bun.spawnSync(["sh", "-c", cmd], {
    cwd,
    env: { ...process.env, PATH: `${BIN}:${process.env.PATH ?? ""}` },
    stdout: "pipe",
    stderr: "pipe",
  });
  return { status: r.exitCode ?? -1, output: `${r.stdout.toString()}${r.stderr.toString()}` };
}

/** Writes `files` (path relative to `dir` → content) under `dir`. */
function writeTree(dir: string, files: Record<string, string>): void {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
}

describe("layer arrows (dependency-cruiser)", () => {
  test("npm run lint:arch passes on the real tree", () => {
    const script = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).scripts["lint:arch"];
    expect(script).toContain("depcruise");
    const { status, output } = run(script, ROOT);
    if (status !== 0) console.error(output);
    expect(status).toBe(0);
  }, 120_000);

  test("the same configuration fails on wrong imports and names each broken rule", () => {
    const dir = mkdtempSync(join(tmpdir(), "pm-arrows-"));
    try {
      writeTree(dir, {
        "tsconfig.json": JSON.stringify({ compilerOptions: { module: "ESNext", moduleResolution: "bundler" } }),
        "main.ts": 'import "./src/cli/main.ts";\n',
        "src/cli/main.ts": 'import { open } from "../adapters/qdrant/open.ts";\nexport const main = open;\n',
        "src/core/use-case.ts": 'import { rank } from "../domain/rank.ts";\nexport const useCase = rank;\n',
        // domain → core: the arrow points up.
        "src/domain/rank.ts":
          'import type { useCase } from "../core/use-case.ts";\nexport const rank = (u?: typeof useCase) => u;\n',
        "src/adapters/qdrant/open.ts": 'import { dial } from "../memgraph/dial.ts";\nexport const open = dial;\n',
        "src/adapters/memgraph/dial.ts": "export const dial = () => 1;\n",
      });
      const { status, output } = run(`depcruise --config ${JSON.stringify(CONFIG)} main.ts src`, dir);
      expect(status).not.toBe(0);
      expect(output).toContain("layer-domain: src/domain/rank.ts → src/core/use-case.ts");
      expect(output).toContain("adapter-internals: src/adapters/qdrant/open.ts → src/adapters/memgraph/dial.ts");
      expect(output).toContain("layer-cli: src/cli/main.ts → src/adapters/qdrant/open.ts");
      expect(output).toContain("no-circular");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
