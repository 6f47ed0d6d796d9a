/**
 * quantities (issue 24 item 1): how right the measurement extractor (src/domain/quantity/extract.ts) is on the
 * labelled quantity set (tests/quantity/quantity-set.jsonl: sentences of the fixture PDFs, HTML pages, Botchan and
 * Chekhov, Russian and English, check half frozen by hash before any rule existed). A found measurement is right
 * when its canonical unit and canonical value (or both ends of a range, relative difference ≤ 1e-6) equal a labelled
 * one's, converted through the unit table, and its subject phrase holds every word of the labelled `what` (a word
 * of the subject starting with it: «точност» matches «точность», "delay" matches "delays"). Precision and recall
 * per half and per half × language; also the figures without the subject (value and unit only) and the CPU time
 * per sentence. `QUANTITIES_SHOW=tune` prints the tune half's errors for tuning.
 */
import { extractQuantities, type Quantity } from "../../src/domain/quantity/extract.ts";
import { toCanonical, unitBySymbol } from "../../src/domain/quantity/units.ts";
import { type LabelledQuantity, QUANTITY_SET, type QuantityItem } from "../../tests/quantity/quantity-set.ts";
import type { Benchmark, BenchOutcome, SummaryRow } from "../lib/report.ts";

/** Counts of one group of sentences. */
interface Tally {
  sentences: number;
  gold: number;
  found: number;
  right: number;
  valueRight: number;
}

const r3 = (x: number) => Math.round(x * 1000) / 1000;
const ratio = (a: number, b: number) => (b === 0 ? 1 : a / b);
const fold = (s: string) => s.toLowerCase().replace(/ё/g, "е");

/** A labelled quantity's canonical low, high and unit. @throws Error when its unit is not in the table. */
export function goldCanonical(q: LabelledQuantity): { low: number; high: number; unit: string } {
  const [num, den] = q.unit.split("/");
  const n = unitBySymbol(num);
  const d = den ? unitBySymbol(den) : undefined;
  if (!n || (den && !d)) throw new Error(`quantity-set unit '${q.unit}' is not in the unit table`);
  const conv = (v: number) => toCanonical(v, n) / (d ? d.factor : 1);
  const low = conv(q.value ?? q.low ?? 0);
  const high = conv(q.value ?? q.high ?? 0);
  return { low, high, unit: d ? `${n.canonical}/${d.canonical}` : n.canonical };
}

const close = (a: number, b: number) => Math.abs(a - b) <= 1e-6 * Math.max(1, Math.abs(a), Math.abs(b));

function sameValue(f: Quantity, g: LabelledQuantity): boolean {
  const c = goldCanonical(g);
  return f.canonicalUnit === c.unit && close(f.canonicalLow, c.low) && close(f.canonicalHigh, c.high);
}

function sameWhat(f: Quantity, g: LabelledQuantity): boolean {
  const subject = fold(f.subject).split(/[^\p{L}\p{N}]+/u);
  return fold(g.what)
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean)
    .every((w) => subject.some((s) => s.startsWith(w)));
}

/** Adds one sentence's comparison to `t`; returns the error lines (for QUANTITIES_SHOW). */
function compare(it: QuantityItem, found: readonly Quantity[], t: Tally): string[] {
  const errors: string[] = [];
  t.sentences++;
  t.gold += it.quantities.length;
  t.found += found.length;
  const usedAll = new Set<Quantity>();
  const usedValue = new Set<Quantity>();
  for (const g of it.quantities) {
    const v = found.find((f) => !usedValue.has(f) && sameValue(f, g));
    if (v) {
      usedValue.add(v);
      t.valueRight++;
    }
    const f = found.find((x) => !usedAll.has(x) && sameValue(x, g) && sameWhat(x, g));
    if (f) {
      usedAll.add(f);
      t.right++;
    } else if (v) errors.push(`  what  ${g.quote}: «${v.subject}» ≠ ${g.what}`);
    else errors.push(`  miss  ${g.quote} (${g.value ?? `${g.low}..${g.high}`} ${g.unit}, ${g.what})`);
  }
  for (const f of found)
    if (!usedAll.has(f) && !usedValue.has(f)) errors.push(`  extra ${f.quote} → ${f.canonicalLow} ${f.canonicalUnit}`);
  return errors;
}

function scores(t: Tally) {
  const precision = ratio(t.right, t.found);
  const recall = ratio(t.right, t.gold);
  return {
    sentences: t.sentences,
    gold: t.gold,
    found: t.found,
    precision: r3(precision),
    recall: r3(recall),
    f1: r3(precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall)),
    value_unit_precision: r3(ratio(t.valueRight, t.found)),
    value_unit_recall: r3(ratio(t.valueRight, t.gold)),
  };
}

/** Runs the extractor over the set; tallies per half and per half × language; CPU microseconds per sentence. */
export function measureQuantities(show?: string) {
  const tallies = new Map<string, Tally>();
  const tally = (k: string) =>
    tallies.get(k) ?? tallies.set(k, { sentences: 0, gold: 0, found: 0, right: 0, valueRight: 0 }).get(k)!;
  const shown: string[] = [];
  const cpu0 = process.cpuUsage();
  const results = QUANTITY_SET.map((it) => extractQuantities(it.text, it.lang));
  const cpu = process.cpuUsage(cpu0);
  QUANTITY_SET.forEach((it, i) => {
    const errors = compare(it, results[i], tally(it.half));
    compare(it, results[i], tally(`${it.half}.${it.lang}`));
    if (show === it.half && errors.length) shown.push(`${it.id}: ${it.text.slice(0, 110)}`, ...errors);
  });
  const groups: Record<string, ReturnType<typeof scores>> = {};
  for (const k of ["tune", "check", "tune.en", "tune.ru", "check.en", "check.ru"]) groups[k] = scores(tally(k));
  return { groups, cpuUsPerSentence: Math.round((cpu.user + cpu.system) / QUANTITY_SET.length), shown };
}

async function run(): Promise<BenchOutcome> {
  const { groups, cpuUsPerSentence, shown } = measureQuantities(process.env.QUANTITIES_SHOW);
  if (shown.length) process.stderr.write(`${shown.join("\n")}\n`);
  const c = groups.check;
  const t = groups.tune;
  const pr = (k: string) => `${groups[k].precision} / ${groups[k].recall}`;
  const summary: SummaryRow[] = [
    { metric: "quantities, check half: precision (value + unit + what)", value: c.precision, target: "≥ 0.9" },
    { metric: "quantities, check half: recall (value + unit + what)", value: c.recall, target: "≥ 0.9" },
    { metric: "quantities, check half, ru: precision / recall", value: pr("check.ru") },
    { metric: "quantities, check half, en: precision / recall", value: pr("check.en") },
    {
      metric: "quantities, check half: precision / recall of value + unit alone",
      value: `${c.value_unit_precision} / ${c.value_unit_recall}`,
    },
    { metric: "quantities, tune half: precision / recall", value: `${t.precision} / ${t.recall}` },
    { metric: "quantity extraction CPU per sentence", value: cpuUsPerSentence, unit: "µs" },
  ];
  return {
    params: {
      set: "tests/quantity/quantity-set.jsonl (check half frozen by hash before any rule existed)",
      sentences: QUANTITY_SET.length,
      quantities: QUANTITY_SET.reduce((n, it) => n + it.quantities.length, 0),
      match: "equal canonical unit and value (range ends), subject holding every word of the labelled what",
    },
    results: { ...groups, cpu_us_per_sentence: cpuUsPerSentence },
    summary,
  };
}

/** The quantity extraction benchmark. */
export const quantitiesBench: Benchmark = {
  name: "quantities",
  description: "measurement precision/recall of (value, unit, what was measured) on the labelled set (issue 24)",
  run,
};
