/**
 * memory_get_context through the MCP registry (SDK client, in-memory transport, embedded database) on a real
 * ingested fixture (Chekhov's «Палата № 6», shared/fixtures/text): the block stays within the token budget (counted
 * again here with the same tokenizer), cites every atom it shows with a numbered source that exists, adds atoms
 * over links, flags a contested atom with its opponent, and shrinks with the budget.
 */
import { describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { countTokens } from "gpt-tokenizer/encoding/o200k_base";
import { TOOLS } from "../../src/mcp/registry.ts";
import { fixturePath } from "../support/shared.ts";
import { suiteMcpClient, toolCalls, type ToolOut } from "../support/mcp-client.ts";
import { suiteServices } from "../support/services.ts";

const t = suiteServices("pglite", { ingest_roots: [tmpdir()] });
const mcp = suiteMcpClient(t);

type Out = ToolOut;
const { call, ok: okConcise, text: textOf } = toolCalls(mcp, 120_000);
/** The whole result (response_format detailed, for the tools that take it: the others refuse unknown arguments). */
const ok = (name: string, args: Record<string, unknown>) =>
  okConcise(name, TAKES_FORMAT.has(name) ? { ...args, response_format: "detailed" } : args);
const TAKES_FORMAT = new Set(TOOLS.filter((tool) => "response_format" in tool.inputSchema).map((tool) => tool.name));

function expectWellCited(ctx: Out): void {
  expect(
    Math.max(countTokens(ctx.markdown), countTokens(JSON.stringify({ markdown: ctx.markdown }))),
  ).toBeLessThanOrEqual(ctx.used_tokens);
  expect(ctx.used_tokens).toBeLessThanOrEqual(ctx.budget_tokens);
  const numbers = new Set(ctx.citations.map((c: Out) => c.n));
  for (const item of ctx.items) {
    expect(ctx.markdown).toContain(`atom ${item.atom_id}`);
    expect(ctx.markdown).toContain(item.shown);
    for (const n of item.citations) {
      expect(numbers.has(n)).toBe(true);
      expect(ctx.markdown).toContain(`[${n}]`);
    }
  }
  // A document's first source names it; later locators of the same document refer back to it.
  for (const c of ctx.citations)
    expect(ctx.markdown).toContain(
      ctx.citations.some((o: Out) => o.doc_id === c.doc_id && o.n < c.n) ? `[${c.n}] as [` : `[${c.n}] ${c.title}`,
    );
}

describe("memory_get_context over MCP", () => {
  test("a question about an ingested real text: cited, within the budget, smaller budgets give less", async () => {
    const text = readFileSync(fixturePath("text/ru_chekhov_palata_no6.txt"), "utf8");
    const doc = await ok("memory_ingest", { text, title: "Палата № 6" });
    expect(doc.atoms_created).toBeGreaterThan(50);

    const ctx = await ok("memory_get_context", { question: "Кто такой Иван Дмитрич Громов и почему он в палате?" });
    expect(ctx.items.length).toBeGreaterThan(0);
    expect(ctx.items.every((i: Out) => i.citations.length > 0)).toBe(true);
    expect(ctx.citations[0]).toMatchObject({ doc_id: doc.doc_id, title: "Палата № 6" });
    expect(ctx.markdown).toMatch(/Громов/);
    expectWellCited(ctx);
    // What a model reads: the block as text; the structured content holds the block and compact citations, no items.
    const r = await call("memory_get_context", { question: "Кто такой Иван Дмитрич Громов и почему он в палате?" });
    expect(textOf(r)).toBe(ctx.markdown);
    expect(Object.keys(r.structuredContent as Out).sort()).toEqual(["citations", "markdown"]);
    expect((r.structuredContent as Out).citations[0]).toEqual({
      n: 1,
      doc_id: doc.doc_id,
      locator: ctx.citations[0].locator,
    });
    expect(textOf(r)).not.toContain('"atom_id"');

    const small = await ok("memory_get_context", {
      question: "Кто такой Иван Дмитрич Громов и почему он в палате?",
      budget_tokens: 200,
    });
    expectWellCited(small);
    expect(small.items.length).toBeLessThan(ctx.items.length);
    expect(small.omitted).toBeGreaterThan(0);
    // At the smallest budget an atom is shown by its best sentence, cut short.
    const tiny = await ok("memory_get_context", {
      question: "Кто такой Иван Дмитрич Громов и почему он в палате?",
      budget_tokens: 100,
    });
    expectWellCited(tiny);
    expect(tiny.items.length).toBeGreaterThan(0);
    expect(tiny.items[0].cut).toBe(true);
    expect(tiny.markdown).toMatch(/_Left out: \d+ more atom\(s\) \(\d+, …\): raise budget_tokens/);
  }, 180_000);

  test("atoms reached over links, and a contested atom with its opponent", async () => {
    const a = await ok("memory_store", { type: "fact", claim: "Станция Восток лежит на высоте 3488 метров." });
    // Notes stored in between, so that b is reached over its link and not as a search hit's neighbour.
    await ok("memory_store", { type: "fact", claim: "Пингвины Адели гнездятся на каменистых берегах." });
    const b = await ok("memory_store", {
      type: "fact",
      claim: "На морозном плато снег почти не тает круглый год.",
      links: [{ atom_id: a.atom_id, kind: "related", confidence: 0.9 }],
    });
    await ok("memory_store", { type: "fact", claim: "Полярное сияние видно зимой над Антарктидой." });
    const c = await ok("memory_store", { type: "fact", claim: "Станция Восток лежит на высоте 3000 метров." });
    expect(c.contradicts.map((x: Out) => x.atom_id)).toContain(a.atom_id);

    const ctx = await ok("memory_get_context", { question: "На какой высоте станция Восток?", k: 3 });
    expectWellCited(ctx);
    const byId = new Map(ctx.items.map((i: Out) => [i.atom_id, i]));
    expect(byId.get(a.atom_id)).toBeDefined();
    expect((byId.get(a.atom_id) as Out).contested_by.map((o: Out) => o.atom_id)).toContain(c.atom_id);
    expect(ctx.markdown).toContain(`⚠ contested by atom ${c.atom_id}`);
    const linked = byId.get(b.atom_id) as Out;
    expect(linked).toMatchObject({ source: "graph", via: { atom_id: a.atom_id, kind: "related", hops: 1 } });
    expect(ctx.markdown).toContain("(no source)");
  });

  test("an atom its source no longer holds (stale) does not mark the current one contested", async () => {
    // The page said 40 MW, its new version says 55 MW: the old atom goes stale and stays linked `contradicts`,
    // but the context is not to warn about a conflict its own source has settled.
    const dir = mkdtempSync(join(tmpdir(), "ctx-stale-"));
    const file = join(dir, "reactor.md");
    const say = (mw: number) =>
      `# Zorblax\n\nThe Zorblax reactor produces ${mw} megawatts of power at full load during winter months.\n`;
    try {
      writeFileSync(file, say(40));
      await ok("memory_ingest", { path: file });
      writeFileSync(file, say(55));
      const v2 = await ok("memory_ingest", { path: file });
      expect(v2.atoms_staled).toBeGreaterThan(0);
      const ctx = await ok("memory_get_context", { question: "Zorblax reactor megawatts", k: 3 });
      expectWellCited(ctx);
      expect(ctx.markdown).toContain("55 megawatts");
      expect(ctx.markdown).not.toContain("40 megawatts");
      expect(ctx.markdown).not.toContain("contested by");
      for (const item of ctx.items) expect(item.contested_by).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("hits ranked below k fill the budget the first k leave, in rank order and within it", async () => {
    const harbours = ["Aberdeen", "Bergen", "Cadiz", "Danzig", "Esbjerg", "Faro", "Genoa", "Hull", "Izmir", "Kiel"];
    const ids: number[] = [];
    for (const h of harbours)
      ids.push(
        (await ok("memory_store", { type: "fact", claim: `The lighthouse keeper of ${h} harbour logs every ship.` }))
          .atom_id,
      );
    const q = { question: "Which lighthouse keeper logs every ship in the harbour?", k: 3, hops: 0 };
    const wide = await ok("memory_get_context", { ...q, budget_tokens: 2000 });
    expectWellCited(wide);
    const shown = wide.items.map((i: Out) => i.atom_id);
    for (const id of ids) expect(shown).toContain(id);
    expect(wide.items.every((i: Out) => i.source === "search")).toBe(true);
    const narrow = await ok("memory_get_context", { ...q, budget_tokens: 250 });
    expectWellCited(narrow);
    expect(narrow.items.length).toBeGreaterThan(0);
    expect(narrow.items.length).toBeLessThan(harbours.length);
    // Shown in the order search ranks them.
    const ranked = (await ok("memory_search", { query: q.question, k: 50 })).hits.map((h: Out) => h.atom_id);
    expect(shown).toEqual(ranked.slice(0, shown.length));
    expect(narrow.items.map((i: Out) => i.atom_id)).toEqual(ranked.slice(0, narrow.items.length));
  });

  test("a question nothing answers gives an empty block; bad bounds are refused", async () => {
    const none = await ok("memory_get_context", { question: "квантовая хромодинамика глюонов" });
    expect(none.items).toEqual([]);
    expect(none.markdown).toContain("Nothing in memory matches");
    const bad = await call("memory_get_context", { question: "x", budget_tokens: 10 });
    expect(bad.isError).toBe(true);
  });

  test("Markdown sources: no heading marker, bullet, fence or comment reaches a line, English or Russian", async () => {
    // The project's README (Markdown: headings, lists, fenced code, HTML comments) and a Russian note in Markdown.
    await ok("memory_ingest", {
      text: readFileSync(join(import.meta.dir, "../../README.md"), "utf8"),
      title: "README",
    });
    const dir = mkdtempSync(join(tmpdir(), "ctx-md-"));
    const file = join(dir, "заметки.md");
    writeFileSync(
      file,
      "# Обсерватория Кряжево\n\n## Телескоп\n\nГлавный телескоп обсерватории Кряжево имеет зеркало диаметром " +
        "два метра.\n\n- Купол обсерватории Кряжево открывают только в ясные ночи\n- Наблюдатель записывает " +
        "погоду каждый час\n\n<!-- черновик -->\n```sh\n# запуск камеры телескопа\nkamera --start\n```\n\n" +
        "Расписание\n----------\n\nНаблюдения в обсерватории Кряжево идут с октября по март.\n",
    );
    try {
      await ok("memory_ingest", { path: file });
      const questions = [
        "How do I install and configure pegas-memory?",
        "Which tools does the server offer for search?",
        "Какой телескоп в обсерватории Кряжево и когда открывают купол?",
        "Когда идут наблюдения в обсерватории Кряжево?",
      ];
      for (const question of questions) {
        const ctx = await ok("memory_get_context", { question, budget_tokens: 1500 });
        expectWellCited(ctx);
        expect(ctx.items.length).toBeGreaterThan(0);
        const lines = ctx.markdown
          .split("\nSources:")[0]
          .split("\n")
          .filter((l: string) => l.startsWith("- "));
        expect(lines.length).toBeGreaterThan(0);
        // A "# " inside a line may be a shell comment of fenced code ("npm ci # install"); "## Heading" may not.
        for (const line of lines) expect(line).not.toMatch(/^- (?:… )?(?:#|[-*+] )|#{2,6} \p{L}|```|<!--|\s- - /u);
        for (const item of ctx.items) expect(item.shown).not.toMatch(/^(?:#|[-*+] )/u);
      }
      const ru = await ok("memory_get_context", { question: "Какой телескоп в обсерватории Кряжево?" });
      // The heading reads as a section marker; the list item joins the line without its bullet.
      expect(ru.markdown).toMatch(/^- Обсерватория Кряжево: /mu);
      expect(ru.markdown).toMatch(/[.…] Купол обсерватории Кряжево открывают только в ясные ночи/u);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 180_000);
});
