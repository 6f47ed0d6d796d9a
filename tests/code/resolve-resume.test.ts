/**
 * A run stopped before its resolution pass finished (Ctrl-C, a crash) leaves its files marked `resolve_pending`;
 * the next run — even with nothing changed — resolves them, and the graph equals a clean run's. Real tree-sitter
 * extraction of a small Python package on PostgreSQL.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { storeCode } from "../../src/core/code/ingest.ts";
import { codeSuite, sqlOf } from "./support.ts";

const dir = mkdtempSync(join(tmpdir(), "pegas-code-resume-"));
mkdirSync(join(dir, "pkg"));
writeFileSync(join(dir, "pkg/__init__.py"), "");
writeFileSync(
  join(dir, "pkg/colors.py"),
  [
    "def _v(m1, m2, hue):",
    '    """Helper of hls_to_rgb."""',
    "    return m1 + (m2 - m1) * hue",
    "",
    "def hls_to_rgb(h, l, s):",
    '    """Convert HLS to RGB."""',
    "    return (_v(l, s, h), _v(l, s, h), _v(l, s, h))",
    "",
  ].join("\n"),
);
writeFileSync(
  join(dir, "pkg/use.py"),
  [
    "from pkg.colors import hls_to_rgb",
    "",
    "def paint(h):",
    '    """Paint a hue."""',
    "    return hls_to_rgb(h, 0.5, 0.5)",
    "",
  ].join("\n"),
);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const suite = codeSuite("postgres");

describe("resolution resumes after an interrupted run", () => {
  test("a re-run over an unchanged tree finishes what the interrupted pass left", async () => {
    if (suite.skip) return console.warn(`skipped: ${suite.skip}`);
    const s = suite.s!;
    const sql = sqlOf(s);
    const clean = await storeCode(s, { path: dir, repo: "resume" }, { trustedPath: true });
    expect(clean.dependencies.resolved).toBeGreaterThanOrEqual(3);
    const graph = async () =>
      (
        await sql`
      SELECT d.path, d.kind, d.dst_name, d.dst_symbol_id IS NOT NULL AS resolved FROM pm_code_dependency d
       WHERE d.repo = 'resume' ORDER BY 1, 2, 3`
      ).map((r) => ({ ...r }));
    const expected = await graph();
    const pending = await sql`SELECT count(*)::int AS n FROM pm_code_file WHERE repo = 'resume' AND resolve_pending`;
    expect(pending[0].n).toBe(0);

    // What a run stopped after committing its files but before its pass would leave behind.
    await sql`UPDATE pm_code_dependency SET dst_symbol_id = NULL WHERE repo = 'resume'`;
    await sql`UPDATE pm_code_file SET resolve_pending = true WHERE repo = 'resume' AND status = 'parsed'`;

    const again = await storeCode(s, { path: dir, repo: "resume" }, { trustedPath: true });
    expect(again.files.parsed).toBe(0);
    expect(again.dependencies.resolved).toBe(clean.dependencies.resolved);
    expect(await graph()).toEqual(expected);
    const left = await sql`SELECT count(*)::int AS n FROM pm_code_file WHERE repo = 'resume' AND resolve_pending`;
    expect(left[0].n).toBe(0);
  }, 60_000);
});
