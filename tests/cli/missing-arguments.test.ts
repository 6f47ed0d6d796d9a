/**
 * A command given fewer arguments than it needs is a usage error (exit 64, EX_USAGE, as an argument too many is:
 * src/cli/help/usage.ts), not bad data (65): run in-process through main(), refused before any store opens, so the
 * data directory given stays uncreated.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { main } from "../../src/cli/main.ts";
import { capture } from "../support/capture.ts";

const base = mkdtempSync(join(tmpdir(), "pegas-missing-args-"));
const dataDir = join(base, "never-created");
afterAll(() => rmSync(base, { recursive: true, force: true }));

const run = (...argv: string[]) =>
  capture(() => main(["--config", "/dev/null", "--data-dir", dataDir, "--log-level", "error", ...argv], () => {}));

describe("missing arguments", () => {
  const cases: Array<[string[], string]> = [
    [["ingest"], "ingest needs a path"],
    [["search"], "search needs a query"],
    [["context"], "context needs a question"],
    [["get"], "get needs exactly one atom id"],
    [["link", "12"], "link needs two nodes"],
    [["unmerge"], "unmerge needs a merge id"],
    [["gap-add"], "gap-add needs a question"],
    [["graph"], "graph needs one node id"],
    [["graph", "--path", "atom:1"], "graph --path needs exactly two node ids"],
    [["code"], "code needs a repository directory"],
    [["code-search"], "code-search needs a query"],
    [["import"], "import needs exactly one file"],
  ];
  for (const [argv, message] of cases) {
    test(`${argv.join(" ")}: exit 64 naming what is missing`, async () => {
      const r = await run(...argv);
      expect(r.code).toBe(64);
      expect(r.err).toContain(`INVALID_INPUT: ${message}`);
      expect(existsSync(dataDir)).toBe(false);
    });
  }

  test("a value that is given but wrong stays bad data (exit 65)", async () => {
    const r = await run("get", "atom:twelve");
    expect(r.code).toBe(65);
    expect(r.err).toContain("must be a positive integer");
  });
});
