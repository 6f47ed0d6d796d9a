/**
 * The `scale` benchmark's curves as an SVG chart (docs/scale.svg, written by scripts/gen-benchmarks.ts from
 * bench/results/scale.json): left, latencies in ms against atoms (search p50 and p95, memory_get_context p50,
 * memory_store p50, search p99 while an ingest runs) with the 50 ms search goal; right, peak RSS and disk in MiB with
 * the 2 GiB embedded RSS goal. Both axes logarithmic, the atoms axis up to 1M (where the goals are set); PGlite
 * solid, PostgreSQL dashed. Plain SVG, no script.
 */
import { atomsLabel, points, type ScalePoint, type ScaleResults } from "./scale-rows.ts";

/** One curve: a name, a colour and how to read its value from a point. */
interface Series {
  name: string;
  color: string;
  value: (p: ScalePoint) => number;
}

const LATENCY: Series[] = [
  { name: "search p50", color: "#1f77b4", value: (p) => p.search.median },
  { name: "search p95", color: "#7fb2dc", value: (p) => p.search.p95 },
  { name: "search p99 during ingest", color: "#d62728", value: (p) => p.under_ingest.search.p99 },
  { name: "get_context p50", color: "#2ca02c", value: (p) => p.get_context.median },
  { name: "store p50", color: "#9467bd", value: (p) => p.store.median },
];

const SIZE: Series[] = [
  { name: "RSS peak", color: "#ff7f0e", value: (p) => p.rss_mb.peak },
  { name: "disk", color: "#8c564b", value: (p) => p.disk_mb },
];

/** The x axis always reaches the goals' atom count. */
const GOAL_ATOMS = 1_000_000;
const W = 420;
const H = 300;
const M = { left: 56, right: 12, top: 28, bottom: 40 };

/** The decades [10^a, 10^b] that hold every positive value of `xs` (at least one decade). */
export function decades(xs: number[]): [number, number] {
  const pos = xs.filter((x) => x > 0 && Number.isFinite(x));
  if (pos.length === 0) return [0, 1];
  const lo = Math.floor(Math.log10(Math.min(...pos)));
  const hi = Math.ceil(Math.log10(Math.max(...pos)));
  return [lo, Math.max(hi, lo + 1)];
}

const esc = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;");

/** One panel at horizontal offset `x0`: axes, decade grid, a goal line, one polyline per series and backend. */
function panel(
  x0: number,
  title: string,
  unit: string,
  series: Series[],
  results: ScaleResults,
  goal: { value: number; label: string },
): string {
  const byBackend = (["pglite", "postgres"] as const).map((b) => [b, points(results, b)] as const);
  const all = byBackend.flatMap(([, ps]) => ps);
  const [xa, xb] = decades([...all.map((p) => p.atoms), GOAL_ATOMS]);
  const [ya, yb] = decades([...all.flatMap((p) => series.map((s) => s.value(p))), goal.value]);
  const pw = W - M.left - M.right;
  const ph = H - M.top - M.bottom;
  const sx = (v: number) => x0 + M.left + ((Math.log10(v) - xa) / (xb - xa)) * pw;
  const sy = (v: number) => M.top + ph - ((Math.log10(Math.max(v, 10 ** ya)) - ya) / (yb - ya)) * ph;
  const out: string[] = [`<text x="${x0 + M.left}" y="16" font-weight="bold">${esc(title)}</text>`];
  for (let d = xa; d <= xb; d++) {
    const x = sx(10 ** d).toFixed(1);
    out.push(`<line x1="${x}" y1="${M.top}" x2="${x}" y2="${M.top + ph}" stroke="#ddd"/>`);
    out.push(`<text x="${x}" y="${M.top + ph + 16}" text-anchor="middle">${atomsLabel(10 ** d)}</text>`);
  }
  for (let d = ya; d <= yb; d++) {
    const y = sy(10 ** d).toFixed(1);
    out.push(`<line x1="${x0 + M.left}" y1="${y}" x2="${x0 + M.left + pw}" y2="${y}" stroke="#ddd"/>`);
    out.push(`<text x="${x0 + M.left - 4}" y="${y}" text-anchor="end" dy="4">${10 ** d}</text>`);
  }
  out.push(
    `<text x="${x0 + M.left + pw / 2}" y="${H - 6}" text-anchor="middle">atoms</text>`,
    `<text x="${x0 + 14}" y="${M.top + ph / 2}" transform="rotate(-90 ${x0 + 14} ${M.top + ph / 2})" text-anchor="middle">${unit}</text>`,
    `<line x1="${x0 + M.left}" y1="${sy(goal.value).toFixed(1)}" x2="${x0 + M.left + pw}" y2="${sy(goal.value).toFixed(1)}" stroke="#000" stroke-dasharray="2 3"/>`,
    `<text x="${x0 + M.left + pw - 2}" y="${(sy(goal.value) - 4).toFixed(1)}" text-anchor="end">${esc(goal.label)}</text>`,
  );
  for (const [backend, ps] of byBackend) {
    for (const s of series) {
      const xy = ps.map((p) => `${sx(p.atoms).toFixed(1)},${sy(s.value(p)).toFixed(1)}`);
      const dash = backend === "postgres" ? ' stroke-dasharray="6 3"' : "";
      if (xy.length > 1) out.push(`<polyline points="${xy.join(" ")}" fill="none" stroke="${s.color}"${dash}/>`);
      for (const c of xy) {
        const [cx, cy] = c.split(",");
        out.push(`<circle cx="${cx}" cy="${cy}" r="2.5" fill="${s.color}"/>`);
      }
    }
  }
  series.forEach((s, i) => {
    const y = M.top + 8 + i * 13;
    const x = x0 + M.left + 6;
    out.push(`<line x1="${x}" y1="${y}" x2="${x + 14}" y2="${y}" stroke="${s.color}" stroke-width="2"/>`);
    out.push(`<text x="${x + 18}" y="${y + 4}">${esc(s.name)}</text>`);
  });
  return out.join("\n");
}

/**
 * The chart (see module doc) of `results` (the `results` of bench/results/scale.json); `caption` (e.g. the machine
 * and date) is written under the panels.
 */
export function scaleChartSvg(results: ScaleResults, caption = ""): string {
  const legend = "PGlite (embedded): solid · PostgreSQL: dashed";
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${2 * W}" height="${H + 36}" viewBox="0 0 ${2 * W} ${H + 36}" font-family="sans-serif" font-size="11" role="img">`,
    `<title>${esc("pegas-memory at scale: search latency, RSS and disk against the number of atoms")}</title>`,
    `<rect width="100%" height="100%" fill="#fff"/>`,
    panel(0, "Latency at scale", "ms", LATENCY, results, { value: 50, label: "goal at 1M: search p50 ≤ 50 ms" }),
    panel(W, "Memory and disk at scale", "MiB", SIZE, results, {
      value: 2048,
      label: "goal at 1M: embedded RSS ≤ 2048 MiB",
    }),
    `<text x="${M.left}" y="${H + 14}">${esc(legend)}</text>`,
    `<text x="${M.left}" y="${H + 28}" fill="#555">${esc(caption)}</text>`,
    "</svg>",
    "",
  ].join("\n");
}
