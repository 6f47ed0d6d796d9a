/**
 * The numbers of a text as positioned tokens: digit numerals (with a currency sign before them, "$163", «₽500»),
 * runs of number words, and the Russian half prefix («полчаса», «полгода»: 0.5 glued to its unit). Ordinals, digits
 * inside words or identifiers ("HDBR49", "t(13)", "3A1") and the digits of a version ("1.2.3") are no tokens. Pure.
 */
import { DIGITS, readDigits, readWords } from "./numbers.ts";
import { type UnitDef, unitBySymbol } from "./units.ts";

/** One number found in a text. */
export interface NumberToken {
  value: number;
  /** UTF-16 span of the number (the currency sign included). */
  start: number;
  end: number;
  sigDigits: number | null;
  lastPlace: number | null;
  /** Written in words (or as «пол-»). */
  word: boolean;
  /** The digits began with a sign ("-11" right after "10" is the second end of a range "10-11"). */
  signed: boolean;
  /** A currency sign written before the number ($, US$, €, £, ¥, ₽). */
  currency?: UnitDef;
}

const CURRENCY_SIGNS: Array<[string, string]> = [
  ["US$", "USD"],
  ["$", "USD"],
  ["€", "EUR"],
  ["£", "GBP"],
  ["¥", "JPY"],
  ["₽", "RUB"],
];

const DIGITS_RE = new RegExp(`(?<![\\p{L}\\p{N}_.,])(?:US\\$|[$€£¥₽])?\\s?${DIGITS}`, "gu");
const WORD_RE = /(?<![\p{L}\p{N}])[\p{L}]+/gu;
const LONE_PLURAL =
  /^(?:hundreds|thousands|millions|billions|dozens|тысячи|тысячами|тысячам|миллионы|миллионов|миллионами|миллиарды|миллиардов)$/iu;
const HALF_RE = /(?<![\p{L}])пол(?=(?:часа|года|дня|суток|минуты|месяца|века|версты)(?![\p{L}]))/giu;

/** The number tokens of `text`, in order, not overlapping. */
export function numberTokens(text: string, lang: "en" | "ru"): NumberToken[] {
  const out: NumberToken[] = [];
  for (const m of text.matchAll(DIGITS_RE)) {
    let raw = m[0];
    let start = m.index;
    let currency: UnitDef | undefined;
    const sign = CURRENCY_SIGNS.find(([s]) => raw.startsWith(s));
    if (sign) {
      currency = unitBySymbol(sign[1]);
      raw = raw.slice(sign[0].length).trimStart();
    } else if (/^\s/.test(raw)) {
      raw = raw.trimStart();
      start = m.index + m[0].length - raw.length;
    }
    const end = m.index + m[0].length;
    // Digits glued to letters after them are part of a name ("3A1", "HDBR7"), unless a unit follows.
    if (/^[\p{L}]/u.test(text.slice(end, end + 1)) && !glued(text, end)) continue;
    const n = readDigits(raw, lang);
    if (!n) continue;
    out.push({ ...n, start, end, word: false, signed: /^[-−+]/.test(raw), currency });
  }
  for (const m of text.matchAll(HALF_RE)) {
    out.push({
      value: 0.5,
      start: m.index,
      end: m.index + 3,
      sigDigits: null,
      lastPlace: null,
      word: true,
      signed: false,
    });
  }
  let after = 0;
  const taken = [...out].sort((a, b) => a.start - b.start);
  let k = 0;
  for (const m of text.matchAll(WORD_RE)) {
    while (k < taken.length && taken[k].end <= m.index) k++;
    if (m.index < after || (k < taken.length && taken[k].start <= m.index)) continue;
    const w = readWords(text, m.index);
    if (!w) continue;
    // A lone plural multiplier ("millions of years", «миллионы лет», «тысячи поводов») states no number.
    if (/^[\p{L}]+$/u.test(text.slice(w.start, w.end)) && LONE_PLURAL.test(text.slice(w.start, w.end))) continue;
    after = w.end;
    out.push({
      value: w.value,
      start: w.start,
      end: w.end,
      sigDigits: null,
      lastPlace: null,
      word: true,
      signed: false,
    });
  }
  return out.sort((a, b) => a.start - b.start);
}

/** Whether the letters glued after a number at `end` are a unit ("87bytes", "575с", "24h", "5%") rather than a name. */
function glued(text: string, end: number): boolean {
  return /^(?:ms|мс|s|с|h|ч|min|d|kb|mb|gb|kib|mib|gib|hz|khz|mhz|ghz|mm|cm|m|km|мм|см|м|км|kg|mg|g|кг|мг|г|k|m|bn)(?![\p{L}])/iu.test(
    text.slice(end, end + 5),
  );
}
