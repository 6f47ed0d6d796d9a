/**
 * Relative dates in English and Russian, resolved against the reference date (when the source said it): "yesterday",
 * «позавчера», «на прошлой неделе» (the ISO week before), "last weekend" (Saturday–Sunday of the week before), "two
 * weeks ago" (the week holding the day 14 days back), «через два дня», "next month", «в прошлом году». Without a
 * reference they date nothing.
 *
 * Weekdays, one day each: "last Tuesday" / «в прошлый вторник» is the latest Tuesday strictly before the reference
 * day (said on a Tuesday, the one a week before), "next Tuesday" / «в следующий вторник» the first strictly after,
 * "this Tuesday" / «в этот вторник» the Tuesday of the reference's ISO week — the readings TimeML's TIMEX3 guidelines
 * give and HeidelTime implements for the previous / next such day (Strötgen & Gertz 2013); a bare "on Tuesday" /
 * «во вторник» takes its direction from the tense of its sentence (tense.ts).
 * Seasons, meteorological and northern (rules.ts seasonEvent): "last summer" / «прошлым летом» the latest summer
 * over by the reference day, "next winter" / «следующей зимой» the first to start after it, "this summer" / «этим
 * летом» the one holding the day, else the nearest. A season without a word of direction («летом», "in winter") is
 * too vague to date: it is often a habit ("in winter it snows").
 */
import { type EventTime, periodOf } from "./atom-time.ts";
import { seasonFrom, type TimeRule, wordRe } from "./rules.ts";
import { sentenceAround, sentenceTense, weekdayDirection } from "./tense.ts";
import {
  COUNT_EN,
  COUNT_RU,
  SEASON_EN,
  SEASON_RU,
  seasonNumber,
  WEEKDAY_EN,
  WEEKDAY_RU,
  countValue,
  dayOf,
  shift,
  unitOf,
  weekdayNumber,
} from "./words.ts";

type Unit = "day" | "week" | "month" | "year";

function day(ref: Date | undefined, offset: number): EventTime | null {
  return ref ? periodOf(dayOf(ref, offset), "day") : null;
}

/** The unit (week, month, year) `n` units from the reference's. */
function unitFrom(ref: Date | undefined, unit: Unit, n: number): EventTime | null {
  return ref ? periodOf(shift(dayOf(ref), unit, n), unit) : null;
}

/** Saturday–Sunday of the ISO week `weeks` from the reference's. */
function weekend(ref: Date | undefined, weeks: number): EventTime | null {
  if (!ref) return null;
  const week = periodOf(shift(dayOf(ref), "week", weeks), "week");
  const sat = dayOf(new Date(week.start), 5);
  return { start: sat.toISOString(), end: dayOf(sat, 2).toISOString(), granularity: "day" };
}

/** The `weekday` (0 = Sunday) strictly before (dir −1) or after (+1) the reference day, or in its week (0). */
function weekday(ref: Date | undefined, word: string, dir: -1 | 0 | 1): EventTime | null {
  const wd = weekdayNumber(word);
  if (!ref || wd < 0) return null;
  const today = ref.getUTCDay();
  if (dir === 0) return day(ref, ((wd + 6) % 7) - ((today + 6) % 7));
  const back = (today - wd + 7) % 7 || 7;
  const ahead = (wd - today + 7) % 7 || 7;
  return day(ref, dir < 0 ? -back : ahead);
}

/** `n` units back (dir −1) or ahead (+1): a day for days, else the week, month or year holding that day. */
function counted(ref: Date | undefined, count: string, unitWord: string, dir: -1 | 1): EventTime | null {
  const n = countValue(count.trim());
  const unit = unitOf(unitWord);
  if (!ref || !unit || !Number.isFinite(n)) return null;
  return unit === "day" ? day(ref, dir * n) : periodOf(shift(dayOf(ref), unit, dir * n), unit);
}

/** The season of `m[2]` in direction `dir` (rules.ts seasonFrom); "this" leans by the tense of its sentence. */
function season(m: RegExpExecArray, ref: Date | undefined, dir: number): EventTime | null {
  if (!ref) return null;
  const tense = dir === 0 ? sentenceTense(sentenceAround(m.input, m.index)) : null;
  return seasonFrom(ref, seasonNumber(m[2]), dir, tense === "future" ? 1 : tense === "past" ? -1 : 0);
}

const rule = (source: string, make: TimeRule["make"]): TimeRule => ({ re: wordRe(source), relative: true, make });

/** Not after a possessive ("his last summer": the final one). */
const NOT_OWNED = "(?<!(?:his|her|my|their|its|our|your|one's)\\s+)";
/** "Fall" as a verb or a noun of falling ("last fall from the roof"). */
const NOT_A_FALL = "(?!\\s+(?:from|off|into|down|apart|asleep|behind|over))";

const DIR_EN: Record<string, number> = { last: -1, past: -1, previous: -1, this: 0, current: 0, next: 1, coming: 1 };

function dirRu(word: string): number {
  const w = word.toLowerCase();
  if (w.startsWith("позапрош")) return -2;
  if (w.startsWith("прош") || w.startsWith("предыдущ")) return -1;
  if (w.startsWith("след") || w.startsWith("будущ")) return 1;
  return 0;
}

/** Relative rules, longer phrases first so that "the day before yesterday" wins over "yesterday". */
export const RELATIVE_RULES: TimeRule[] = [
  rule("the\\s+day\\s+before\\s+yesterday|позавчера", (_, ref) => day(ref, -2)),
  rule("the\\s+day\\s+after\\s+tomorrow|послезавтра", (_, ref) => day(ref, 2)),
  rule("yesterday|last\\s+night|вчера", (_, ref) => day(ref, -1)),
  rule("tomorrow|завтра", (_, ref) => day(ref, 1)),
  rule("today|tonight|this\\s+(?:morning|afternoon|evening)|сегодня", (_, ref) => day(ref, 0)),
  rule(`${COUNT_EN}\\s+(days?|weeks?|months?|years?)\\s+ago`, (m, ref) => counted(ref, m[1], m[2], -1)),
  rule(`in\\s+${COUNT_EN}\\s+(days?|weeks?|months?|years?)(?!\\s+ago)`, (m, ref) => counted(ref, m[1], m[2], 1)),
  rule("(?:a|one)\\s+(day|week|month|year)\\s+ago", (m, ref) => counted(ref, "1", m[1], -1)),
  rule(
    `${COUNT_RU}\\s+(дня|дней|день|недели|недель|неделю|месяца|месяцев|месяц|года|лет|год)\\s+(?:тому\\s+)?назад`,
    (m, ref) => counted(ref, m[1], m[2], -1),
  ),
  rule("(неделю|месяц|год)\\s+(?:тому\\s+)?назад", (m, ref) => counted(ref, "1", m[1], -1)),
  rule(`через\\s+${COUNT_RU}\\s+(дня|дней|день|недели|недель|неделю|месяца|месяцев|месяц|года|лет|год)`, (m, ref) =>
    counted(ref, m[1], m[2], 1),
  ),
  rule("через\\s+(неделю|месяц|год)", (m, ref) => counted(ref, "1", m[1], 1)),
  rule(`${COUNT_EN}\\s+weekends?\\s+ago`, (m, ref) => {
    const n = countValue(m[1].trim());
    return Number.isFinite(n) ? weekend(ref, -n) : null;
  }),
  rule("(?:the\\s+)?(last|past|previous|this|next|coming)\\s+weekend", (m, ref) =>
    weekend(ref, DIR_EN[m[1].toLowerCase()]),
  ),
  rule(`(last|this\\s+past|this|next|coming)\\s+${WEEKDAY_EN}`, (m, ref) =>
    weekday(ref, m[2], Math.sign(DIR_EN[m[1].toLowerCase().replace(/^this\s+past$/u, "past")]) as -1 | 0 | 1),
  ),
  rule(`on\\s+${WEEKDAY_EN}|во?\\s+${WEEKDAY_RU}(?!\\s+обитани)`, (m, ref) =>
    weekday(ref, m[1] ?? m[2], weekdayDirection(sentenceAround(m.input, m.index))),
  ),
  // "his last summer at home" is a final summer, "the last fall from a horse" no season: neither is dated.
  rule(`${NOT_OWNED}(?:the\\s+)?(last|past|previous|this|next|coming)\\s+${SEASON_EN}${NOT_A_FALL}`, (m, ref) =>
    season(m, ref, DIR_EN[m[1].toLowerCase()]),
  ),
  rule(`(?:в\\s+)?(прошл|эт|следующ|будущ)(?:ой|ым|ого|ую|ое|ая|им|ей|его|ее|у|о|а)\\s+${SEASON_RU}`, (m, ref) =>
    season(m, ref, dirRu(m[1])),
  ),
  rule("(?:earlier\\s+|later\\s+)?(last|past|previous|this|next|coming)\\s+(week|month|year)", (m, ref) =>
    unitFrom(ref, m[2].toLowerCase() as Unit, DIR_EN[m[1].toLowerCase()]),
  ),
  rule("(?:в|на)\\s+(прошл|эт|следующ|будущ)(?:ые|их|и)\\s+выходны[ех]", (m, ref) => weekend(ref, dirRu(m[1]))),
  rule(`в\\s+(прошл|эт|следующ|будущ)(?:ый|ую|ое|у|от|ий)\\s+${WEEKDAY_RU}`, (m, ref) =>
    weekday(ref, m[2], dirRu(m[1]) as -1 | 0 | 1),
  ),
  rule("на\\s+(прошл|эт|следующ|будущ|предыдущ)(?:ой|ей)\\s+неделе", (m, ref) => unitFrom(ref, "week", dirRu(m[1]))),
  rule("в\\s+(прошл|эт|следующ|будущ|предыдущ)(?:ом|ем)\\s+месяце", (m, ref) => unitFrom(ref, "month", dirRu(m[1]))),
  rule("в\\s+(позапрошл|прошл|эт|следующ|будущ|предыдущ)(?:ом|ем)\\s+году", (m, ref) =>
    unitFrom(ref, "year", dirRu(m[1])),
  ),
];
