/**
 * The shape of a time-expression rule and the helpers rules share: a regex between word boundaries (Cyrillic
 * included, which `\b` ignores) and how its match becomes an event time, given the reference date (observed_at).
 */
import { daysInMonth, type EventTime, periodOf } from "./atom-time.ts";

/** One kind of time expression: `re` finds it, `make` dates it (null: not a date after all, or no reference). */
export interface TimeRule {
  re: RegExp;
  /** True when the expression needs the reference date ("yesterday"), false when it dates itself ("in 1998"). */
  relative: boolean;
  make(m: RegExpExecArray, ref: Date | undefined): EventTime | null;
}

/** A rule's regex: `source` between letter/digit boundaries, global, case-insensitive, Unicode. */
export function wordRe(source: string): RegExp {
  return new RegExp(`(?<![\\p{L}\\p{N}])(?:${source})(?![\\p{L}\\p{N}])`, "giu");
}

/** The day `d` of `month` (1..12) of `year` as an event time; null when no such day. */
export function dayEvent(year: number, month: number, d: number): EventTime | null {
  if (!(month >= 1 && month <= 12) || !(d >= 1 && d <= daysInMonth(year, month))) return null;
  return periodOf(new Date(Date.UTC(year, month - 1, d)), "day");
}

/** The month (1..12) of `year` as an event time; null when out of range. */
export function monthEvent(year: number, month: number): EventTime | null {
  return month >= 1 && month <= 12 ? periodOf(new Date(Date.UTC(year, month - 1, 1)), "month") : null;
}

/** The year as an event time, for plausible years (1000..2199) only, so that "in 3000 steps" is no date. */
export function yearEvent(year: number): EventTime | null {
  return year >= 1000 && year <= 2199 ? periodOf(new Date(Date.UTC(year, 0, 1)), "year") : null;
}

/**
 * The year a yearless month (and day) most likely means: of the year before, the same and the next as `ref`, the
 * one nearest `ref`, the past winning a tie (speakers mostly report what was).
 */
export function nearestYear(ref: Date, month: number, day = 1): number {
  const y = ref.getUTCFullYear();
  let best = y;
  let bestGap = Number.POSITIVE_INFINITY;
  for (const c of [y - 1, y, y + 1]) {
    const gap =
      Math.abs(Date.UTC(c, month - 1, day) - ref.getTime()) + (Date.UTC(c, month - 1, day) > ref.getTime() ? 1 : 0);
    if (gap < bestGap) [best, bestGap] = [c, gap];
  }
  return best;
}

/** English month names are capitalised; a lower-case "may" or "march" is a verb. */
export function isEnglishMonthWord(word: string): boolean {
  return /^[A-Z]/.test(word) || !/^[a-z]/i.test(word);
}
