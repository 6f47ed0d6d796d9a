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

/**
 * Season `season` (0 spring, 1 summer, 2 autumn, 3 winter) of `year` as an event time: meteorological seasons of the
 * northern hemisphere, three whole months each — spring March–May, summer June–August, autumn September–November,
 * winter December–February (WMO and national weather services count seasons so; e.g. the UK Met Office,
 * "Meteorological and astronomical seasons"; NOAA NCEI "Meteorological versus astronomical seasons"). A winter is
 * named by the year its January falls in, as NOAA NCEI's seasonal series label it: winter 2024 is Dec 2023–Feb 2024.
 * Granularity `month`: the bounds are whole months (as a weekend is two days of granularity `day`).
 */
export function seasonEvent(year: number, season: number): EventTime | null {
  if (!(season >= 0 && season <= 3) || !(year >= 1000 && year <= 2199)) return null;
  const first = season === 3 ? Date.UTC(year - 1, 11, 1) : Date.UTC(year, 2 + 3 * season, 1);
  const start = new Date(first);
  const end = new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + 3, 1));
  return { start: start.toISOString(), end: end.toISOString(), granularity: "month" };
}

/**
 * The season `season` relative to `ref`: dir −1 the latest one that ended on or before the reference day ("last
 * summer" in October is the summer just gone; in July, the one a year before — as "last Friday" is the latest
 * Friday before the day); +1 the first that starts after it; 0 the one holding it, else the one `lean` points to
 * ("we hope to go this summer", said in November: the next one; -1 or +1 from the sentence's tense), else the
 * nearest (the past winning a tie, as {@link nearestYear}).
 */
export function seasonFrom(ref: Date, season: number, dir: number, lean = 0): EventTime | null {
  const day = Date.UTC(ref.getUTCFullYear(), ref.getUTCMonth(), ref.getUTCDate());
  const y = ref.getUTCFullYear();
  const all = [y - 2, y - 1, y, y + 1, y + 2].flatMap((c) => seasonEvent(c, season) ?? []);
  const span = (e: EventTime) => [Date.parse(e.start), Date.parse(e.end)] as const;
  if (dir < 0) return all.filter((e) => span(e)[1] <= day).at(-1) ?? null;
  if (dir > 0) return all.find((e) => span(e)[0] > day) ?? null;
  if (!all.some((e) => span(e)[0] <= day && day < span(e)[1]) && lean) return seasonFrom(ref, season, lean);
  const gap = (e: EventTime) => {
    const [s, t] = span(e);
    return day < s ? s - day : day >= t ? day - t + 86_400_000 : 0;
  };
  // Earlier seasons come first, so a tie keeps the past one.
  return all.reduce((best, e) => (gap(e) < gap(best) ? e : best));
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
