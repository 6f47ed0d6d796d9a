/**
 * The two time axes of an atom (issue 22): when its source said it (`observedAt`) and when what it says happened or
 * held (`event`, an interval of a day, month or year, or an instant), and the strict ISO 8601 reading of a date the
 * caller gives. All times are UTC; a date without a zone is taken as UTC midnight.
 */

/** How precisely an event time is known. */
export const TIME_GRANULARITIES = ["instant", "day", "week", "month", "year"] as const;
/** One of {@link TIME_GRANULARITIES}. */
export type TimeGranularity = (typeof TIME_GRANULARITIES)[number];

/**
 * When something happened or held: the half-open UTC interval [start, end) (end = start for an instant), known to
 * the precision of `granularity` (a weekend is two days, granularity day; "last week" is a Monday-to-Monday week; a
 * season is three whole months, granularity month — rules.ts seasonEvent).
 */
export interface EventTime {
  /** ISO 8601 UTC instant, e.g. 2024-03-03T00:00:00.000Z. */
  start: string;
  /** ISO 8601 UTC instant; exclusive, or equal to `start` for an instant. */
  end: string;
  granularity: TimeGranularity;
}

/** The time of one atom; absent fields are unknown. */
export interface AtomTime {
  /** ISO 8601 UTC instant at which the source said it. */
  observedAt?: string;
  event?: EventTime;
}

/** What {@link parseIsoTime} accepts, for error messages. */
export const ISO_TIME_FORMAT = "ISO 8601: YYYY-MM-DD, YYYY-MM, or YYYY-MM-DDTHH:MM[:SS[.sss]][Z|±HH:MM]";

const ISO = /^(\d{4})-(\d{2})(?:-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?)?)?$/i;

/** Days in `month` (1..12) of `year`, proleptic Gregorian. */
export function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/**
 * Reads an ISO 8601 date (YYYY-MM-DD), month (YYYY-MM) or date-time (zone optional, UTC when absent) into a UTC
 * `Date` at the start of what it names; null when the text is not one or names no real day (2024-02-30).
 */
export function parseIsoTime(text: string): Date | null {
  const m = ISO.exec(text.trim());
  if (!m) return null;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), m[3] === undefined ? 1 : Number(m[3])];
  if (mo < 1 || mo > 12 || d < 1 || d > daysInMonth(y, mo)) return null;
  const [h, mi, s] = [Number(m[4] ?? 0), Number(m[5] ?? 0), Number(m[6] ?? 0)];
  if (h > 23 || mi > 59 || s > 59) return null;
  const ms = m[7] ? Math.round(Number(`0${m[7]}`) * 1000) : 0;
  let t = Date.UTC(y, mo - 1, d, h, mi, s, ms);
  const zone = m[8];
  if (zone && zone.toUpperCase() !== "Z") {
    const z = /^([+-])(\d{2}):?(\d{2})$/.exec(zone)!;
    const offset = (Number(z[2]) * 60 + Number(z[3])) * 60_000;
    if (Number(z[2]) > 14 || Number(z[3]) > 59) return null;
    t -= z[1] === "+" ? offset : -offset;
  }
  const out = new Date(t);
  // Date.UTC maps years 0..99 to 1900..1999; keep the year as written.
  if (y < 100) out.setUTCFullYear(y);
  return out;
}

/** The event time covering the whole day, week (ISO, from Monday), month or year that contains `at` (UTC). */
export function periodOf(at: Date, granularity: Exclude<TimeGranularity, "instant">): EventTime {
  if (granularity === "week") {
    const monday = Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate() - ((at.getUTCDay() + 6) % 7));
    return { start: new Date(monday).toISOString(), end: new Date(monday + 7 * 86_400_000).toISOString(), granularity };
  }
  const y = at.getUTCFullYear();
  const mo = granularity === "year" ? 0 : at.getUTCMonth();
  const d = granularity === "day" ? at.getUTCDate() : 1;
  const start = new Date(Date.UTC(y, mo, d));
  const end =
    granularity === "day"
      ? new Date(Date.UTC(y, mo, d + 1))
      : granularity === "month"
        ? new Date(Date.UTC(y, mo + 1, 1))
        : new Date(Date.UTC(y + 1, 0, 1));
  return { start: start.toISOString(), end: end.toISOString(), granularity };
}
