/**
 * Code memory storage on PGlite and PostgreSQL with a hand-written extractor (tests/code/fake-extractor.ts): a first
 * walk (symbols, module symbols, dependencies resolved by each rule, code atoms with citations and `defines` links,
 * outbox rows, a failing file reported), an unchanged second walk that parses nothing, then one file edited and one
 * deleted (replaced and removed exactly; edges of unchanged files re-resolved or unresolved; atoms staled or kept;
 * a link made by hand to a replaced symbol moved to its successor).
 */
import { describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { storeCode } from "../../src/core/code/ingest.ts";
import type { StoreCodeResult } from "../../src/core/code/input.ts";
import { codeSuite, sqlOf } from "./support.ts";
import { FakeExtractor, fakeSource, sym } from "./fake-extractor.ts";

function makeRepo(): string {
  const root = mkdtempSync(join(tmpdir(), "pegas-code-"));
  const put = (rel: string, text: string) => {
    mkdirSync(dirname(join(root, rel)), { recursive: true });
    writeFileSync(join(root, rel), text);
  };
  put(".gitignore", "ignored.py\n");
  put("ignored.py", "FAIL_PARSE");
  put("notes.txt", "not code");
  put(
    "pkg/__init__.py",
    fakeSource({
      symbols: [
        sym("helper", "function", 3, 3, "Help with things. More words."),
        sym("_private", "function", 4, 4, "Hidden."),
      ],
      deps: [
        { kind: "imports", from: { module: true }, target: ".core", line: 1 },
        { kind: "calls", from: { symbol: "helper" }, target: "run", line: 3 },
      ],
      imports: [{ local: "run", module: ".core", name: "run" }],
    }),
  );
  put("pkg/core.py", coreSource(false));
  put("pkg/broken.py", "FAIL_PARSE");
  put("pkg/blob.py", "abc\u0000def");
  put(
    "go/a.go",
    fakeSource({
      symbols: [sym("Main", "function", 3, 3, "Main entry.")],
      deps: [{ kind: "calls", from: { symbol: "Main" }, target: "Helper", line: 3 }],
    }),
  );
  put(
    "go/b.go",
    fakeSource({
      symbols: [
        sym("Helper", "function", 3, 3, "Helper does things."),
        sym("helper2", "function", 4, 4, "Unexported."),
      ],
    }),
  );
  return root;
}

function coreSource(edited: boolean): string {
  return fakeSource({
    symbols: [
      sym("Engine", "class", 3, 5, "An engine.", "class Engine(Base)"),
      sym("Engine.start", "method", 4, 4, "Start the engine.", "def start(self)"),
      ...(edited ? [sym("Engine.stop", "method", 5, 5, "Stop it.", "def stop(self)")] : []),
      sym("run", "function", edited ? 6 : 5, edited ? 6 : 5, edited ? "Run everything." : "Run it all.", "def run()"),
    ],
    deps: [
      { kind: "inherits", from: { symbol: "Engine" }, target: "Base", line: 3 },
      { kind: "calls", from: { symbol: "Engine.start" }, target: "stop", receiver: "self", line: 4 },
      { kind: "calls", from: { symbol: "run" }, target: "start", receiver: "Engine", line: edited ? 6 : 5 },
    ],
  });
}

for (const backend of ["pglite", "postgres"] as const) {
  describe(`code storage (${backend})`, () => {
    const fake = new FakeExtractor();
    const suite = codeSuite(backend, {}, () => fake);
    const root = makeRepo();
    let first: StoreCodeResult;
    const q = async (query: string) => (await sqlOf(suite.s!).unsafe(query)) as Array<Record<string, any>>;
    const edge = async (path: string, target: string) => {
      const [r] = await q(
        `SELECT d.dst_symbol_id, d.confidence, t.path, t.qualified_name FROM pm_code_dependency d LEFT JOIN pm_code_symbol t ON t.id = d.dst_symbol_id WHERE d.path = '${path}' AND d.dst_name = '${target}'`,
      );
      return r;
    };
    const outbox = async () =>
      Object.fromEntries(
        (await q("SELECT entity_type || ':' || op AS k, count(*)::int AS n FROM pm_outbox GROUP BY 1")).map((r) => [
          r.k,
          r.n,
        ]),
      );

    test("first walk: files classified, a failing file reported, symbols and module symbols stored", async () => {
      if (suite.skip) return console.warn(`skipped: ${suite.skip}`);
      first = await storeCode(suite.s!, { path: root }, { trustedPath: true });
      expect(first.files).toEqual({
        seen: 9,
        parsed: 4,
        unchanged: 0,
        failed: 1,
        removed: 0,
        skipped: { unsupported: 1, hidden: 1, ignored: 1, binary: 1 },
      });
      expect(first.errors).toEqual([
        { path: "pkg/broken.py", code: "INTERNAL", message: "the fake grammar cannot parse 'pkg/broken.py'" },
      ]);
      expect(first.noted).toEqual([{ path: "pkg/blob.py", reason: "binary" }]);
      expect(first.symbols).toBe(8);
      expect(fake.calls.sort()).toEqual(["go/a.go", "go/b.go", "pkg/__init__.py", "pkg/broken.py", "pkg/core.py"]);
      const files = await q("SELECT path, status, error, symbols FROM pm_code_file ORDER BY path");
      expect(files.map((f) => `${f.path}:${f.status}:${f.symbols}`)).toEqual([
        "go/a.go:parsed:1",
        "go/b.go:parsed:2",
        "pkg/__init__.py:parsed:2",
        "pkg/blob.py:skipped:0",
        "pkg/broken.py:failed:0",
        "pkg/core.py:parsed:3",
      ]);
      const modules = await q(
        "SELECT path, qualified_name, name FROM pm_code_symbol WHERE metadata @> '{\"file\": true}' ORDER BY path",
      );
      expect(modules.map((m) => `${m.path}=${m.qualified_name}/${m.name}`)).toEqual([
        "go/a.go=go/a/a",
        "go/b.go=go/b/b",
        "pkg/__init__.py=pkg/pkg",
        "pkg/core.py=pkg/core/core",
      ]);
      const [doc] = await q("SELECT kind, uri, content_hash FROM pm_document");
      expect(doc.kind).toBe("code_repo");
      expect(doc.uri).toBe(`file://${root}`);
      expect(doc.content_hash).toMatch(/^[0-9a-f]{64}$/);
    });

    test("dependency targets resolved by import binding, same file, same package; the rest kept as names", async () => {
      if (suite.skip) return;
      expect(await edge("pkg/__init__.py", ".core")).toMatchObject({
        path: "pkg/core.py",
        qualified_name: "pkg/core",
        confidence: 1,
      });
      expect(await edge("pkg/__init__.py", "run")).toMatchObject({ path: "pkg/core.py", qualified_name: "run" });
      expect((await edge("pkg/__init__.py", "run")).confidence).toBeCloseTo(0.95, 5);
      expect(await edge("pkg/core.py", "start")).toMatchObject({ qualified_name: "Engine.start", confidence: 1 });
      expect((await edge("go/a.go", "Helper")).qualified_name).toBe("Helper");
      expect((await edge("go/a.go", "Helper")).confidence).toBeCloseTo(0.8, 5);
      expect((await edge("pkg/core.py", "stop")).dst_symbol_id).toBeNull();
      expect((await edge("pkg/core.py", "Base")).dst_symbol_id).toBeNull();
      expect(first.dependencies).toEqual({ stored: 6, resolved_now: 4, resolved: 4, unresolved: 2 });
    });

    test("documented public symbols became code atoms, cited path:line and linked `defines`", async () => {
      if (suite.skip) return;
      const atoms = await q(`
        SELECT a.claim, a.content, a.status, c.locator, c.quoted_text, s.qualified_name, s.path
          FROM pm_atom a JOIN pm_citation c ON c.atom_id = a.id
          JOIN pm_atom_symbol_link l ON l.atom_id = a.id AND l.kind = 'defines' JOIN pm_code_symbol s ON s.id = l.symbol_id
         WHERE a.type = 'code' ORDER BY s.path, s.line_start`);
      expect(atoms.map((a) => a.claim)).toEqual([
        "Main: Main entry.",
        "Helper: Helper does things.",
        "helper: Help with things.",
        "Engine: An engine.",
        "Engine.start: Start the engine.",
        "run: Run it all.",
      ]);
      const start = atoms.find((a) => a.qualified_name === "Engine.start")!;
      expect(start.content).toBe("def start(self)\n\nStart the engine.");
      expect(start.locator).toEqual({ href: "pkg/core.py", line_start: 4, line_end: 4 });
      expect(start.quoted_text).toContain('"qualifiedName":"Engine.start"');
      expect(first.atoms).toEqual({ created: 6, existing: 0, staled: 0 });
      const [emb] = await q("SELECT count(*)::int AS n FROM pm_atom_embedding");
      expect(emb.n).toBe(6);
    });

    test("outbox rows for every new symbol, dependency, link, atom and the document", async () => {
      if (suite.skip) return;
      const o = await outbox();
      expect(o["code_symbol:upsert"]).toBe(12);
      expect(o["code_dependency:upsert"]).toBe(6 + 4);
      expect(o["atom_symbol_link:upsert"]).toBe(6);
      expect(o["atom:upsert"]).toBe(6);
      expect(o["document:upsert"]).toBeGreaterThanOrEqual(2);
    });

    test("an unchanged second walk parses no file and writes nothing but the document", async () => {
      if (suite.skip) return;
      const before = await outbox();
      fake.calls.length = 0;
      const r = await storeCode(suite.s!, { path: root }, { trustedPath: true });
      expect(fake.calls).toEqual([]);
      // Counted as on the first walk: the binary file as skipped, the failing one as failed (and listed), not as unchanged.
      expect(r.files).toEqual({
        seen: 9,
        parsed: 0,
        unchanged: 4,
        failed: 1,
        removed: 0,
        skipped: { unsupported: 1, hidden: 1, ignored: 1, binary: 1 },
      });
      expect(r.errors).toEqual([
        {
          path: "pkg/broken.py",
          code: "INTERNAL",
          message: "unchanged since it failed: the fake grammar cannot parse 'pkg/broken.py'",
        },
      ]);
      expect(r.noted).toEqual([{ path: "pkg/blob.py", reason: "binary" }]);
      const after = await outbox();
      expect({ ...after, "document:upsert": 0 }).toEqual({ ...before, "document:upsert": 0 });
    });

    test("one file edited, one deleted: replaced and removed exactly", async () => {
      if (suite.skip) return;
      const oldCore = (await q("SELECT id FROM pm_code_symbol WHERE path = 'pkg/core.py' ORDER BY id")).map((r) =>
        Number(r.id),
      );
      const [oldRun] = await q("SELECT a.id FROM pm_atom a WHERE a.claim = 'run: Run it all.'");
      const [engine] = await q("SELECT a.id FROM pm_atom a WHERE a.claim = 'Engine: An engine.'");
      // A link made by hand (memory_link) to a symbol of the file about to change: it must follow the symbol.
      const [start] = await q(
        "SELECT id FROM pm_code_symbol WHERE path = 'pkg/core.py' AND qualified_name = 'Engine.start'",
      );
      await q(
        `INSERT INTO pm_atom_symbol_link (atom_id, symbol_id, kind, confidence, source) VALUES (${Number(oldRun.id)}, ${Number(start.id)}, 'mentions', 0.7, 'agent')`,
      );
      writeFileSync(join(root, "pkg/core.py"), coreSource(true));
      rmSync(join(root, "go/b.go"));
      fake.calls.length = 0;
      const r = await storeCode(suite.s!, { path: root }, { trustedPath: true });
      expect(fake.calls).toEqual(["pkg/core.py"]);
      expect(r.files).toMatchObject({
        parsed: 1,
        unchanged: 2,
        failed: 1,
        removed: 1,
        skipped: { binary: 1, ignored: 1, unsupported: 1, hidden: 1 },
      });
      expect(r.atoms).toEqual({ created: 2, existing: 2, staled: 2 });
      expect((await q("SELECT path FROM pm_code_file WHERE path = 'go/b.go'")).length).toBe(0);
      expect((await q(`SELECT id FROM pm_code_symbol WHERE id IN (${oldCore.join(",")})`)).length).toBe(0);
      const deleted = (
        await q("SELECT entity_id FROM pm_outbox WHERE entity_type = 'code_symbol' AND op = 'delete'")
      ).map((x) => Number(x.entity_id));
      expect(deleted).toEqual(expect.arrayContaining(oldCore));
      // Edges of unchanged files: re-resolved to the new symbol, or unresolved now that their target is gone.
      expect(await edge("pkg/__init__.py", "run")).toMatchObject({ path: "pkg/core.py", qualified_name: "run" });
      expect(await edge("pkg/__init__.py", ".core")).toMatchObject({ qualified_name: "pkg/core" });
      expect((await edge("go/a.go", "Helper")).dst_symbol_id).toBeNull();
      expect(await edge("pkg/core.py", "stop")).toMatchObject({ qualified_name: "Engine.stop" });
      const status = async (id: unknown) => (await q(`SELECT status FROM pm_atom WHERE id = ${Number(id)}`))[0].status;
      expect(await status(oldRun.id)).toBe("stale");
      expect(await status(engine.id)).toBe("candidate");
      const [helper] = await q("SELECT status FROM pm_atom WHERE claim = 'Helper: Helper does things.'");
      expect(helper.status).toBe("stale");
      const [link] = await q(`SELECT count(*)::int AS n FROM pm_atom_symbol_link WHERE atom_id = ${Number(engine.id)}`);
      expect(link.n).toBe(1);
      const moved =
        await q(`SELECT l.id, l.kind, l.confidence, l.source, s.qualified_name, s.id AS symbol_id FROM pm_atom_symbol_link l
                               JOIN pm_code_symbol s ON s.id = l.symbol_id WHERE l.atom_id = ${Number(oldRun.id)} AND l.kind = 'mentions'`);
      expect(moved.map((m) => [m.kind, Number(Number(m.confidence).toFixed(2)), m.source, m.qualified_name])).toEqual([
        ["mentions", 0.7, "agent", "Engine.start"],
      ]);
      expect(Number(moved[0].symbol_id)).not.toBe(Number(start.id));
      const upserts = (
        await q("SELECT entity_id FROM pm_outbox WHERE entity_type = 'atom_symbol_link' AND op = 'upsert'")
      ).map((x) => Number(x.entity_id));
      expect(upserts).toContain(Number(moved[0].id));
    });

    test("the same repo name from another directory is refused", async () => {
      if (suite.skip) return;
      const other = mkdtempSync(join(tmpdir(), "pegas-code-other-"));
      try {
        await storeCode(suite.s!, { path: root, repo: "named" }, { trustedPath: true });
        await expect(storeCode(suite.s!, { path: other, repo: "named" }, { trustedPath: true })).rejects.toMatchObject({
          code: "INVALID_INPUT",
        });
      } finally {
        rmSync(other, { recursive: true, force: true });
      }
    });

    test("cancellation stops before the next commit; a new run continues", async () => {
      if (suite.skip) return;
      const ac = new AbortController();
      fake.onExtract = () => ac.abort();
      const fresh = makeRepo();
      try {
        await expect(
          storeCode(suite.s!, { path: fresh, repo: "cancelled" }, { trustedPath: true, signal: ac.signal }),
        ).rejects.toMatchObject({ code: "CANCELLED" });
        expect((await q("SELECT count(*)::int AS n FROM pm_code_file WHERE repo = 'cancelled'"))[0].n).toBe(0);
        fake.onExtract = undefined;
        const r = await storeCode(suite.s!, { path: fresh, repo: "cancelled" }, { trustedPath: true });
        expect(r.files.parsed).toBe(4);
      } finally {
        fake.onExtract = undefined;
        rmSync(fresh, { recursive: true, force: true });
        rmSync(root, { recursive: true, force: true });
      }
    });
  });
}
