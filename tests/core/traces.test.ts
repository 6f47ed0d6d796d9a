/**
 * Episodic traces on both backends: Russian and English stemming, the trigram fallback, filters (session, kind,
 * since), listing without a query, cursors, size caps, retry-safe writes, bad input, and the wall between traces
 * and knowledge (memory_search never returns a trace).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { search } from "../../src/core/search/search.ts";
import { stats } from "../../src/core/projections/stats.ts";
import { storeAtom } from "../../src/core/knowledge/store-atom.ts";
import {
  addTrace,
  parseSince,
  searchTraces,
  TRACE_PAGE_BYTES,
  type TraceAddInput,
} from "../../src/core/traces/traces.ts";
import type { Services } from "../../src/core/services.ts";
import { rejectsWith } from "../support/errors.ts";
import { pgSkipReason } from "../support/pg.ts";
import { openTestServices, type TestServices } from "../support/services.ts";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function traceSuite(backend: "postgres" | "pglite", skipReason: string | null): void {
  describe.skipIf(skipReason !== null)(`episodic traces on ${backend}`, () => {
    let t: TestServices | string;
    beforeAll(async () => {
      t = await openTestServices(backend);
    }, 60_000);
    afterAll(async () => {
      if (typeof t !== "string") await t.dispose();
    }, 30_000);
    const it = (title: string, fn: (s: Services) => Promise<void>) =>
      test(title, async () => {
        if (typeof t === "string") throw new Error(`cannot open ${backend}: ${t}`);
        await fn(t.services);
      }, 60_000);
    const add = (
      s: Services,
      kind: TraceAddInput["kind"],
      content: string,
      session?: string,
      metadata?: Record<string, unknown>,
    ) => addTrace(s, { kind, content, session, metadata });

    it("Russian stemming: «суббота» finds «в субботу», ё and е are one letter", async (s) => {
      const a = await add(s, "plan", "Созвон с научным руководителем перенесли: будет в субботу утром.", "ru-1", {
        tool: "calendar",
      });
      await add(s, "observation", "Нашёл ошибку в разборе таблиц PDF.", "ru-1");
      const r = await searchTraces(s, { query: "суббота" });
      expect(r.match).toBe("fulltext");
      expect(r.hits.map((h) => h.trace_id)).toEqual([a.trace_id]);
      expect(r.hits[0]).toMatchObject({
        kind: "plan",
        session: "ru-1",
        metadata: { tool: "calendar" },
        truncated: false,
      });
      expect(r.hits[0].score).toBeGreaterThan(0);
      expect(Date.parse(r.hits[0].created_at)).toBe(Date.parse(a.created_at));
      const yo = await searchTraces(s, { query: "нашел ошибки" });
      expect(yo.hits.map((h) => h.content)).toEqual(["Нашёл ошибку в разборе таблиц PDF."]);
    });

    it("English stemming and websearch syntax", async (s) => {
      const a = await add(s, "action", "Ran the retrieval benchmarks twice on SciFact.", "en-1");
      const b = await add(s, "reflection", "The benchmark numbers were noisy; pin the CPU governor next time.", "en-1");
      const r = await searchTraces(s, { query: "benchmark", session: "en-1" });
      expect(r.hits.map((h) => h.trace_id).sort()).toEqual([a.trace_id, b.trace_id].sort());
      const phrase = await searchTraces(s, { query: '"benchmark numbers"', session: "en-1" });
      expect(phrase.hits.map((h) => h.trace_id)).toEqual([b.trace_id]);
      const without = await searchTraces(s, { query: "benchmark -noisy", session: "en-1" });
      expect(without.hits.map((h) => h.trace_id)).toEqual([a.trace_id]);
    });

    it("a typo falls back to trigram similarity; gibberish finds nothing", async (s) => {
      const a = await add(s, "observation", "Qdrant snapshot restoration failed with a timeout.", "typo-1");
      const r = await searchTraces(s, { query: "restoraton", session: "typo-1" });
      expect(r.match).toBe("trigram");
      expect(r.hits.map((h) => h.trace_id)).toEqual([a.trace_id]);
      expect(r.hits[0].score).toBeGreaterThan(0.3);
      expect(r.hits[0].score).toBeLessThanOrEqual(1);
      const none = await searchTraces(s, { query: "жщцфыв qzxvbk" });
      expect(none.hits).toEqual([]);
      expect(none.next_cursor).toBeNull();
    });

    it("traces never appear in memory_search and stay out of the atom counts", async (s) => {
      const before = await stats(s);
      await add(s, "observation", "Квазиплотность раствора измерена трижды.", "wall-1");
      await storeAtom(s, { type: "fact", claim: "Плотность раствора равна 1,2 г/см³." });
      const after = await stats(s);
      expect(after.traces).toBe(before.traces + 1);
      expect(after.atoms.total).toBe(before.atoms.total + 1);
      for (const mode of ["hybrid", "lexical", "vector"] as const) {
        const r = await search(s, { query: "квазиплотность раствора", k: 50, mode });
        expect(r.hits.some((h) => h.content.includes("Квазиплотность"))).toBe(false);
      }
      const atom = await search(s, { query: "плотность раствора", k: 5 });
      expect(atom.hits[0].claim).toContain("Плотность раствора");
      const trace = await searchTraces(s, { query: "квазиплотность" });
      expect(trace.hits).toHaveLength(1);
    });

    it("filters by session and kind; without a query lists the newest first", async (s) => {
      const ids: number[] = [];
      for (const kind of ["plan", "action", "observation", "reflection", "action"] as const) {
        ids.push((await add(s, kind, `шаг ${ids.length + 1}: проверка фильтров`, "filt-1")).trace_id);
      }
      await add(s, "action", "шаг из другой сессии: проверка фильтров", "filt-2");
      const list = await searchTraces(s, { session: "filt-1" });
      expect(list.match).toBe("recent");
      expect(list.hits.map((h) => h.trace_id)).toEqual([...ids].reverse());
      expect(list.hits.every((h) => h.score === 0)).toBe(true);
      const actions = await searchTraces(s, { query: "проверка фильтров", session: "filt-1", kind: "action" });
      expect(actions.hits.map((h) => h.trace_id).sort()).toEqual([ids[1], ids[4]].sort());
      const two = await searchTraces(s, { session: "filt-1", kind: ["plan", "reflection"] });
      expect(two.hits.map((h) => h.kind)).toEqual(["reflection", "plan"]);
      const all = await searchTraces(s, { query: "проверка фильтров" });
      expect(all.hits.map((h) => h.session)).toContain("filt-2");
      // Equal ranks: newest first.
      expect(all.hits.map((h) => h.trace_id)).toEqual([...all.hits.map((h) => h.trace_id)].sort((x, y) => y - x));
    });

    it("since keeps traces created at or after an ISO 8601 time", async (s) => {
      const first = await add(s, "action", "первый шаг окна", "since-1");
      await sleep(20);
      const second = await add(s, "action", "второй шаг окна", "since-1");
      const r = await searchTraces(s, { session: "since-1", since: second.created_at });
      expect(r.hits.map((h) => h.trace_id)).toEqual([second.trace_id]);
      const zoned = new Date(Date.parse(first.created_at) - 1).toISOString().replace("Z", "+00:00");
      expect((await searchTraces(s, { query: "шаг окна", session: "since-1", since: zoned })).hits).toHaveLength(2);
      expect((await searchTraces(s, { session: "since-1", since: "2999-01-01" })).hits).toEqual([]);
      expect((await searchTraces(s, { session: "since-1", since: "2000-01-01" })).hits).toHaveLength(2);
    });

    it("pages through results with a cursor bound to the query", async (s) => {
      for (let i = 0; i < 7; i++) await add(s, "observation", `итерация ${i}: страница результатов`, "page-1");
      const seen: number[] = [];
      let cursor: string | undefined;
      do {
        const r = await searchTraces(s, { query: "страницы", session: "page-1", limit: 3, cursor });
        expect(r.hits.length).toBeLessThanOrEqual(3);
        seen.push(...r.hits.map((h) => h.trace_id));
        cursor = r.next_cursor ?? undefined;
      } while (cursor);
      expect(seen).toHaveLength(7);
      expect(new Set(seen).size).toBe(7);
      const p1 = await searchTraces(s, { query: "страницы", session: "page-1", limit: 3 });
      await rejectsWith(
        searchTraces(s, { query: "другое", session: "page-1", cursor: p1.next_cursor! }),
        "INVALID_INPUT",
      );
      await rejectsWith(searchTraces(s, { query: "страницы", session: "page-1", cursor: "bm9wZQ" }), "INVALID_INPUT");
    });

    it("cuts long content in hits and keeps a page under its byte budget", async (s) => {
      const long = "Длинное наблюдение о разметке. ".repeat(200);
      const a = await add(s, "observation", long, "big-1");
      const [hit] = (await searchTraces(s, { query: "разметка", session: "big-1" })).hits;
      expect(hit.trace_id).toBe(a.trace_id);
      expect(hit).toMatchObject({ truncated: true, content_chars: long.trim().length });
      expect(Array.from(hit.content)).toHaveLength(4000);
      const meta = { blob: "ж".repeat(7000) };
      for (let i = 0; i < 40; i++) await add(s, "observation", `объёмная запись ${i} `.repeat(300), "big-2", meta);
      const r = await searchTraces(s, { session: "big-2", limit: 100 });
      expect(r.hits.length).toBeLessThan(40);
      expect(Buffer.byteLength(JSON.stringify(r))).toBeLessThan(TRACE_PAGE_BYTES + 64 * 1024);
      const rest = await searchTraces(s, { session: "big-2", limit: 100, cursor: r.next_cursor! });
      expect(r.hits.length + rest.hits.length).toBe(40);
    });

    it("sanitizes content and metadata, and a retried write stores one row", async (s) => {
      const r = await add(s, "observation", "вывод\u0000 инструмента \ud800 с мусором\r\n", "san-1", {
        "k\u0000": "v\u0000",
        __proto__x: 1,
      });
      expect(r.warnings.join(" ")).toContain("NUL");
      const [hit] = (await searchTraces(s, { session: "san-1" })).hits;
      expect(hit.content).toBe("вывод инструмента \ufffd с мусором");
      expect(hit.metadata).toEqual({ k: "v", __proto__x: 1 });
      const proto = await add(
        s,
        "action",
        "ключ __proto__ остаётся ключом",
        "san-2",
        JSON.parse('{"__proto__": {"polluted": true}}'),
      );
      expect(proto.trace_id).toBeGreaterThan(0);
      expect((await searchTraces(s, { session: "san-2" })).hits[0].metadata).toEqual(
        JSON.parse('{"__proto__": {"polluted": true}}'),
      );
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      const input = {
        kind: "action" as const,
        content: "повтор после обрыва связи",
        session: "retry-1",
        metadata: {},
        requestKey: crypto.randomUUID(),
      };
      const x = await s.traces.addTrace(input);
      const y = await s.traces.addTrace(input);
      expect(y).toEqual(x);
      expect((await searchTraces(s, { session: "retry-1" })).hits).toHaveLength(1);
    });

    it("refuses bad input with INVALID_INPUT", async (s) => {
      await rejectsWith(addTrace(s, { kind: "thought" as never, content: "x" }), "INVALID_INPUT");
      await rejectsWith(addTrace(s, { kind: "plan", content: " \n\t " }), "INVALID_INPUT");
      await rejectsWith(addTrace(s, { kind: "plan", content: "x".repeat(100_001) }), "INVALID_INPUT");
      await rejectsWith(addTrace(s, { kind: "plan", content: "x", session: "  " }), "INVALID_INPUT");
      await rejectsWith(addTrace(s, { kind: "plan", content: "x", metadata: [1, 2] as never }), "INVALID_INPUT");
      await rejectsWith(
        addTrace(s, { kind: "plan", content: "x", metadata: { big: "я".repeat(9000) } }),
        "INVALID_INPUT",
      );
      await rejectsWith(addTrace(s, { kind: "plan", content: "x", metadata: { n: Number.NaN } }), "INVALID_INPUT");
      await rejectsWith(addTrace(s, { kind: "plan", content: "x", metadata: { d: new Date() } }), "INVALID_INPUT");
      const deep: Record<string, unknown> = {};
      let cur = deep;
      for (let i = 0; i < 20; i++) cur = (cur.n = {}) as Record<string, unknown>;
      await rejectsWith(addTrace(s, { kind: "plan", content: "x", metadata: deep }), "INVALID_INPUT");
      for (const since of ["yesterday", "2024-02-30", "2024-13-01", "2024-05-01T25:00", "1714550000"]) {
        const e = await rejectsWith(searchTraces(s, { since }), "INVALID_INPUT");
        expect(e.message).toContain("ISO 8601");
      }
      for (const limit of [0, 101, 2.5]) await rejectsWith(searchTraces(s, { limit }), "INVALID_INPUT");
      await rejectsWith(searchTraces(s, { kind: [] }), "INVALID_INPUT");
      await rejectsWith(searchTraces(s, { kind: "dream" as never }), "INVALID_INPUT");
      await rejectsWith(searchTraces(s, { query: "q".repeat(4001) }), "INVALID_INPUT");
    });
  });
}

describe("parseSince", () => {
  test("reads dates, date-times and zones as UTC instants", () => {
    expect(parseSince("2024-05-01")).toBe("2024-05-01T00:00:00.000Z");
    expect(parseSince("2024-05-01T12:30")).toBe("2024-05-01T12:30:00.000Z");
    expect(parseSince("2024-05-01T12:30:15.123456+03:00")).toBe("2024-05-01T09:30:15.123Z");
    expect(parseSince("2024-05-01 12:30:15-0130")).toBe("2024-05-01T14:00:15.000Z");
    expect(parseSince("2024-02-29T00:00:00z")).toBe("2024-02-29T00:00:00.000Z");
  });
});

traceSuite("pglite", null);
traceSuite("postgres", await pgSkipReason());
