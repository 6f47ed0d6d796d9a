/**
 * Absolute dates in English and Russian: "2024-03-03", 03.03.2024, "March 3, 2024", "3rd of March 2024",
 * «3 марта 2024 г.», "March 2024", «в марте 2024 года», "in 1998", «в 1998 году». A day or month without a year
 * ("on May 7", «в марте») takes the year nearest the reference date, so it is only dated when one is known.
 */
import {
  dayEvent,
  isEnglishMonthWord,
  monthEvent,
  nearestYear,
  seasonEvent,
  type TimeRule,
  wordRe,
  yearEvent,
} from "./rules.ts";
import { MONTH_EN, MONTH_RU, monthNumber, SEASON_EN, SEASON_RU, seasonNumber } from "./words.ts";

const ORD = "(?:st|nd|rd|th)?";
const YEAR = "(\\d{4})";
const DAY = "(\\d{1,2})";
const RU_YEAR_TAIL = "(?:\\s*(?:г\\.|гг\\.|года|году|год|г)(?![\\p{L}]))?";
const EN_YEAR_PREP = "(?:in|since|from|by|until|till|during|around|circa|of|before|after|early|late|mid-?|the year)";
const RU_YEAR_PREP = "(?:в|с|до|к|по|около|после|от|начиная с)";
/** A count followed by its unit is no year: "in 2000 ms", «до 1500 человек». */
const NOT_A_COUNT =
  "(?!\\s*(?:ms|sec|seconds?|minutes?|hours?|days?|steps?|people|persons?|users?|words?|bytes?|kb|mb|gb|px|pages?|" +
  "rows?|times|items?|lines?|%|€|\\$|мс|сек|секунд\\p{L}*|минут\\p{L}*|час\\p{L}*|дн\\p{L}*|человек\\p{L}*|" +
  "руб\\p{L}*|шаг\\p{L}*|страниц\\p{L}*|строк\\p{L}*|раз\\p{L}*|слов\\p{L}*|штук\\p{L}*)(?![\\p{L}]))";

/** "Month D" and "D Month" with an optional year; null when an English month word is lower case. */
function dayMonth(month: string, day: string, year: string | undefined, ref: Date | undefined) {
  if (!isEnglishMonthWord(month)) return null;
  const mo = monthNumber(month);
  const d = Number(day);
  if (year) return dayEvent(Number(year), mo, d);
  return ref ? dayEvent(nearestYear(ref, mo, d), mo, d) : null;
}

/** Absolute rules, most specific first (a day before its month, a month before its year). */
export const ABSOLUTE_RULES: TimeRule[] = [
  {
    re: wordRe(`${YEAR}-(\\d{2})-(\\d{2})`),
    relative: false,
    make: (m) => dayEvent(Number(m[1]), Number(m[2]), Number(m[3])),
  },
  {
    re: wordRe(`(\\d{1,2})\\.(\\d{1,2})\\.${YEAR}${RU_YEAR_TAIL}`),
    relative: false,
    make: (m) => dayEvent(Number(m[3]), Number(m[2]), Number(m[1])),
  },
  {
    re: wordRe(`${MONTH_EN}\\s+${DAY}${ORD}(?:,?\\s+${YEAR})?`),
    relative: false,
    make: (m, ref) => dayMonth(m[1], m[2], m[3], ref),
  },
  {
    re: wordRe(`(?:the\\s+)?${DAY}${ORD}\\s+(?:of\\s+)?${MONTH_EN}(?:,?\\s+${YEAR})?`),
    relative: false,
    make: (m, ref) => dayMonth(m[2], m[1], m[3], ref),
  },
  {
    re: wordRe(`${DAY}(?:-?(?:го|е|ое))?\\s+${MONTH_RU}(?:\\s+${YEAR}${RU_YEAR_TAIL})?`),
    relative: false,
    make: (m, ref) => dayMonth(m[2], m[1], m[3], ref),
  },
  {
    re: wordRe(`${MONTH_EN},?\\s+(?:of\\s+)?${YEAR}`),
    relative: false,
    make: (m) => (isEnglishMonthWord(m[1]) ? monthEvent(Number(m[2]), monthNumber(m[1])) : null),
  },
  {
    re: wordRe(`${MONTH_RU}\\s+${YEAR}${RU_YEAR_TAIL}`),
    relative: false,
    make: (m) => monthEvent(Number(m[2]), monthNumber(m[1])),
  },
  {
    // A month alone, after a preposition: "in March", "since June", «в марте», «с мая».
    re: wordRe(
      `(?:in|during|since|until|by|early|late|mid-?|в|с|до|к|весь|всём|конце|начале|середине)\\s+${MONTH_EN.replace("(", "(?<en>")}|(?:в|с|до|к|конце|начале|середине)\\s+${MONTH_RU.replace("(", "(?<ru>")}`,
    ),
    relative: true,
    make: (m, ref) => {
      const word = m.groups?.en ?? m.groups?.ru ?? "";
      if (!ref || !isEnglishMonthWord(word)) return null;
      const mo = monthNumber(word);
      return monthEvent(nearestYear(ref, mo, 15), mo);
    },
  },
  {
    re: wordRe(`(?:${EN_YEAR_PREP}|${RU_YEAR_PREP})\\s+${YEAR}(?:-?(?:м|ом|го))?${RU_YEAR_TAIL}${NOT_A_COUNT}`),
    relative: false,
    make: (m) => yearEvent(Number(m[1])),
  },
  {
    // A season of a year: "summer 2023", "the winter of 2024", «весной 2023 года», «летом 2022-го» (rules.ts).
    re: wordRe(`(?:the\\s+)?${SEASON_EN}\\s+(?:of\\s+)?${YEAR}|${SEASON_RU}\\s+${YEAR}(?:-?(?:го|м))?${RU_YEAR_TAIL}`),
    relative: false,
    make: (m) => seasonEvent(Number(m[2] ?? m[4]), seasonNumber(m[1] ?? m[3])),
  },
  {
    re: wordRe(`${YEAR}\\s*(?:г\\.|года|году|год)(?![\\p{L}])`),
    relative: false,
    make: (m) => yearEvent(Number(m[1])),
  },
];
