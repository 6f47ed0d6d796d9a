/**
 * The shell commands of the README, CONTRIBUTING, tests/README and docs/: every block says how it is tested (a
 * `<!-- docs-test: … -->` mark on the line before it); every block passes shellcheck; every `npm run X` names a
 * script; and the blocks marked `run` run here, in a sandbox: the executable as `./dist/pegas-memory` and on PATH,
 * `../shared` the shared fixtures, HOME and the XDG dirs temporary (the embedded data dir created and migrated
 * already), and the example PostgreSQL URL replaced by a temporary database. Blocks that need root, systemd, Docker
 * or outside engines are only checked; the unit itself is verified by tests/deploy/install.test.ts
 * (`systemd-analyze verify`), the Dockerfile and compose file by tests/deploy/container.test.ts.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { linkSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { COMMAND_HELP } from "../../src/cli/help/commands.ts";
import { isolatedBinary, isolatedEnv, seededDataDir } from "../support/binary.ts";
import { createTempPgDatabase } from "../support/pg.ts";
import { sharedDir } from "../support/shared.ts";
import { commands, documentedFiles, ROOT, type ShellBlock, section, shellBlocks } from "./markdown.ts";

/** The PostgreSQL URL the docs use as their example; a run replaces it with a temporary database's. */
const EXAMPLE_PG_URL = "postgres://pegas@127.0.0.1:5432/pegas";

const BLOCKS = documentedFiles().flatMap(shellBlocks);
const SCRIPTS = Object.keys(JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).scripts);
const where = (b: ShellBlock) => `${b.file}:${b.line}`;
const temps: string[] = [];
afterAll(async () => {
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
});

test("every shell block says how it is tested, and a check says why it cannot run here", () => {
  expect(BLOCKS.length).toBeGreaterThan(0);
  expect(BLOCKS.filter((b) => !b.mark).map(where)).toEqual([]);
  expect(BLOCKS.filter((b) => b.mark?.kind === "check" && !b.mark.why).map(where)).toEqual([]);
});

test("every `npm run X` in the docs names a script of package.json", () => {
  const used = BLOCKS.flatMap((b) => [...b.text.matchAll(/npm run (?:--silent |-s )?([\w:-]+)/g)].map((m) => m[1]));
  expect(used.length).toBeGreaterThan(0);
  expect([...new Set(used)].filter((s) => !SCRIPTS.includes(s))).toEqual([]);
});

test("the command line list of docs/operations.md names every command of the CLI, and only those", () => {
  const list = section(readFileSync(join(ROOT, "docs", "operations.md"), "utf8"), "Command line");
  const named = [...list.matchAll(/^pegas-memory \[?([a-z-]+)/gm)].map((m) => m[1]);
  expect([...new Set(named)].sort()).toEqual(Object.keys(COMMAND_HELP).sort());
});

test("every shell block passes shellcheck", () => {
  if (!Bun.which("shellcheck")) {
    console.warn("skipped: shellcheck is not installed (apt-get install shellcheck; .ci/run installs it)");
    return;
  }
  const complaints = BLOCKS.flatMap((b) => {
    const p = Bun.spawnSync(["shellcheck", "--shell=bash", "--severity=style", "-"], {
      stdin: new TextEncoder().encode(`${b.text}\n`),
      stdout: "pipe",
    });
    return p.exitCode === 0 ? [] : [`${where(b)}\n${p.stdout.toString()}`];
  });
  expect(complaints).toEqual([]);
});

/** A sandbox for one block: returns the working dir and environment. */
async function sandbox(): Promise<{ cwd: string; env: Record<string, string> }> {
  const { dir, bin } = await isolatedBinary();
  temps.push(dir);
  const root = mkdtempSync(join(tmpdir(), "pegas-docs-"));
  temps.push(root);
  const cwd = join(root, "repo");
  mkdirSync(join(cwd, "dist"), { recursive: true });
  mkdirSync(join(root, "bin"));
  linkSync(bin, join(cwd, "dist", "pegas-memory"));
  linkSync(bin, join(root, "bin", "pegas-memory"));
  symlinkSync(sharedDir(), join(root, "shared"));
  await seededDataDir(join(root, "data", "pegas-memory"));
  const env = isolatedEnv(root);
  return { cwd, env: { ...env, PATH: `${join(root, "bin")}:${env.PATH}` } };
}

describe("the blocks marked run", () => {
  for (const block of BLOCKS.filter((b) => b.mark?.kind === "run")) {
    test(`${where(block)}: ${commands(block.text)[0]}`, async () => {
      let script = block.text;
      if (script.includes(EXAMPLE_PG_URL)) {
        const db = await createTempPgDatabase("pegas_docs");
        if (typeof db === "string") {
          console.warn(`skipped: ${where(block)}: ${db}`);
          return;
        }
        script = script.replaceAll(EXAMPLE_PG_URL, db.url);
        try {
          await runBlock(block, script);
        } finally {
          await db.drop();
        }
        return;
      }
      await runBlock(block, script);
    }, 180_000);
  }
});

/** Runs `script` under bash -e in a fresh sandbox; fails with its output when a command fails. */
async function runBlock(block: ShellBlock, script: string): Promise<void> {
  const { cwd, env } = await sandbox();
  const p = Bun.spawn(["bash", "-e", "-o", "pipefail", "-c", script], { cwd, env, stdout: "pipe", stderr: "pipe" });
  const [out, err, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
  expect({ block: where(block), code, output: code === 0 ? "" : `${out}\n${err}` }).toEqual({
    block: where(block),
    code: 0,
    output: "",
  });
}
