/**
 * The README as a newcomer uses it: its Quick start commands are read from the README itself (so they cannot
 * drift) and run — the demo in a temporary directory holding the executable and a copy of the README, so its data
 * dir `.demo` is temporary too; `npm test` on one small file. Also: the length limit, the table of contents, the
 * tools at a glance against the registry, the headline benchmark rows against the generated docs/benchmarks.md, and
 * relative links of every documentation file.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { copyFileSync, mkdirSync, readFileSync, renameSync, rmSync } from "node:fs";
import { join } from "node:path";
import { TOOLS } from "../../src/mcp/registry.ts";
import { isolatedBinary, isolatedEnv } from "../support/binary.ts";
import {
  anchor,
  brokenLinks,
  commands,
  documentedFiles,
  missingPaths,
  ROOT,
  section,
  shellBlocks,
} from "./markdown.ts";

const README = readFileSync(join(ROOT, "README.md"), "utf8");
const PACKAGE = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
  scripts: Record<string, string>;
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};
const temps: string[] = [];
afterAll(() => {
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
});

/** The Quick start block's commands, each split into its `&&` steps. */
function quickStart(): string[][] {
  const blocks = shellBlocks("README.md").filter((b) => b.mark?.kind === "quick-start");
  expect(blocks).toHaveLength(1);
  return commands(blocks[0].text).map((c) => c.split("&&").map((s) => s.trim()));
}

/** Runs `cmd` through sh in `cwd`; resolves to its exit code and output. */
async function sh(cmd: string, cwd: string, env: Record<string, string>) {
  const p = Bun.spawn(["sh", "-c", cmd], { cwd, env, stdout: "pipe", stderr: "pipe" });
  const [out, err, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
  return { code, out, err };
}

describe("README.md", () => {
  test("is at most 250 lines, and its table of contents links every section", () => {
    expect(README.split("\n").length).toBeLessThanOrEqual(250);
    const headings = [...README.matchAll(/^## (.+)$/gm)].map((m) => m[1]).filter((h) => h !== "Contents");
    const links = [...section(README, "Contents").matchAll(/\]\(#([^)]+)\)/g)].map((m) => m[1]);
    expect(links).toEqual(headings.map(anchor));
  });

  test("Quick start is two commands: install and demo, then the tests", () => {
    expect(quickStart()).toEqual([["npm ci", "npm run demo"], ["npm test"]]);
  });

  test("npm ci installs what package.json asks: the lock file pins every dependency it names", () => {
    // `npm ci` itself runs first in .ci/run; here it would replace the node_modules this test runs from.
    const lock = JSON.parse(readFileSync(join(ROOT, "package-lock.json"), "utf8"));
    const root = lock.packages[""];
    expect(root.dependencies).toEqual(PACKAGE.dependencies);
    expect(root.devDependencies).toEqual(PACKAGE.devDependencies);
  });

  test("npm run demo builds the executable, ingests the README and prints cited hits", async () => {
    const steps = PACKAGE.scripts.demo.split("&&").map((s) => s.trim());
    expect(steps[0]).toBe("npm run build"); // isolatedBinary() builds with that very script, once per run
    const { dir: work, bin } = await isolatedBinary();
    temps.push(work);
    mkdirSync(join(work, "dist"));
    renameSync(bin, join(work, "dist", "pegas-memory"));
    copyFileSync(join(ROOT, "README.md"), join(work, "README.md"));
    const r = await sh(steps.slice(1).join(" && "), work, isolatedEnv(work));
    expect({ code: r.code, stderr: r.code === 0 ? "" : r.err }).toEqual({ code: 0, stderr: "" });
    expect(r.out).toMatch(/^ingested file:\/\/.*README\.md as document 1/m);
    expect(r.out).toMatch(/↳ pegas-memory — file:\/\/.*README\.md, lines \d+–\d+/);
  }, 300_000);

  test("npm test runs the test runner (here on one small file)", async () => {
    const r = await sh("npm test -- tests/domain/text.test.ts", ROOT, { ...process.env } as Record<string, string>);
    expect(`${r.out}${r.err}`).toMatch(/\b[1-9]\d* pass\b/);
    expect(`${r.out}${r.err}`).toMatch(/\b0 fail\b/);
    expect(r.code).toBe(0);
  }, 120_000);

  test("Tools at a glance names every tool of the registry, once, linking the generated reference", () => {
    const glance = section(README, "Tools at a glance");
    const listed = [...glance.matchAll(/^- `(memory_\w+)` — /gm)].map((m) => m[1]);
    expect(listed.sort()).toEqual(TOOLS.map((t) => t.name).sort());
    expect(glance).toContain("](docs/tools.md)");
  });

  test("every headline benchmark row is a row of the generated docs/benchmarks.md", () => {
    const generated = readFileSync(join(ROOT, "docs", "benchmarks.md"), "utf8").split("\n");
    // Cells compared trimmed: Biome pads the README's table to aligned columns, the generator does not.
    const cells = (row: string) =>
      row
        .split("|")
        .map((c) => c.trim())
        .join("|");
    const generatedRows = new Set(generated.map(cells));
    const rows = section(README, "Benchmarks")
      .split("\n")
      .filter((l) => l.startsWith("| ") && !/^\| benchmark +\|/.test(l) && !/^\| -+ /.test(l));
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.filter((r) => !generatedRows.has(cells(r)))).toEqual([]);
    // Every machine the generated page names, the README names too.
    const named = generated.filter((l) => l.startsWith("Measured ")).flatMap((l) => l.split("; "));
    const machines = named.map((m) => /(?:^Measured .*? on )?(.+?), (\d+) cores, .*, Bun ([\d.]+)/.exec(m));
    expect(machines.length).toBeGreaterThan(0);
    for (const [, cpu, cores, bun] of machines.map((m) => m ?? [])) {
      expect(section(README, "Benchmarks")).toContain(`${cores} cores of an ${cpu}`);
      expect(section(README, "Benchmarks")).toContain(`Bun ${bun}`);
    }
  });
});

test("relative links of the README, CONTRIBUTING, tests/README and docs/ lead to files that exist", () => {
  expect(documentedFiles().flatMap(brokenLinks)).toEqual([]);
});

test("the paths they quote (`src/…`, `tests/…`, `deploy/…` …) exist", () => {
  expect(documentedFiles().flatMap(missingPaths)).toEqual([]);
});
