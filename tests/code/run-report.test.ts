/**
 * What a memory_store_code run reports (PGlite, hand-written extractor): progress strictly increasing across its
 * phases with a total once known (core and over MCP); per-file errors with clear codes, counted in files.failed;
 * a failure's code kept on an unchanged rerun; a charset note kept on an unchanged rerun; hidden directories
 * passed over over MCP and walked by the CLI only when named.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { chmodSync, mkdirSync, mkdtempSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { storeCode } from "../../src/core/code/ingest.ts";
import { PegasError } from "../../src/errors.ts";
import type { CodeLanguage, ExtractedFile } from "../../src/ports/models/symbol-extractor.ts";
import { connectRegistry } from "../support/mcp-client.ts";
import { FakeExtractor, fakeSource, sym } from "./fake-extractor.ts";
import { codeSuite } from "./support.ts";

/** The fake extractor, plus a file holding LIMIT_EXCEEDED failing with that code. */
class LimitingExtractor extends FakeExtractor {
  override async extract(path: string, source: string, language: CodeLanguage): Promise<ExtractedFile> {
    if (source.includes("LIMIT_EXCEEDED")) throw new PegasError("LIMIT_EXCEEDED", `'${path}' has too many nodes`);
    return super.extract(path, source, language);
  }
}

const base = mkdtempSync(join(tmpdir(), "pegas-code-report-"));
const put = (rel: string, text: string | Uint8Array) => {
  mkdirSync(dirname(join(base, rel)), { recursive: true });
  writeFileSync(join(base, rel), text);
};
/** `text` in windows-1251 (ASCII and А–я only). */
const cp1251 = (text: string) =>
  Uint8Array.from(
    [...text].map((ch) => (ch.codePointAt(0)! < 0x80 ? ch.codePointAt(0)! : ch.codePointAt(0)! - 0x410 + 0xc0)),
  );

// Repository "prog": 30 files calling each other, and a hidden directory.
for (let i = 0; i < 30; i++) {
  put(
    `prog/pkg${i % 3}/m${i}.py`,
    fakeSource({
      symbols: [sym(`func${i}`, "function", 3, 3, `Function number ${i}.`)],
      deps: [{ kind: "calls", from: { symbol: `func${i}` }, target: `func${(i + 1) % 30}`, line: 3 }],
    }),
  );
}
put("prog/.config/c.py", fakeSource({ symbols: [sym("configured", "function", 3, 3)] }));
// Repository "errs": a file that vanishes before it is read, a directory that vanishes before it is listed, a file
// over a limit of the parser, a file in windows-1251 without a declaration.
for (let i = 0; i < 12; i++)
  put(`errs/a${String(i).padStart(2, "0")}.py`, fakeSource({ symbols: [sym(`f${i}`, "function", 3, 3)] }));
put("errs/limit.py", "LIMIT_EXCEEDED");
put(
  "errs/cyr.py",
  cp1251(
    fakeSource({
      symbols: [sym("add", "function", 3, 3, "Модуль сложения чисел для отчетов бухгалтерии и налоговой")],
    }),
  ),
);
put("errs/zdir/z.py", fakeSource({}));

const fake = new LimitingExtractor();
const suite = codeSuite("pglite", { ingest_roots: [base] }, () => fake);
let mcp: { client: Client; close: () => Promise<void> } | undefined;
beforeAll(async () => {
  if (!suite.skip) mcp = await connectRegistry(suite.s!);
}, 60_000);
afterAll(async () => {
  await mcp?.close();
  rmSync(base, { recursive: true, force: true });
});

type Note = { progress: number; total: number | undefined; message: string };

/** Progress values strictly increase, totals (once sent) are not below them, the run ends at its total. */
function expectWellFormed(notes: Note[]): void {
  expect(notes.length).toBeGreaterThanOrEqual(3);
  for (let i = 1; i < notes.length; i++) expect(notes[i].progress).toBeGreaterThan(notes[i - 1].progress);
  for (const n of notes) if (n.total !== undefined) expect(n.total).toBeGreaterThanOrEqual(n.progress);
  for (const n of notes) expect(n.message).toMatch(/^(walk|parse|write|resolve|done): /);
  expect(notes[0].progress).toBe(0);
  expect(notes[0].message).toStartWith("walk: ");
  const last = notes.at(-1)!;
  expect(last.total).toBe(last.progress);
}

describe("memory_store_code reports", () => {
  test("progress strictly increases through walk, parse, write and resolve, with a total once known", async () => {
    if (suite.skip) return console.warn(`skipped: ${suite.skip}`);
    const every: Note[] = [];
    await storeCode(
      suite.s!,
      { path: join(base, "prog"), repo: "prog" },
      {
        trustedPath: true,
        progressEveryMs: 0,
        onProgress: (progress, total, message) => every.push({ progress, total, message }),
      },
    );
    expectWellFormed(every);
    const phases = [...new Set(every.map((n) => n.message.split(":")[0]))];
    expect(phases).toEqual(["walk", "parse", "write", "resolve", "done"]);
    expect(every.filter((n) => n.message.startsWith("resolve:")).at(-1)!.total).toBeDefined();
    // An unchanged rerun with the default throttle: still strictly increasing.
    const rerun: Note[] = [];
    await storeCode(
      suite.s!,
      { path: join(base, "prog"), repo: "prog" },
      { trustedPath: true, onProgress: (progress, total, message) => rerun.push({ progress, total, message }) },
    );
    expectWellFormed(rerun);
  });

  test("over MCP: progress notifications strictly increase; hidden directories are passed over", async () => {
    if (suite.skip) return console.warn(`skipped: ${suite.skip}`);
    const notes: Note[] = [];
    const r: any = await mcp!.client.callTool(
      { name: "memory_store_code", arguments: { path: join(base, "prog"), repo: "prog-mcp" } },
      undefined,
      {
        onprogress: (p) => notes.push({ progress: p.progress, total: p.total, message: String(p.message) }),
        timeout: 60_000,
      },
    );
    expect(r.isError).toBeFalsy();
    expectWellFormed(notes);
    expect(r.structuredContent.files.parsed).toBe(30);
    expect(r.structuredContent.directories_skipped.hidden).toBe(1);
    const named: any = await mcp!.client.callTool({
      name: "memory_store_code",
      arguments: { path: join(base, "prog"), repo: "prog-mcp2", include: [".config/"] },
    });
    expect(named.structuredContent.files.parsed).toBe(0); // over MCP, naming it does not open it
    // The CLI (trusted) walks a hidden directory it names, and passes it over otherwise.
    const cli = await storeCode(
      suite.s!,
      { path: join(base, "prog"), repo: "prog-cli", include: [".config/"] },
      { trustedPath: true },
    );
    expect(cli.files.parsed).toBe(1);
    expect(fake.calls).toContain(".config/c.py");
  });

  test("per-file errors: clear codes, counted in files.failed; codes and charset notes kept on an unchanged rerun", async () => {
    if (suite.skip) return console.warn(`skipped: ${suite.skip}`);
    let first = true;
    fake.onExtract = () => {
      if (!first) return;
      first = false; // before the walk reaches them: a11.py was listed but is gone when read, zdir/ is gone when listed
      unlinkSync(join(base, "errs/a11.py"));
      rmSync(join(base, "errs/zdir"), { recursive: true });
    };
    const root = process.getuid?.() === 0;
    if (!root) put("errs/locked.py", fakeSource({})), chmodSync(join(base, "errs/locked.py"), 0);
    const r = await storeCode(suite.s!, { path: join(base, "errs"), repo: "errs" }, { trustedPath: true });
    fake.onExtract = undefined;
    const errors = [...r.errors].sort((a, b) => a.path.localeCompare(b.path));
    expect(errors.map((e) => `${e.path} ${e.code}`)).toEqual([
      "a11.py INVALID_INPUT",
      "limit.py LIMIT_EXCEEDED",
      ...(root ? [] : ["locked.py INVALID_INPUT"]),
      "zdir/ INVALID_INPUT",
    ]);
    expect(errors[0].message).toStartWith("unreadable: ENOENT");
    if (!root) expect(errors.find((e) => e.path === "locked.py")!.message).toStartWith("unreadable: EACCES");
    expect(r.files.failed).toBe(root ? 2 : 3);
    expect(r.directories_skipped.unreadable).toBe(1);
    expect(r.errors_total).toBe(r.files.failed + r.directories_skipped.unreadable);
    expect(r.files.skipped.unreadable).toBeUndefined();
    expect(r.noted).toEqual([{ path: "cyr.py", reason: "charset windows-1251 (detected)" }]);
    // Unchanged rerun: the parser's code kept, the charset still noted.
    const again = await storeCode(suite.s!, { path: join(base, "errs"), repo: "errs" }, { trustedPath: true });
    expect(again.errors.filter((e) => e.path === "limit.py")).toEqual([
      { path: "limit.py", code: "LIMIT_EXCEEDED", message: "unchanged since it failed: 'limit.py' has too many nodes" },
    ]);
    expect(again.files).toMatchObject({ parsed: 0, failed: root ? 1 : 2 });
    expect(again.noted).toEqual(r.noted);
    expect(again.noted_total).toBe(r.noted_total);
    if (!root) chmodSync(join(base, "errs/locked.py"), 0o644);
  });
});
