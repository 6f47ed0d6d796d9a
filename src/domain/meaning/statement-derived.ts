/**
 * Forms of a read statement that pair comparisons need again and again (its rest sorted, its words without
 * immediate repetitions, its word set), derived once per statement and kept as long as the statement is: dedup
 * compares one statement with many others, and building these per pair was most of a comparison's cost. Pure.
 */
import type { Statement } from "./statement.ts";

/** The derived forms of one statement (see module doc). Do not mutate. */
export interface StatementForms {
  /** `rest`, sorted (repetitions kept). */
  sortedRest: readonly string[];
  /** `rest` without immediate repetitions. */
  restRuns: readonly string[];
  /** `words` without immediate repetitions ("грязная, грязная" → "грязная"). */
  wordRuns: readonly string[];
  /** The set of `words`, sorted and joined by NUL: equal keys, equal word sets (no word holds a NUL). */
  wordSet: string;
}

const forms = new WeakMap<Statement, StatementForms>();

/** Collapses immediate repetitions. */
export function dedupeRuns(ws: readonly string[]): string[] {
  return ws.filter((w, i) => i === 0 || ws[i - 1] !== w);
}

/** The derived forms of `s`, computed on first use. */
export function formsOf(s: Statement): StatementForms {
  let f = forms.get(s);
  if (!f) {
    f = {
      sortedRest: [...s.rest].sort(),
      restRuns: dedupeRuns(s.rest),
      wordRuns: dedupeRuns(s.words),
      wordSet: [...new Set(s.words)].sort().join("\u0000"),
    };
    forms.set(s, f);
  }
  return f;
}
