/**
 * dedup_store: `storeAtom` (memory_store: embed → catch-up of the in-process indexes → `findDuplicates` → one
 * transactional write) at 100k stored atoms, on embedded PGlite and, when a server answers, on PostgreSQL. The
 * 100k atoms are SciFact sentences, pairs and triples with embeddings, bulk-loaded as search_latency loads them
 * (bench/lib/synthetic-atoms.ts); then N stores of a fixed mix (bench/lib/store-mix.ts: new facts, near-identical
 * restatements, negated and re-numbered versions of stored atoms, exact repeats) are timed one by one, after a
 * few untimed warm-up stores of new facts. Nothing is asserted: outcomes (merged / contradicts / created /
 * existing) are counted per kind built.
 *
 * Time split, measured in the same calls: the services handed to `storeAtom` time their `embedDocuments`,
 * `projection.sync` and `store.storeAtom` (the write); findDuplicates is the rest of the call. Cross-check: right
 * before each store, the same draft is embedded and `findDuplicates` is timed directly on it (same stored state;
 * it warms the caches the store then reads). `PEGAS_BENCH_QUICK=1`: 10k atoms and fewer stores.
 */
import { loadavg } from "node:os";
import { draftAtom } from "../../src/core/knowledge/atoms.ts";
import { findDuplicates } from "../../src/core/knowledge/dedup.ts";
import type { Services } from "../../src/core/services.ts";
import { type StoreResult, storeAtom } from "../../src/core/knowledge/store-atom.ts";
import { setLogLevel } from "../../src/log.ts";
import { type BenchServices, pgliteServices, postgresServices, PG_URL } from "../lib/env.ts";
import type { Benchmark, BenchOutcome, SummaryRow } from "../lib/report.ts";
import { round, summarize } from "../lib/stats.ts";
import { buildMix, inputOf, type MixItem, type MixKind } from "../lib/store-mix.ts";
import { buildAtomTexts, loadAtoms, PLAN_ATOMS } from "../lib/synthetic-atoms.ts";

const QUICK = process.env.PEGAS_BENCH_QUICK === "1";
/** Atoms stored before the timed stores. */
const SCALE = QUICK ? 10_000 : 100_000;
/** Timed stores per kind (restatement, negated, renumbered, exact: derived from stored atoms). */
const COUNTS: Record<MixKind, number> = QUICK
  ? { new: 15, restatement: 15, negated: 8, renumbered: 7, exact: 15 }
  : { new: 75, restatement: 75, negated: 38, renumbered: 37, exact: 75 };
/** Untimed stores of new facts first (JIT, connection and cache warm-up). */
const WARMUP = 10;

type Outcome = "merged" | "contradicts" | "created" | "existing";
/** The outcome each kind was built for; other outcomes are listed (a few examples per kind), not failed. */
const BUILT_FOR: Record<MixKind, Outcome> = {
  new: "created",
  restatement: "merged",
  negated: "contradicts",
  renumbered: "contradicts",
  exact: "existing",
};

/** One timed store, in ms. */
interface StoreSample {
  kind: MixKind;
  outcome: Outcome;
  claim: string;
  total: number;
  embed: number;
  sync: number;
  write: number;
  dedup: number;
  directFind: number;
  directEmbed: number;
}

/** A proxy of `target` whose method `method` adds its wall time to `acc.ms`; other members pass through. */
function timed<T extends object>(target: T, method: string, acc: { ms: number }): T {
  return new Proxy(target, {
    get(t, p) {
      const v = Reflect.get(t, p, t);
      if (typeof v !== "function") return v;
      if (p !== method) return v.bind(t);
      return async (...args: unknown[]) => {
        const t0 = performance.now();
        try {
          return await v.apply(t, args);
        } finally {
          acc.ms += performance.now() - t0;
        }
      };
    },
  });
}

function outcomeOf(r: StoreResult): Outcome {
  if (r.merge) return "merged";
  if (!r.created) return "existing";
  return r.contradicts.length ? "contradicts" : "created";
}

/** Embeds the item's draft and times `findDuplicates` on it (no write). */
async function direct(services: Services, item: MixItem): Promise<{ embed: number; find: number }> {
  const { input } = item;
  const draft = draftAtom({
    type: input.type,
    claim: input.claim,
    content: input.content ?? input.claim,
    confidence: 0.5,
    metadata: { source: "agent" },
  });
  const t0 = performance.now();
  const [vector] = await services.embedder.embedDocuments([draft.searchText]);
  const t1 = performance.now();
  await findDuplicates(services, [{ ...draft, vector }]);
  return { embed: t1 - t0, find: performance.now() - t1 };
}

/** Times one store through instrumented services (see module doc). */
async function timedStore(services: Services, item: MixItem): Promise<StoreSample> {
  const d = await direct(services, item);
  const acc = { embed: { ms: 0 }, sync: { ms: 0 }, write: { ms: 0 } };
  const s: Services = {
    ...services,
    embedder: timed(services.embedder, "embedDocuments", acc.embed),
    projection: timed(services.projection, "sync", acc.sync),
    atomWrites: timed(services.atomWrites, "storeAtom", acc.write),
  };
  const t0 = performance.now();
  const r = await storeAtom(s, item.input);
  const total = performance.now() - t0;
  const [embed, sync, write] = [acc.embed.ms, acc.sync.ms, acc.write.ms];
  return {
    kind: item.kind,
    outcome: outcomeOf(r),
    claim: item.input.claim,
    total,
    embed,
    sync,
    write,
    dedup: total - embed - sync - write,
    directFind: d.find,
    directEmbed: d.embed,
  };
}

function sum(xs: number[]): number {
  return xs.reduce((a, b) => a + b, 0);
}

function digest(samples: StoreSample[]) {
  const totalMs = sum(samples.map((s) => s.total));
  const part = (k: "embed" | "sync" | "dedup" | "write") => {
    const ms = sum(samples.map((s) => s[k]));
    return { sum_ms: round(ms), share: round(ms / totalMs, 3), ...summarize(samples.map((s) => s[k])) };
  };
  const outcomes: Record<string, Record<Outcome, number>> = {};
  for (const s of samples) {
    outcomes[s.kind] ??= { merged: 0, contradicts: 0, created: 0, existing: 0 };
    outcomes[s.kind][s.outcome]++;
  }
  const totals = { merged: 0, contradicts: 0, created: 0, existing: 0 };
  for (const s of samples) totals[s.outcome]++;
  const perKind = Object.fromEntries(
    Object.keys(COUNTS).map((k) => [k, summarize(samples.filter((s) => s.kind === k).map((s) => s.total))]),
  );
  const find = sum(samples.map((s) => s.directFind));
  const other = samples.filter((s) => s.outcome !== BUILT_FOR[s.kind]);
  const otherExamples = Object.keys(COUNTS).flatMap((k) =>
    other
      .filter((s) => s.kind === k)
      .slice(0, 3)
      .map((s) => ({ kind: s.kind, outcome: s.outcome, claim: s.claim.slice(0, 160) })),
  );
  return {
    stores: samples.length,
    stores_per_s: round(samples.length / (totalMs / 1000)),
    latency_ms: summarize(samples.map((s) => s.total)),
    latency_ms_by_kind: perKind,
    outcomes: totals,
    outcomes_by_kind: outcomes,
    built_for: BUILT_FOR,
    other_outcomes: { count: other.length, examples: otherExamples },
    split: { embed: part("embed"), sync: part("sync"), find_duplicates: part("dedup"), write: part("write") },
    direct_find_duplicates: {
      sum_ms: round(find),
      share_of_store_time: round(find / totalMs, 3),
      ...summarize(samples.map((s) => s.directFind)),
    },
    direct_embed: summarize(samples.map((s) => s.directEmbed)),
  };
}

async function measure(open: () => Promise<BenchServices | string>, texts: string[], mix: MixItem[], warm: MixItem[]) {
  const s = await open();
  if (typeof s === "string") return s;
  try {
    const load = await loadAtoms(s.services, texts, 0, SCALE);
    const t0 = performance.now();
    await s.services.projection.sync();
    const firstSync = performance.now() - t0;
    for (const w of warm) await timedStore(s.services, w);
    const samples: StoreSample[] = [];
    for (const item of mix) samples.push(await timedStore(s.services, item));
    return { load_ms: round(load.ms), atoms_loaded: load.created, first_sync_ms: round(firstSync), ...digest(samples) };
  } finally {
    await s.dispose();
  }
}

function rows(backend: string, r: ReturnType<typeof digest>): SummaryRow[] {
  const n = `${SCALE / 1000}k atoms, ${backend}`;
  const sp = r.split;
  const pct = (x: number) => `${round(x * 100)}%`;
  const o = r.outcomes;
  return [
    {
      metric: `memory_store through dedup, ${n}`,
      value: `${r.stores_per_s} stores/s, p50 ${r.latency_ms.median} / p95 ${r.latency_ms.p95} ms`,
    },
    {
      metric: `store time split (embed / catch-up / findDuplicates / write), ${n}`,
      value: `${pct(sp.embed.share)} / ${pct(sp.sync.share)} / ${pct(sp.find_duplicates.share)} / ${pct(sp.write.share)}`,
    },
    {
      metric: `findDuplicates alone p50 / p95 (direct), ${n}`,
      value: `${r.direct_find_duplicates.median} / ${r.direct_find_duplicates.p95}`,
      unit: "ms",
    },
    {
      metric: `outcomes of ${r.stores} stores, ${n}`,
      value: `merged ${o.merged}, contradicts ${o.contradicts}, created ${o.created}, existing ${o.existing}`,
    },
  ];
}

/** The dedup-store benchmark (see module doc). */
export const dedupStoreBench: Benchmark = {
  name: "dedup_store",
  description:
    "memory_store throughput through dedup at 100k atoms (stores/s, p50/p95, time split, outcomes), PGlite and PostgreSQL",
  async run(): Promise<BenchOutcome> {
    setLogLevel("warn");
    const loadAtStart = loadavg().map((x) => round(x, 2)); // other work on the machine shows in the numbers
    const stores = Object.values(COUNTS).reduce((a, b) => a + b, 0);
    const t0 = performance.now();
    const { texts, kinds } = buildAtomTexts(SCALE + WARMUP + COUNTS.new);
    const buildMs = performance.now() - t0;
    const stored = texts.slice(0, SCALE);
    const warm = texts.slice(SCALE, SCALE + WARMUP).map((t) => ({ kind: "new" as const, input: inputOf(t) }));
    const mix = buildMix(stored, texts.slice(SCALE + WARMUP), COUNTS);
    const backends: Array<[string, () => Promise<BenchServices | string>]> = [
      ["pglite", () => pgliteServices()],
      ["postgres", () => postgresServices()],
    ];
    const results: Record<string, unknown> = {};
    const summary: SummaryRow[] = [];
    const notes: string[] = [];
    for (const [backend, open] of backends) {
      const r = await measure(open, stored, mix, warm);
      if (typeof r === "string") {
        results[backend] = { skipped: r };
        notes.push(`${backend} skipped: ${r}`);
        continue;
      }
      results[backend] = r;
      summary.push(...rows(backend, r));
    }
    return {
      params: {
        quick: QUICK,
        loadavg_at_start: loadAtStart,
        atoms_stored: SCALE,
        stores,
        mix: COUNTS,
        warmup_stores: WARMUP,
        embedder: "local default (lexical)",
        postgres_url: PG_URL,
        atoms: {
          source: "../shared/bench/scifact/corpus.jsonl via bench/lib/synthetic-atoms.ts",
          ...kinds,
          shuffled_seed: 42,
          plan_atoms: PLAN_ATOMS,
          build_ms: round(buildMs),
        },
        timed:
          "each storeAtom call alone (sequential); split by timing embedDocuments, projection.sync and store.storeAtom inside it, findDuplicates = the rest",
        direct_find_duplicates:
          "findDuplicates on the same draft right before its store (same state; warms the caches the store then reads)",
      },
      results,
      summary,
      notes,
    };
  },
};
