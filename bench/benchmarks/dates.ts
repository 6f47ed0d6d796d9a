/**
 * dates: the time-expression extractor (src/domain/time) on the labelled date set of issue 22
 * (tests/time/date-set.jsonl: LoCoMo dialogue turns with their session's date, written Russian cases): the share of
 * cases whose phrase it dates exactly as labelled (start, end and granularity; nothing for a vague phrase), on the
 * tune half and on the check half frozen by hash before tuning, per language, and its CPU time per case.
 */
import { bootstrapMean } from "../lib/split.ts";
import type { Benchmark, BenchOutcome } from "../lib/report.ts";
import { round } from "../lib/stats.ts";
import {
  CHECK_DIGEST,
  checkDigest,
  DATE_SET,
  type DateCase,
  exact,
  extracted,
  FIRST_CHECK,
} from "../../tests/time/date-set.ts";

function score(cases: DateCase[]) {
  const hits = cases.map((c) => (exact(c) ? 1 : 0));
  const ci = bootstrapMean(hits);
  return {
    cases: cases.length,
    exact: hits.reduce((a: number, b) => a + b, 0),
    exact_share: round(ci.mean, 3),
    ci95: [round(ci.low, 3), round(ci.high, 3)],
  };
}

/** The dates benchmark (see module doc). */
export const datesBench: Benchmark = {
  name: "dates",
  description: "time expressions (en/ru, relative resolved against observed_at): exact-match share on the date set",
  async run(): Promise<BenchOutcome> {
    if (checkDigest() !== CHECK_DIGEST || checkDigest(FIRST_CHECK.lines) !== FIRST_CHECK.digest)
      throw new Error("the check half of tests/time/date-set.jsonl was edited");
    const halves = {
      tune: DATE_SET.filter((c) => c.half === "tune"),
      check: DATE_SET.filter((c) => c.half === "check"),
    };
    const byLang = (cs: DateCase[]) => ({
      en: score(cs.filter((c) => c.lang === "en")),
      ru: score(cs.filter((c) => c.lang === "ru")),
    });
    const cpu0 = process.cpuUsage();
    const rounds = 20;
    for (let r = 0; r < rounds; r++) for (const c of DATE_SET) extracted(c);
    const cpu = process.cpuUsage(cpu0);
    const usPerCase = (cpu.user + cpu.system) / (rounds * DATE_SET.length);
    const tune = score(halves.tune);
    const check = score(halves.check);
    return {
      params: {
        set: "tests/time/date-set.jsonl",
        split: "bench/lib/split.ts hash of the case id; check half digest pinned in tests/time/date-set.ts",
        exact: "the expression overlapping the labelled phrase has the labelled start, end and granularity (or none)",
      },
      results: {
        tune: { ...tune, by_lang: byLang(halves.tune) },
        check: { ...check, by_lang: byLang(halves.check) },
        misses_tune: halves.tune
          .filter((c) => !exact(c))
          .map((c) => ({ id: c.id, phrase: c.phrase, expect: c.expect, got: extracted(c) })),
        cpu_us_per_case: round(usPerCase, 1),
      },
      summary: [
        {
          metric: `Dates exact match, check half (${check.cases} cases, en+ru, frozen before tuning)`,
          value: check.exact_share,
          target: "≥ 0.9",
        },
        { metric: `Dates exact match, tune half (${tune.cases} cases)`, value: tune.exact_share },
        { metric: "Date extraction CPU per case", value: round(usPerCase, 1), unit: "µs" },
      ],
    };
  },
};
