/**
 * Numbers written in words, English and Russian (cardinals in every case form, Russian collectives, ordinals up to
 * ten or twelve), and the canonical form of numbers written in digits. Chekhov writes "двести верст", Botchan
 * "three yen": a guard that read only digits would let "двести верст" and "триста верст" merge.
 */

/** A number word: its value, and whether it multiplies what precedes it ("two hundred", "две тысячи"). */
export interface NumberWord {
  value: number;
  multiplier: boolean;
}

const EN_UNITS = [
  "zero",
  "one",
  "two",
  "three",
  "four",
  "five",
  "six",
  "seven",
  "eight",
  "nine",
  "ten",
  "eleven",
  "twelve",
  "thirteen",
  "fourteen",
  "fifteen",
  "sixteen",
  "seventeen",
  "eighteen",
  "nineteen",
];
const EN_TENS = ["twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"];
/** English ordinal words "first" … "twelfth", in order (index + 1 is the number). */
export const EN_ORDINALS: readonly string[] = [
  "first",
  "second",
  "third",
  "fourth",
  "fifth",
  "sixth",
  "seventh",
  "eighth",
  "ninth",
  "tenth",
  "eleventh",
  "twelfth",
];

/** Russian cardinals 1–19, 20, 30 … 900 by value, every case form (ё written as е). */
const RU_CARDINALS: Array<[number, string]> = [
  [1, "один одна одно одного одной одному одним одном одну одни одних одними"],
  [2, "два две двух двум двумя двое двоих"],
  [3, "три трех трем тремя трое троих"],
  [4, "четыре четырех четырем четырьмя четверо четверых"],
  [5, "пять пяти пятью пятеро пятерых"],
  [6, "шесть шести шестью шестеро"],
  [7, "семь семи семеро"],
  [8, "восемь восьми восемью восьмью"],
  [9, "девять девяти девятью"],
  [10, "десять десяти десятью"],
  [40, "сорок сорока"],
  [90, "девяносто девяноста"],
  [100, "сто ста"],
  [1.5, "полтора полторы"],
  [50, "пятьдесят пятидесяти пятьюдесятью"],
  [60, "шестьдесят шестидесяти шестьюдесятью"],
  [70, "семьдесят семидесяти семьюдесятью"],
  [80, "восемьдесят восьмидесяти восемьюдесятью"],
  [200, "двести двухсот двумстам двумястами двухстах"],
  [300, "триста трехсот тремстам тремястами трехстах"],
  [400, "четыреста четырехсот четыремстам четырьмястами четырехстах"],
  [500, "пятьсот пятисот пятистам пятьюстами пятистах"],
  [600, "шестьсот шестисот шестистам шестьюстами шестистах"],
  [700, "семьсот семисот семистам семьюстами семистах"],
  [800, "восемьсот восьмисот восьмистам восемьюстами восьмистах"],
  [900, "девятьсот девятисот девятистам девятьюстами девятистах"],
];
/** Russian numerals in -ать (11–19, 20, 30): nominative/accusative, and the -и / -ью forms of the other cases. */
const RU_ADCAT: Array<[number, string]> = [
  [11, "одиннадцать"],
  [12, "двенадцать"],
  [13, "тринадцать"],
  [14, "четырнадцать"],
  [15, "пятнадцать"],
  [16, "шестнадцать"],
  [17, "семнадцать"],
  [18, "восемнадцать"],
  [19, "девятнадцать"],
  [20, "двадцать"],
  [30, "тридцать"],
];
const RU_MULTIPLIERS: Array<[number, string]> = [
  [1000, "тысяча тысячи тысяче тысячу тысячей тысячью тысяч тысячам тысячами тысячах тыс"],
  [1e6, "миллион миллиона миллиону миллионом миллионе миллионы миллионов миллионам миллионами млн"],
  [1e9, "миллиард миллиарда миллиарду миллиардом миллиарде миллиарды миллиардов млрд"],
];
const HARD_ADJ = ["ый", "ого", "ому", "ым", "ом", "ая", "ой", "ую", "ое", "ые", "ых", "ыми"];
const RU_ORDINALS: Array<[number, string, string[]]> = [
  [1, "перв", HARD_ADJ],
  [2, "втор", HARD_ADJ],
  [4, "четверт", HARD_ADJ],
  [5, "пят", HARD_ADJ],
  [6, "шест", HARD_ADJ],
  [7, "седьм", HARD_ADJ],
  [8, "восьм", HARD_ADJ],
  [9, "девят", HARD_ADJ],
  [10, "десят", HARD_ADJ],
  [3, "трет", ["ий", "ьего", "ьему", "ьим", "ьем", "ья", "ьей", "ью", "ье", "ьи", "ьих", "ьими"]],
];

/** Lower-case number word → value (see module doc). */
export const NUMBER_WORDS: ReadonlyMap<string, NumberWord> = (() => {
  const m = new Map<string, NumberWord>();
  const add = (value: number, words: string, multiplier = false) => {
    for (const w of words.split(" ")) m.set(w, { value, multiplier });
  };
  for (const [i, w] of EN_UNITS.entries()) add(i, w);
  for (const [i, w] of EN_TENS.entries()) add(20 + 10 * i, w);
  for (const [i, w] of EN_ORDINALS.entries()) add(i + 1, w);
  add(100, "hundred hundreds", true);
  add(1000, "thousand thousands", true);
  add(1e6, "million millions", true);
  add(1e9, "billion billions", true);
  for (const [v, ws] of RU_CARDINALS) add(v, ws);
  for (const [v, w] of RU_ADCAT) add(v, `${w} ${w.slice(0, -1)}и ${w}ю`);
  for (const [v, ws] of RU_MULTIPLIERS) add(v, ws, true);
  for (const [v, stem, ends] of RU_ORDINALS) add(v, ends.map((e) => stem + e).join(" "));
  return m;
})();

/**
 * Canonical form of a number written in digits: thousands separators dropped ("1,000", "50 000" → "1000",
 * "50000"), a decimal comma read as a point ("3,5" → "3.5"), and the value printed back ("5.0" → "5"). Strings
 * that are not one number (versions "1.2.3") are returned as they are.
 */
export function canonicalDigits(raw: string): string {
  let s = raw.replace(/[\u00a0\u202f ]/gu, "");
  if (/^\d{1,3}(?:,\d{3})+(?:\.\d+)?$/.test(s)) s = s.replaceAll(",", "");
  else if (/^\d+,\d+$/.test(s)) s = s.replace(",", ".");
  return /^\d+(?:\.\d+)?$/.test(s) ? String(Number(s)) : s;
}

/** One number of a run: its value, whether it multiplies ("hundred", "тысяч"), whether it was written in words. */
export interface RunNumber {
  value: number;
  multiplier: boolean;
  word: boolean;
}

/**
 * Folds a run of adjacent numbers into the numbers it states: multipliers multiply ("two hundred" → 200,
 * "163 million" → 163000000, "одна тысяча пять" → 1005), a smaller number word adds to a round one ("twenty five"
 * → 25, "двести пятьдесят" → 250); anything else starts a new number ("шестьдесят-семьдесят" → 60, 70; "10-11"
 * → 10, 11). Digits never add to digits.
 */
export function foldNumberRun(run: RunNumber[]): number[] {
  const out: number[] = [];
  let total = 0;
  let current: number | null = null;
  let lastWord = false;
  const flush = () => {
    if (current !== null || total) out.push(total + (current ?? 0));
    total = 0;
    current = null;
  };
  for (const { value, multiplier, word } of run) {
    if (multiplier) {
      current = (current ?? 1) * value;
      if (value >= 1000) (total += current), (current = null);
    } else if (word && lastWord && current === null && total > 0) {
      current = value;
    } else if (
      word &&
      lastWord &&
      current !== null &&
      value < current &&
      current % 10 ** String(Math.trunc(value)).length === 0
    ) {
      current += value;
    } else {
      flush();
      current = value;
    }
    lastWord = word;
  }
  flush();
  return out;
}
