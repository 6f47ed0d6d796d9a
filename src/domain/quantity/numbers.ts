/**
 * Numbers as measurements write them, English and Russian: digits with either convention of separators
 * ("1,200.5", «1 200,5», "1.2e3", "−0.45"), number words ("two thousand", "twenty-four", «тридцати трех»,
 * «двести»), halves ("half a day", «полтора», «полчаса», "one … and a half") and scale words after a number
 * ("163 million", «2,5 млн», «12 тыс.»). Each number carries its stated precision: the significant digits and the
 * place of the last written digit, so that "1.2" is known to ±0.05 and "1200" to ±50. Pure.
 *
 * Method: a digit numeral is read by its separators: a point or comma followed by exactly three digits and repeated
 * or mixed with the other separator is a thousands separator ("1,200.5", "1.200,5"); a lone comma is a decimal comma
 * in Russian text and before anything but exactly three digits in English ("2,5" → 2.5, "1,200" → 1200 in English,
 * 1.2 in Russian). Words are folded by {@link foldNumberRun} of the meaning module (multipliers multiply, a smaller
 * word adds to a round one). Limits: fractions written as words other than halves ("two thirds"), Roman numerals
 * and numbers split across a line break are not read; ordinals ("first", «пятый») are never amounts.
 */
import { EN_ORDINALS, foldNumberRun, NUMBER_WORDS, type RunNumber } from "../meaning/number-words.ts";

/** A number read from text: its value, and how precisely it was written. */
export interface ReadNumber {
  value: number;
  /** Significant digits as written (trailing zeros of an integer are not counted); null for words. */
  sigDigits: number | null;
  /** Value of one unit in the last written digit's place (1.25 → 0.01, 1200 → 100, 3 → 1); null for words. */
  lastPlace: number | null;
}

/** Regex source of a digit numeral (sign, separators, decimals, exponent). */
export const DIGITS =
  "[-−+]?(?:\\d{1,3}(?:[\\u00a0\\u202f\\u2009 ]\\d{3})+(?:[.,]\\d+)?|\\d+(?:[.,]\\d+)*(?:[eE][-+]?\\d+)?)(?!\\d)";

const ORDINAL_EN = new Set(EN_ORDINALS);
const ORDINAL_RU =
  /^(?:перв|втор|трет|четверт|пят|шест|седьм|восьм|девят|десят)(?:ый|ий|ого|ому|ым|ом|ая|ой|ую|ое|ые|ых|ыми|ье|ья|ьи|ьего|ьей)$/u;

/** The value of a cardinal number word (lower case, ё as е), or null when it is none (ordinals are none). */
export function cardinalWord(word: string): { value: number; multiplier: boolean } | null {
  const w = word.toLowerCase().replace(/ё/g, "е");
  if (ORDINAL_EN.has(w) || ORDINAL_RU.test(w)) return null;
  if (w === "dozen") return { value: 12, multiplier: true };
  if (w === "trillion") return { value: 1e12, multiplier: true };
  if (w === "тыс") return { value: 1000, multiplier: true };
  return NUMBER_WORDS.get(w) ?? null;
}

/**
 * Reads a digit numeral (a match of {@link DIGITS}); `lang` decides a lone comma. Returns null for strings that are
 * no single number (versions "1.2.3").
 */
export function readDigits(raw: string, lang: "en" | "ru"): ReadNumber | null {
  let s = raw.replace(/[\u00a0\u202f\u2009 ]/gu, "").replace("−", "-");
  let exp = 0;
  const e = /[eE]([-+]?\d+)$/.exec(s);
  if (e) {
    exp = Number(e[1]);
    s = s.slice(0, e.index);
  }
  const seps = s.match(/[.,]/g) ?? [];
  let intPart = s;
  let frac = "";
  if (seps.length === 1) {
    const [a, b] = s.split(/[.,]/);
    const thousands = seps[0] === "," && lang === "en" && b.length === 3 && !/^[-+]?0$/.test(a);
    if (thousands) intPart = a + b;
    else (intPart = a), (frac = b);
  } else if (seps.length > 1) {
    const last = seps[seps.length - 1];
    const groups = s.split(/[.,]/);
    const mixed = new Set(seps).size === 2 && seps.slice(0, -1).every((x) => x !== last);
    const allThousands = groups.slice(1).every((g) => g.length === 3);
    if (mixed && groups.slice(1, -1).every((g) => g.length === 3)) {
      frac = groups.pop() ?? "";
      intPart = groups.join("");
    } else if (!mixed && new Set(seps).size === 1 && allThousands) intPart = groups.join("");
    else return null;
  }
  if (!/^[-+]?\d+$/.test(intPart) || !/^\d*$/.test(frac)) return null;
  const value = Number(`${intPart}.${frac || "0"}`) * 10 ** exp;
  const digits = (intPart.replace(/^[-+]/, "") + frac).replace(/^0+/, "");
  const sigDigits = frac ? Math.max(1, digits.length) : Math.max(1, digits.replace(/0+$/, "").length);
  const trailingZeros = frac ? 0 : intPart.length - intPart.replace(/0+$/, "").length;
  const lastPlace = frac ? 10 ** (exp - frac.length) : 10 ** (exp + (value === 0 ? 0 : trailingZeros));
  return { value, sigDigits, lastPlace };
}

/** A run of number words read at a position: its value and the UTF-16 span it covers. */
export interface WordNumber {
  value: number;
  start: number;
  end: number;
}

const WORD = /[\p{L}]+/uy;
const JOINER = /(?:[\s-]+|\s+and\s+|\s+и\s+)/uy;

/**
 * Reads the run of cardinal number words starting at `at` ("twenty-four", "six hundred", «тридцати трех», «две
 * тысячи», "a million", "one and a half"); null when no number word starts there. The run stops before a word that
 * is no number, and a run that would read as two numbers ("шестьдесят-семьдесят") stops after the first.
 */
export function readWords(text: string, at: number): WordNumber | null {
  const half = /^half\s+an?(?![\p{L}])/iu.exec(text.slice(at, at + 8));
  if (half) return { value: 0.5, start: at, end: at + half[0].length };
  const run: RunNumber[] = [];
  let end = at;
  let pos = at;
  let first = true;
  for (;;) {
    WORD.lastIndex = pos;
    const m = WORD.exec(text);
    if (!m) break;
    const w = m[0].toLowerCase();
    let n = cardinalWord(w);
    if (!n && first && (w === "a" || w === "an")) {
      // "a million", "a hundred", "a dozen": the article counts as one when a multiplier follows.
      const next = /^\s+([\p{L}]+)/u.exec(text.slice(m.index + m[0].length));
      const nm = next ? cardinalWord(next[1]) : null;
      n = nm?.multiplier ? { value: 1, multiplier: false } : null;
    }
    if (!n) break;
    const trial = foldNumberRun([...run, { ...n, word: true }]);
    if (trial.length > 1) break;
    run.push({ ...n, word: true });
    end = m.index + m[0].length;
    first = false;
    JOINER.lastIndex = end;
    const j = JOINER.exec(text);
    if (!j) break;
    pos = end + j[0].length;
  }
  if (!run.length) return null;
  const folded = foldNumberRun(run);
  if (folded.length !== 1) return null;
  const andHalf = /^\s+(?:and\s+a\s+half|с\s+половиной)(?![\p{L}])/iu.exec(text.slice(end, end + 20));
  return andHalf
    ? { value: folded[0] + 0.5, start: at, end: end + andHalf[0].length }
    : { value: folded[0], start: at, end };
}

/** Scale words after a number: "million", «млн», «тыс.», "bn"; the factor, or 0 when `word` is none. */
export function scaleWord(word: string): number {
  const w = word.toLowerCase().replace(/\.$/, "");
  if (w === "k" || w === "тыс" || w === "thousand") return 1e3;
  if (w === "m" || w === "mn" || w === "млн" || w === "million") return 1e6;
  if (w === "bn" || w === "млрд" || w === "billion") return 1e9;
  if (w === "trillion" || w === "трлн") return 1e12;
  const n = cardinalWord(w);
  return n?.multiplier && n.value >= 1000 ? n.value : 0;
}
