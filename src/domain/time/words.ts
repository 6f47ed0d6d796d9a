/**
 * The words of time expressions in English and Russian: month and weekday names (every Russian case), small
 * numbers written as words, and the calendar arithmetic the matchers share. Pure; all dates are UTC.
 */

/** Regex source of an English month name or abbreviation (capitalisation is checked by the caller). */
export const MONTH_EN =
  "(january|february|march|april|may|june|july|august|september|october|november|december|jan|feb|mar|apr|jun|jul|aug|sept|sep|oct|nov|dec)\\.?";

/** Regex source of a Russian month name in any case (марта, марте, мае, январём) or a common abbreviation. */
export const MONTH_RU =
  "(январ[ьяюеё]м?|феврал[ьяюеё]м?|март(?:а|е|у|ом)?|апрел[ьяюеё]м?|ма[йяюе]|маем|июн[ьяюеё]м?|июл[ьяюеё]м?|" +
  "август(?:а|е|у|ом)?|сентябр[ьяюеё]м?|октябр[ьяюеё]м?|ноябр[ьяюеё]м?|декабр[ьяюеё]м?|" +
  "янв\\.|февр?\\.|апр\\.|авг\\.|сент?\\.|окт\\.|нояб?\\.|дек\\.)";

const EN_MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];
const RU_MONTHS = ["янв", "фев", "мар", "апр", "ма", "июн", "июл", "авг", "сен", "окт", "ноя", "дек"];

/** Month number (1..12) of a matched English or Russian month word; 0 when it is none. */
export function monthNumber(word: string): number {
  const w = word.toLowerCase().replace(/ё/g, "е");
  const en = EN_MONTHS.indexOf(w.slice(0, 3));
  if (en >= 0 && /^[a-z]/.test(w)) return en + 1;
  const ru = RU_MONTHS.findIndex((p) => w.startsWith(p));
  return ru >= 0 ? ru + 1 : 0;
}

/** Regex source of an English weekday name or abbreviation ("Fri", "Tues."; capitalisation checked by the caller). */
export const WEEKDAY_EN =
  "(monday|tuesday|wednesday|thursday|friday|saturday|sunday|mon|tues|tue|wed|thurs|thur|thu|fri|sat|sun)\\.?";
/** Regex source of a Russian weekday name in any case (вторник, среду, субботу, воскресенье). */
export const WEEKDAY_RU =
  "(понедельник[аеу]?|вторник[аеу]?|сред[аыуе]|четверг[аеу]?|пятниц[аыуе]|суббот[аыуе]|воскресень[еяю])";

const WEEKDAYS_EN = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"];
const WEEKDAYS_RU = ["воскр", "понед", "вторн", "сред", "четв", "пятн", "субб"];

/** Day of week (0 = Sunday … 6 = Saturday, as Date.getUTCDay) of a matched weekday word; -1 when none. */
export function weekdayNumber(word: string): number {
  const w = word.toLowerCase().replace(/\.$/, "");
  // An abbreviation in lower case is a word ("last sun", "last sat down"), not a day.
  if (w.length <= 5 && /^[a-z]/.test(word)) return -1;
  const en = WEEKDAYS_EN.findIndex((d) => d.startsWith(w) && w.length >= 3);
  return en >= 0 ? en : WEEKDAYS_RU.findIndex((p) => w.startsWith(p));
}

/** Regex source of an English season name (spring, summer, autumn, fall, winter). */
export const SEASON_EN = "(spring|summer|autumn|fall|winter)";
/**
 * Regex source of a Russian season name in the cases a time phrase takes: «летом», «лета», «лето», «зимой», «зиму»,
 * «весной», «осенью»… («лет» alone is "years", never summer).
 */
export const SEASON_RU = "(весн(?:а|ы|у|ой|ою|е)|лет(?:о|а|ом|е)|зим(?:а|ы|у|ой|ою|е)|осен(?:ь|и|ью))";

/** Season of a matched season word: 0 spring, 1 summer, 2 autumn, 3 winter; -1 when none. */
export function seasonNumber(word: string): number {
  const w = word.toLowerCase();
  if (w.startsWith("spring") || w.startsWith("весн")) return 0;
  if (w.startsWith("summer") || w.startsWith("лет")) return 1;
  if (w.startsWith("autumn") || w === "fall" || w.startsWith("осен")) return 2;
  return w.startsWith("winter") || w.startsWith("зим") ? 3 : -1;
}

/** Regex source of a small count in English: digits, a/an/one … twelve, a couple (of), a few is vague and absent. */
export const COUNT_EN =
  "(\\d{1,3}|an?|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|a couple of|couple of)";
/** Regex source of a small count in Russian, in the cases a duration takes (два дня, две недели, пару лет). */
export const COUNT_RU =
  "(\\d{1,3}|один|одну|одна|два|две|три|четыре|пять|шесть|семь|восемь|девять|десять|одиннадцать|двенадцать|пару|пара)";

const COUNT_WORDS: Record<string, number> = {
  a: 1,
  an: 1,
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
  "a couple of": 2,
  "couple of": 2,
  один: 1,
  одну: 1,
  одна: 1,
  два: 2,
  две: 2,
  три: 3,
  четыре: 4,
  пять: 5,
  шесть: 6,
  семь: 7,
  восемь: 8,
  девять: 9,
  десять: 10,
  одиннадцать: 11,
  двенадцать: 12,
  пару: 2,
  пара: 2,
};

/** The number a matched count stands for; NaN when unknown. */
export function countValue(word: string): number {
  const w = word.toLowerCase().replace(/\s+/g, " ");
  return /^\d+$/.test(w) ? Number(w) : (COUNT_WORDS[w] ?? Number.NaN);
}

/** Calendar unit of a matched English or Russian unit word (day, дня, недель, months, лет…); null when none. */
export function unitOf(word: string): "day" | "week" | "month" | "year" | null {
  const w = word.toLowerCase();
  if (/^(days?|день|дня|дней)$/.test(w)) return "day";
  if (/^(weeks?|недел[юиья]|недель)$/.test(w)) return "week";
  if (/^(months?|месяц|месяца|месяцев)$/.test(w)) return "month";
  if (/^(years?|год|года|лет)$/.test(w)) return "year";
  return null;
}

const DAY_MS = 86_400_000;

/** UTC midnight of the day of `at`, moved by `days`. */
export function dayOf(at: Date, days = 0): Date {
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate() + days));
}

/** `at` moved by `n` units (months and years keep the day, clamped to the month's end). */
export function shift(at: Date, unit: "day" | "week" | "month" | "year", n: number): Date {
  if (unit === "day") return new Date(at.getTime() + n * DAY_MS);
  if (unit === "week") return new Date(at.getTime() + 7 * n * DAY_MS);
  const months = unit === "month" ? n : 12 * n;
  const y = at.getUTCFullYear();
  const m = at.getUTCMonth() + months;
  const last = new Date(Date.UTC(y, m + 1, 0)).getUTCDate();
  return new Date(Date.UTC(y, m, Math.min(at.getUTCDate(), last)));
}
