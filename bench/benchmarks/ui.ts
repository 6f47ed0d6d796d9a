/**
 * ui: the admin page (issue 9) over 100k atoms on the embedded default, in headless Debian chromium: page weight (KB
 * transferred with the cache disabled: HTML, CSS, script, and on the graph page cytoscape) and time to first render
 * (first contentful paint; the server's part as time to first byte) of the overview, a search and the graph view.
 * The atoms are real SciFact sentences bulk-loaded as in search_latency (bench/lib/synthetic-atoms.ts). The first
 * page after opening includes the in-process indexes' first catch-up and is reported apart. Skips without chromium.
 */
import { existsSync } from "node:fs";
import { Hono } from "hono";
import { chromium, type Page } from "playwright-core";
import { setLogLevel } from "../../src/log.ts";
import { listen } from "../../src/platform/http-server.ts";
import { createUiApp } from "../../src/ui/app.ts";
import { pgliteServices, removeDir, tempDir } from "../lib/env.ts";
import type { Benchmark, BenchOutcome, SummaryRow } from "../lib/report.ts";
import { median, round } from "../lib/stats.ts";
import { buildAtomTexts, loadAtoms } from "../lib/synthetic-atoms.ts";

const ATOMS = 100_000;
const RUNS = 7;
const CHROMIUM = "/usr/bin/chromium";
const FLAGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

interface Load {
  kb: number;
  fcp_ms: number;
  ttfb_ms: number;
}

/** Loads `url` once with the cache disabled: bytes of every response (headers + body) and the paint timings. */
async function measure(page: Page, url: string): Promise<Load> {
  let bytes = 0;
  const pending: Promise<void>[] = [];
  const onDone = (r: import("playwright-core").Request) =>
    pending.push(r.sizes().then((s) => void (bytes += s.responseBodySize + s.responseHeadersSize)));
  page.on("requestfinished", onDone);
  await page.goto(url, { waitUntil: "load" });
  if (url.includes("/graph")) await page.waitForSelector("#graph[data-ready]");
  const t = await page.evaluate(() => {
    const p = (globalThis as any).performance;
    const nav = p.getEntriesByType("navigation")[0];
    const fcp = p.getEntriesByName("first-contentful-paint")[0];
    return { fcp: fcp ? fcp.startTime : nav.domContentLoadedEventEnd, ttfb: nav.responseStart - nav.requestStart };
  });
  page.off("requestfinished", onDone);
  await Promise.all(pending);
  return { kb: round(bytes / 1024), fcp_ms: round(t.fcp), ttfb_ms: round(t.ttfb) };
}

function summarize(loads: Load[]) {
  const fcp = loads.map((l) => l.fcp_ms);
  const ttfb = loads.map((l) => l.ttfb_ms);
  return {
    kb: loads[0].kb,
    fcp_p50: round(median(fcp)),
    fcp_max: round(Math.max(...fcp)),
    ttfb_p50: round(median(ttfb)),
  };
}

/** The ui benchmark (see module doc). */
export const uiBench: Benchmark = {
  name: "ui",
  description:
    "admin page over 100k atoms in chromium: KB transferred, first contentful paint of overview, search, graph",
  async run(): Promise<BenchOutcome> {
    if (!existsSync(CHROMIUM))
      return { params: { skipped: `${CHROMIUM} is missing (apt-get install -y chromium)` }, results: {}, summary: [] };
    setLogLevel("warn");
    const { texts } = buildAtomTexts(ATOMS);
    const dir = tempDir("ui");
    const s = await pgliteServices(dir);
    const profile = tempDir("ui-chromium");
    try {
      const load = await loadAtoms(s.services, texts, 0, ATOMS);
      const app = new Hono().route("/ui", createUiApp({ services: async () => s.services }));
      const l = listen({ hostname: "127.0.0.1", port: 0, fetch: app.fetch });
      const ctx = await chromium.launchPersistentContext(profile, {
        executablePath: CHROMIUM,
        headless: true,
        args: FLAGS,
        viewport: { width: 1366, height: 900 },
      });
      try {
        const page = await ctx.newPage();
        // Routing every request through Playwright turns the HTTP and memory caches off: each load fetches everything.
        await page.route("**/*", (r) => r.continue());
        const base = `${l.url}/ui`;
        const first = await measure(page, base);
        const [hit] = await s.services.atomReads.atomsByIds([1], 0);
        const pages: Record<string, string> = {
          overview: base,
          search: `${base}/search?q=${encodeURIComponent("vitamin D deficiency and bone density")}`,
          graph: `${base}/graph?node=atom:${hit?.id ?? 1}`,
        };
        const results: Record<string, ReturnType<typeof summarize>> = {};
        for (const [name, url] of Object.entries(pages)) {
          const loads: Load[] = [];
          for (let i = 0; i < RUNS; i++) loads.push(await measure(page, url));
          results[name] = summarize(loads);
        }
        const summary: SummaryRow[] = [
          {
            metric: "first overview after opening (includes the first index catch-up), 100k atoms",
            value: first.fcp_ms,
            unit: "ms",
          },
          ...Object.entries(results).flatMap(([name, r]) => [
            { metric: `${name}: KB transferred, cache disabled`, value: r.kb, unit: "KB" },
            {
              metric: `${name}: first contentful paint p50 / max, 100k atoms`,
              value: `${r.fcp_p50} / ${r.fcp_max}`,
              unit: "ms",
            },
          ]),
        ];
        return {
          params: {
            atoms: ATOMS,
            runs_per_page: RUNS,
            browser: "Debian chromium, headless, caches off (every request routed)",
            load_ms: round(load.ms),
            pages,
          },
          results: { first_overview: first, ...results },
          summary,
        };
      } finally {
        await ctx.close();
        await l.stop(true);
      }
    } finally {
      await s.dispose();
      removeDir(dir);
      removeDir(profile);
    }
  },
};
