/**
 * When a fetched URL document is checked again (issue 24, item 2): the age after which it is due, the delay before a
 * failed check is retried, and the politeness delay between two requests to one host. Pure.
 */
import { invalidInput } from "../../errors.ts";

/** A URL document is due once its last check is this old (seconds; 7 days), unless `--older-than` says otherwise. */
export const DEFAULT_REFRESH_AGE_S = 7 * 86_400;

/** Least time between two requests to one host (ms), robots.txt included; a longer Crawl-delay wins (≤ 60 s). */
export const DEFAULT_HOST_INTERVAL_MS = 1000;

/** Longest Crawl-delay honoured (ms): a larger one would stall the run; the host is still asked once per interval. */
export const MAX_CRAWL_DELAY_MS = 60_000;

/** First retry delay of a failed check (ms; 15 min), doubled per failure in a row up to {@link MAX_RETRY_MS}. */
export const FIRST_RETRY_MS = 15 * 60_000;

/** Longest retry delay of a failed check (ms; 1 day). */
export const MAX_RETRY_MS = 86_400_000;

const UNITS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86_400, w: 604_800 };

/** Longest age (seconds; 1000 years): a longer one selects the same pages and overflows a PostgreSQL interval. */
const MAX_AGE_S = 1000 * 365 * 86_400;

/**
 * Parses an age such as `7d`, `12h`, `30m`, `90s`, `2w` or `0` into seconds (a bare number is days), at most
 * {@link MAX_AGE_S}.
 * @throws PegasError INVALID_INPUT for anything else.
 */
export function parseAge(text: string): number {
  const m = /^\s*(\d+(?:\.\d+)?)\s*([smhdw]?)\s*$/i.exec(text);
  if (!m)
    throw invalidInput(
      `'${text}' is not an age`,
      "give a number with a unit: 90s, 30m, 12h, 7d or 2w (a bare number is days)",
    );
  return Math.min(MAX_AGE_S, Math.round(Number(m[1]) * UNITS[(m[2] || "d").toLowerCase()]));
}

/**
 * When a check that failed for the `failures`-th time in a row (1 = first) is retried: the server's Retry-After
 * (delta seconds or an HTTP date, RFC 9110 §10.2.3) when it gave one, bounded by {@link MAX_RETRY_MS}, else
 * {@link FIRST_RETRY_MS} doubled per earlier failure, bounded likewise.
 */
export function retryAt(now: Date, failures: number, retryAfter?: string): Date {
  let ms = Math.min(MAX_RETRY_MS, FIRST_RETRY_MS * 2 ** Math.max(0, Math.min(failures - 1, 20)));
  if (retryAfter) {
    const s = Number(retryAfter);
    const at = Number.isFinite(s) ? now.getTime() + s * 1000 : Date.parse(retryAfter);
    if (Number.isFinite(at) && at > now.getTime()) ms = Math.min(MAX_RETRY_MS, at - now.getTime());
  }
  return new Date(now.getTime() + ms);
}
