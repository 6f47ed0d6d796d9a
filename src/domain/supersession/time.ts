/**
 * Times for supersession, read by domain/time: an ISO 8601 date or date-time ("2024", "2024-06", "2024-06-01",
 * "2024-06-01T10:00Z") as milliseconds since the epoch (UTC; a partial date is its first instant), and the first
 * absolute date a statement gives ("in 2019", "since March 2020", «в 2019 году», «с марта 2020 года»). Pure.
 */
import { parseIsoTime } from "../time/atom-time.ts";
import { eventTimeOf } from "../time/extract.ts";

/** Milliseconds of an ISO 8601 year, date or date-time (UTC when no zone is given), or null when it is not one. */
export function timeOf(iso: string | null | undefined): number | null {
  const s = iso?.trim();
  if (!s) return null;
  return parseIsoTime(/^\d{4}$/u.test(s) ? `${s}-01` : s)?.getTime() ?? null;
}

/** The start of the first absolute date a statement gives, as milliseconds, or null (relative ones need a reference). */
export function explicitTime(text: string): number | null {
  const event = eventTimeOf(text);
  return event ? Date.parse(event.start) : null;
}
