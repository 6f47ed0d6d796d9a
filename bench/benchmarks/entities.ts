/**
 * entities (issue 22 item 4): how right the heuristic mention extractor (src/domain/entities/mentions.ts) is on the
 * labelled mention set (tests/entities/mention-set.jsonl: sentences of the fixtures and LoCoMo, Russian and English,
 * check half frozen by hash before tuning). A found mention is right when its span is exactly a labelled one and
 * its key equals the key of the labelled name (so «Андрею Ефимычу» must come back as «Андрей Ефимыч»); precision and
 * recall over mentions, kind accuracy over the right ones, on each half and per language; also span-only figures
 * (key ignored) and the CPU time per text. `ENTITIES_SHOW=tune` prints the tune half's errors for tuning.
 */
import { extractMentions } from "../../src/domain/entities/mentions.ts";
import { nameKey } from "../../src/domain/entities/names.ts";
import type { EntityMention } from "../../src/domain/entities/types.ts";
import { MENTION_SET, type MentionItem } from "../../tests/entities/mention-set.ts";
import type { Benchmark, BenchOutcome, SummaryRow } from "../lib/report.ts";

/** Counts of one group of texts. */
interface Tally {
  texts: number;
  gold: number;
  found: number;
  right: number;
  spanRight: number;
  kindRight: number;
  /** Texts with no labelled mention where something was found. */
  falseOnEmpty: number;
}

/** Precision, recall and kind accuracy of a tally (3 decimals). */
interface Scores {
  texts: number;
  gold: number;
  found: number;
  precision: number;
  recall: number;
  f1: number;
  span_precision: number;
  span_recall: number;
  kind_accuracy: number;
  false_on_empty: number;
}

const r3 = (x: number) => Math.round(x * 1000) / 1000;
const ratio = (a: number, b: number) => (b === 0 ? 1 : a / b);

function empty(): Tally {
  return { texts: 0, gold: 0, found: 0, right: 0, spanRight: 0, kindRight: 0, falseOnEmpty: 0 };
}

/** Adds one text's comparison to `t`; returns the error lines (for ENTITIES_SHOW). */
function compare(it: MentionItem, found: readonly EntityMention[], t: Tally): string[] {
  const errors: string[] = [];
  t.texts++;
  t.gold += it.mentions.length;
  t.found += found.length;
  if (it.mentions.length === 0 && found.length > 0) t.falseOnEmpty++;
  const matched = new Set<EntityMention>();
  for (const g of it.mentions) {
    const end = g.start + g.surface.length;
    const f = found.find((m) => m.start === g.start && m.end === end);
    if (!f) {
      errors.push(`  miss  ${g.surface} [${g.kind}]`);
      continue;
    }
    matched.add(f);
    t.spanRight++;
    if (f.key !== nameKey(g.name)) {
      errors.push(`  name  ${g.surface}: ${f.name} ≠ ${g.name}`);
      continue;
    }
    t.right++;
    if (f.kind === g.kind) t.kindRight++;
    else errors.push(`  kind  ${g.surface}: ${f.kind} ≠ ${g.kind}`);
  }
  for (const f of found) if (!matched.has(f)) errors.push(`  extra ${f.surface} → ${f.name} [${f.kind}]`);
  return errors;
}

function scores(t: Tally): Scores {
  const precision = ratio(t.right, t.found);
  const recall = ratio(t.right, t.gold);
  return {
    texts: t.texts,
    gold: t.gold,
    found: t.found,
    precision: r3(precision),
    recall: r3(recall),
    f1: r3(precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall)),
    span_precision: r3(ratio(t.spanRight, t.found)),
    span_recall: r3(ratio(t.spanRight, t.gold)),
    kind_accuracy: r3(ratio(t.kindRight, t.right)),
    false_on_empty: t.falseOnEmpty,
  };
}

/** Runs the extractor over the set; tallies per half and per half × language; CPU microseconds per text. */
function measure(): { groups: Record<string, Scores>; cpuUsPerText: number; shown: string[] } {
  const tallies = new Map<string, Tally>();
  const tally = (k: string) => tallies.get(k) ?? tallies.set(k, empty()).get(k)!;
  const shown: string[] = [];
  const show = process.env.ENTITIES_SHOW;
  const cpu0 = process.cpuUsage();
  const results = MENTION_SET.map((it) => extractMentions(it.text, it.lang));
  const cpu = process.cpuUsage(cpu0);
  MENTION_SET.forEach((it, i) => {
    const errors = compare(it, results[i], tally(it.half));
    compare(it, results[i], tally(`${it.half}.${it.lang}`));
    if (show === it.half && errors.length) shown.push(`${it.id}: ${it.text.slice(0, 100)}`, ...errors);
  });
  const groups: Record<string, Scores> = {};
  for (const k of ["tune", "check", "tune.en", "tune.ru", "check.en", "check.ru"]) groups[k] = scores(tally(k));
  return { groups, cpuUsPerText: Math.round((cpu.user + cpu.system) / MENTION_SET.length), shown };
}

async function run(): Promise<BenchOutcome> {
  const { groups, cpuUsPerText, shown } = measure();
  if (shown.length) process.stderr.write(`${shown.join("\n")}\n`);
  const c = groups.check;
  const t = groups.tune;
  const summary: SummaryRow[] = [
    { metric: "entity mentions, check half: precision (span + name key)", value: c.precision, target: "≥ 0.9" },
    { metric: "entity mentions, check half: recall (span + name key)", value: c.recall, target: "≥ 0.9" },
    { metric: "entity mentions, check half: kind accuracy of right mentions", value: c.kind_accuracy },
    {
      metric: "entity mentions, check half, ru: precision / recall",
      value: `${groups["check.ru"].precision} / ${groups["check.ru"].recall}`,
    },
    {
      metric: "entity mentions, check half, en: precision / recall",
      value: `${groups["check.en"].precision} / ${groups["check.en"].recall}`,
    },
    {
      metric: "entity mentions, tune half: precision / recall / kind",
      value: `${t.precision} / ${t.recall} / ${t.kind_accuracy}`,
    },
    { metric: "entity mention extraction CPU per text", value: cpuUsPerText, unit: "µs" },
  ];
  return {
    params: {
      set: "tests/entities/mention-set.jsonl",
      texts: MENTION_SET.length,
      mentions: MENTION_SET.reduce((n, it) => n + it.mentions.length, 0),
      match: "exact span and equal name key; kind compared on right mentions",
    },
    results: { ...groups, cpu_us_per_text: cpuUsPerText },
    summary,
  };
}

/** The mention extraction benchmark. */
export const entitiesBench: Benchmark = {
  name: "entities",
  description: "entity mention precision/recall and kind accuracy on the labelled set (issue 22)",
  run,
};
