/**
 * The labelled set of dates of issue 22 (tests/time/date-set.jsonl, one case per line): a phrase of a text and the
 * event time it names, resolved against when the text was said (`observed_at`). `locomo` cases are dialogue turns
 * of the LoCoMo development split (../shared/bench/locomo, short quotes) with their session's date; `written` cases
 * are Russian sentences (and a few English ones) written for this set. Vague phrases ("the other day", «недавно»)
 * are labelled `expect: null`: nothing may be dated there. Conventions: a day is [midnight, next midnight) UTC;
 * "last Friday" is the latest Friday before the day; weeks are ISO weeks (Monday first), "last week" the one before,
 * "two weeks ago" the week holding the day 14 days back; a weekend is Saturday–Sunday of a week (granularity day);
 * "N months/years ago" is that month/year; a bare "on Friday" / «в пятницу» points back in the past tense and ahead
 * otherwise; seasons are meteorological (northern), three months of granularity month, a winter named by its
 * January; "last summer" is the latest summer over by the day (src/domain/time/relative.ts). The check half is frozen by hash ({@link halfOf}, bench/lib/split.ts):
 * the extractor is tuned on the other half only; {@link CHECK_DIGEST} pins the check half's lines.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { TimeGranularity } from "../../src/domain/time/atom-time.ts";
import { findTimeExpressions } from "../../src/domain/time/extract.ts";

/** One labelled case. */
export interface DateCase {
  id: string;
  half: "tune" | "check";
  lang: "en" | "ru";
  origin: "locomo" | "written";
  /** ISO 8601 UTC: when the text was said (the LoCoMo session's date and time). */
  observed_at: string;
  text: string;
  /** The time expression, as it occurs in `text`. */
  phrase: string;
  /** The event time it names (dates YYYY-MM-DD, end exclusive), or null when it names none precisely. */
  expect: { start: string; end: string; granularity: TimeGranularity } | null;
}

/**
 * SHA-256 of the check half's lines (in file order, joined by "\n"), fixed when cases were last appended (weekdays
 * and seasons, issue 22: labelled by the conventions of src/domain/time/relative.ts before the extractor ran on them).
 */
export const CHECK_DIGEST = "869e70ccb0b058532ddd427c590d67dd097b1486b50b1759ad74419a3e9dfea5";
/** The check half as first written: its first {@link FIRST_CHECK.lines} lines still hash to this (never edited). */
export const FIRST_CHECK = { lines: 66, digest: "367f026ae6c4a2598df4a57fe980da2ccef8d1ea6a7d2c4f50f74168e14841bb" };

/** The set, in file order. */
export const DATE_SET: DateCase[] = readFileSync(join(import.meta.dir, "date-set.jsonl"), "utf8")
  .split("\n")
  .filter((l) => l.trim())
  .map((l) => JSON.parse(l) as DateCase);

/** The check half's lines as they stand (the first `lines` of them when given), hashed as {@link CHECK_DIGEST} was. */
export function checkDigest(lines?: number): string {
  const all = readFileSync(join(import.meta.dir, "date-set.jsonl"), "utf8")
    .split("\n")
    .filter((l) => l.trim() && (JSON.parse(l) as DateCase).half === "check");
  return createHash("sha256")
    .update(all.slice(0, lines ?? all.length).join("\n"))
    .digest("hex");
}

/** The half of a case id: bench/lib/split.ts's hash split (kept here so that tests need nothing of bench/). */
export function halfOf(id: string): "tune" | "check" {
  return createHash("sha256").update(`pegas-split-v1:${id}`).digest()[0] % 2 === 0 ? "tune" : "check";
}

/** What the extractor made of a case's phrase: the event of the expression overlapping it, or null. */
export function extracted(c: DateCase): DateCase["expect"] {
  const at = c.text.indexOf(c.phrase);
  const hit = findTimeExpressions(c.text, new Date(c.observed_at)).find(
    (e) => e.index < at + c.phrase.length && at < e.index + e.length,
  );
  if (!hit) return null;
  return { start: hit.event.start.slice(0, 10), end: hit.event.end.slice(0, 10), granularity: hit.event.granularity };
}

/** True when the extractor's reading of the case is exactly its label (start, end and granularity; or both null). */
export function exact(c: DateCase): boolean {
  return JSON.stringify(extracted(c)) === JSON.stringify(c.expect);
}
