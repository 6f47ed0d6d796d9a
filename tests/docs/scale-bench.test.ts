/**
 * The scale benchmark's own logic: the generated corpus (distinct atoms by identity, both languages, memory_store
 * atoms new against the loaded prefix, reproducible queries), its summary rows with the goals, and the SVG
 * chart drawn from its results (and docs/scale.svg is what `npm run docs:bench` writes).
 */
import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { atomContentHash } from "../../src/core/knowledge/atoms.ts";
import { scaleChartSvg } from "../../bench/lib/scale-chart.ts";
import {
  atomCapacity,
  atomText,
  atomTexts,
  scaleQueries,
  sentencePools,
  storeAtoms,
} from "../../bench/lib/scale-corpus.ts";
import { type ScalePoint, type ScaleResults, scaleRows } from "../../bench/lib/scale-rows.ts";
import { renderScaleChart, SCALE_CHART } from "../../scripts/gen-benchmarks.ts";

const pools = sentencePools();

describe("scale corpus", () => {
  test("atoms are distinct by atom identity, alternate English and Russian, and are reproducible", () => {
    const n = 2 * pools.ru.length * 3; // every pair offset k in 0..2 of both pools
    const texts = atomTexts(pools, 0, n);
    expect(new Set(texts.map((t) => atomContentHash("text", t))).size).toBe(n);
    expect(texts.filter((_, i) => i % 2 === 1).every((t) => /[а-яё]/i.test(t))).toBe(true);
    expect(texts.filter((_, i) => i % 2 === 0).every((t) => !/[а-яё]/i.test(t))).toBe(true);
    expect(atomTexts(sentencePools(), 0, 50)).toEqual(texts.slice(0, 50));
  });

  test("capacity covers a million atoms and indexes past it are refused", () => {
    const cap = atomCapacity(pools);
    expect(cap).toBeGreaterThan(1_000_000);
    expect(() => atomText(pools, cap)).toThrow(RangeError);
    expect(() => atomText(pools, -1)).toThrow(RangeError);
    // Near the top of the range the pairs are still distinct.
    const top = atomTexts(pools, cap - 4000, cap);
    expect(new Set(top.map((t) => atomContentHash("text", t))).size).toBe(4000);
  });

  test("memory_store atoms are new against the loaded prefix and their claim is the first sentence", () => {
    const loaded = new Set(atomTexts(pools, 0, 20_000).map((t) => atomContentHash("text", t)));
    const stored = storeAtoms(pools, 30, 20_000);
    expect(stored.filter((a) => loaded.has(atomContentHash("text", a.content)))).toEqual([]);
    for (const a of stored) {
      expect(a.content.startsWith(a.claim)).toBe(true);
      expect(a.claim.length).toBeLessThan(a.content.length);
    }
  });

  test("queries alternate languages, hold 3–5 words of 4+ letters, and depend only on the seed", () => {
    const qs = scaleQueries(pools, 40);
    expect(qs.map((q) => q.lang).slice(0, 4)).toEqual(["en", "ru", "en", "ru"]);
    for (const q of qs) {
      const words = q.text.split(" ");
      expect(words.length).toBeGreaterThanOrEqual(3);
      expect(words.length).toBeLessThanOrEqual(5);
      expect(words.every((w) => /^\p{L}{4,}$/u.test(w))).toBe(true);
    }
    expect(scaleQueries(pools, 40)).toEqual(qs);
    expect(scaleQueries(pools, 40, 8)).not.toEqual(qs);
  });
});

function point(atoms: number, searchP50: number): ScalePoint {
  return {
    atoms,
    budget_hit: false,
    load: { atoms_per_s: 1000 },
    ready: { ready_ms: 300 },
    rss_mb: { ready: 300, peak: 500 },
    search: { median: searchP50, p95: searchP50 * 2, p99: searchP50 * 3 },
    search_core: { median: searchP50 / 2 },
    get_context: { median: 40 },
    store: { median: 20 },
    under_ingest: { search: { median: 30, p99: 400, n: 100 }, ingest: { mb_per_s: 0.3 } },
    disk_mb: 100,
  };
}

const RESULTS: ScaleResults = {
  pglite: { atoms_10000: point(10_000, 5), atoms_100000: point(100_000, 20) },
  postgres: { atoms_100000: point(100_000, 25), atoms_10000: point(10_000, 6) },
};

describe("scale summary and chart", () => {
  test("rows give each figure per backend and scale, with the issue's goals beside them", () => {
    const rows = scaleRows(RESULTS);
    expect(rows.length).toBe(4 * 9);
    const search = rows.filter((r) => r.metric.startsWith("memory_search p50 / p95 / p99"));
    expect(search.map((r) => r.metric.split(", ").slice(1).join(", "))).toEqual([
      "PGlite, 10k atoms",
      "PGlite, 100k atoms",
      "PostgreSQL, 10k atoms",
      "PostgreSQL, 100k atoms",
    ]);
    expect(search[1].value).toBe("20 / 40 / 60");
    expect(search.every((r) => r.target === "p50 ≤ 50 ms at 1M")).toBe(true);
    const rss = rows.filter((r) => r.metric.startsWith("RSS"));
    expect(rss.map((r) => r.target)).toEqual(["≤ 2048 MiB at 1M", "≤ 400 MiB ready (item 2)", undefined, undefined]);
  });

  test("the chart has one curve per series and backend, increasing in x, with finite coordinates", () => {
    const svg = scaleChartSvg(RESULTS, "caption");
    expect(svg.startsWith("<svg")).toBe(true);
    const lines = [...svg.matchAll(/<polyline points="([^"]+)"/g)].map((m) => m[1]);
    expect(lines.length).toBe(2 * (5 + 2));
    for (const l of lines) {
      const xs = l.split(" ").map((p) => Number(p.split(",")[0]));
      const ys = l.split(" ").map((p) => Number(p.split(",")[1]));
      expect([...xs, ...ys].every(Number.isFinite)).toBe(true);
      expect(xs[1]).toBeGreaterThan(xs[0]);
    }
    // A slower search sits higher (a smaller y) on the latency panel.
    const p50 = lines[0].split(" ").map((p) => Number(p.split(",")[1]));
    expect(p50[1]).toBeLessThan(p50[0]);
    expect(svg).toContain("search p50 ≤ 50 ms");
    expect(svg).toContain("RSS ≤ 2048 MiB");
    expect(svg).toContain(">1M</text>"); // the atoms axis reaches the goals' scale
  });

  test("docs/scale.svg is what `npm run docs:bench` draws from bench/results/scale.json", () => {
    const chart = renderScaleChart();
    if (chart === null) return; // no scale result committed yet: nothing to draw
    expect(existsSync(SCALE_CHART)).toBe(true);
    expect(readFileSync(SCALE_CHART, "utf8")).toBe(chart);
  });
});
