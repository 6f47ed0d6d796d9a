/**
 * supersession (issue 22 item 4): how right the supersession rule (domain/supersession) is on the labelled set
 * (tests/supersession/cases.jsonl: dated pairs, English and Russian, from LoCoMo dev turns and written edge cases).
 * Each pair is decided with its observed (and, where given, event) dates; a decision counts as right when it names
 * the label's direction (`supersede`: b replaces a; `reverse`: a replaces b, b telling of an older time) or says
 * none for a `none`. Precision and recall of the superseding decisions on the tune half and on the check half,
 * frozen by hash before the rules were tuned; the wrong decisions are listed for review.
 */
import { decideSupersession, type SupersessionOutcome } from "../../src/domain/supersession/decide.ts";
import { type CaseLabel, loadCases, type SupersessionCase } from "../../tests/supersession/case-set.ts";
import type { Benchmark, BenchOutcome, SummaryRow } from "../lib/report.ts";

const EXPECTED: Record<CaseLabel, SupersessionOutcome> = {
  supersede: "b_supersedes_a",
  reverse: "a_supersedes_b",
  none: "none",
};

/** Precision and recall of the superseding decisions of one half, and its wrong decisions. */
export interface HalfScore {
  cases: number;
  positives: number;
  negatives: number;
  precision: number | null;
  recall: number | null;
  wrong: Array<{ a: string; b: string; label: CaseLabel; got: SupersessionOutcome }>;
}

/** Scores the cases of one half. */
export function scoreCases(cases: SupersessionCase[]): HalfScore {
  let predicted = 0;
  let right = 0;
  const wrong: HalfScore["wrong"] = [];
  for (const c of cases) {
    const got = decideSupersession(
      { text: c.a.text, observedAt: c.a.observed_at, eventAt: c.a.event_at },
      { text: c.b.text, observedAt: c.b.observed_at, eventAt: c.b.event_at },
    ).outcome;
    if (got !== "none") predicted++;
    if (got !== "none" && got === EXPECTED[c.label]) right++;
    if (got !== EXPECTED[c.label]) wrong.push({ a: c.a.text, b: c.b.text, label: c.label, got });
  }
  const positives = cases.filter((c) => c.label !== "none").length;
  return {
    cases: cases.length,
    positives,
    negatives: cases.length - positives,
    precision: predicted ? right / predicted : null,
    recall: positives ? right / positives : null,
    wrong,
  };
}

const fmt = (x: number | null) => (x === null ? "—" : x.toFixed(3));

function row(name: string, s: HalfScore, target?: string): SummaryRow {
  return {
    metric: `supersession set, ${name} half (${s.cases} pairs, ${s.negatives} negatives): precision / recall`,
    value: `${fmt(s.precision)} / ${fmt(s.recall)}`,
    target,
  };
}

/** The supersession benchmark (see module doc). */
export const supersessionBench: Benchmark = {
  name: "supersession",
  description: "supersession rule: precision/recall on the labelled dated pairs (tune and frozen check half)",
  async run(): Promise<BenchOutcome> {
    const cases = loadCases();
    const check = scoreCases(cases.filter((c) => c.half === "check"));
    const tune = scoreCases(cases.filter((c) => c.half === "tune"));
    return {
      params: {
        cases: cases.length,
        languages: { en: cases.filter((c) => c.lang === "en").length, ru: cases.filter((c) => c.lang === "ru").length },
        origins: {
          locomo: cases.filter((c) => c.origin === "locomo").length,
          written: cases.filter((c) => c.origin === "written").length,
        },
        split:
          'SHA-256 of "pegas-supersession-v1:" + a + "|" + b, first byte even = tune (tests/supersession/case-set.ts)',
      },
      results: { check, tune },
      summary: [row("check", check, "≥ 0.9 / ≥ 0.9"), row("tune", tune)],
    };
  },
};
