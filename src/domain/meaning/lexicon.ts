/**
 * Word lists the meaning guard (domain/meaning/statement.ts, domain/meaning/meaning.ts) reads, English and Russian, all lower case
 * with ё folded to е: negations, filler words, month and weekday names, units of measure and currencies, and
 * words of direction (increase/decrease). Hand-written here; no external source beyond ordinary grammar.
 */

/** English negators; contractions ("doesn't") are split into their verb and "not" before this set is read. */
export const EN_NEGATIONS: ReadonlySet<string> = new Set([
  "not",
  "no",
  "never",
  "none",
  "nor",
  "neither",
  "nobody",
  "nothing",
  "nowhere",
  "without",
  "cannot",
]);

/** Russian negators that count one each: the particle, the predicative words and "без". */
export const RU_NEGATIONS: ReadonlySet<string> = new Set(["не", "нет", "нельзя", "без"]);

/**
 * Negators that negate nothing in an idiom: "тем не менее" (nevertheless), "not only" / "не только" (… but also).
 * Keyed by the negator: [word before it or "", word after it].
 */
export const NEGATION_IDIOMS: ReadonlyArray<readonly [string, string]> = [
  ["тем", "менее"],
  ["", "only"],
  ["", "только"],
];

/**
 * Russian negative pronouns and adverbs ("никогда", "ничего", "ни"): negative concord makes "никогда не" ONE
 * negation, so these count only in a text that has no не/нет/нельзя at all (then once).
 */
export const RU_NI_WORD =
  /^ни(?:|когда|кто|кого|кому|кем|ком|что|чего|чему|чем|где|куда|откуда|как|сколько|чей|чья|чье|чьи|какой|какого|какому|каким|каком|какая|какую|какое|какие|каких|какими)$/u;

/**
 * Words that only carry a negation's grammar and are left out when the rest of two statements is compared:
 * English do-support ("does not reduce" vs "reduces"), negative-polarity "any"/"ever", Russian "есть" ("есть
 * книга" vs "нет книги") and "можно", the positive of "нельзя" ("курить можно" vs "курить нельзя").
 */
export const NEGATION_AUXILIARIES: ReadonlySet<string> = new Set(["do", "does", "did", "any", "ever", "есть", "можно"]);

/**
 * Words whose presence does not change a statement: articles and intensifiers. Deliberately tiny: "before"/"after",
 * "more"/"less", "бы" and the like change meaning and are never ignored.
 */
export const FILLER: ReadonlySet<string> = new Set([
  "a",
  "an",
  "the",
  "very",
  "really",
  "quite",
  "just",
  "also",
  "очень",
  "же",
  "вот",
  "ведь",
  "ну",
]);

/** `stem` with each of `endings` (a Russian word's case forms). */
export function forms(stem: string, endings: string[]): string[] {
  return endings.map((e) => stem + e);
}

const SOFT = ["ь", "я", "е", "ем", "ю"];
const HARD = ["", "а", "е", "ом", "у"];
const RU_MONTH_FORMS: string[][] = [
  forms("январ", SOFT),
  forms("феврал", SOFT),
  forms("март", HARD),
  forms("апрел", SOFT),
  ["май", "мая", "мае", "маем", "маю"],
  forms("июн", SOFT),
  forms("июл", SOFT),
  forms("август", HARD),
  forms("сентябр", SOFT),
  forms("октябр", SOFT),
  forms("ноябр", SOFT),
  forms("декабр", SOFT),
];
const EN_MONTHS = [
  "january",
  "february",
  "march",
  "april",
  "may",
  "june",
  "july",
  "august",
  "september",
  "october",
  "november",
  "december",
];
const EN_MONTH_ABBR = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];
const RU_MONTH_ABBR = ["янв", "фев", "мар", "апр", "мая", "июн", "июл", "авг", "сен", "окт", "ноя", "дек"];

/** Month name (any case form, English abbreviations too) → month number 1–12. */
export const MONTHS: ReadonlyMap<string, number> = (() => {
  const m = new Map<string, number>();
  for (let i = 0; i < 12; i++) {
    for (const w of [EN_MONTHS[i], EN_MONTH_ABBR[i], RU_MONTH_ABBR[i], ...RU_MONTH_FORMS[i]]) m.set(w, i + 1);
  }
  m.set("sept", 9).set("сент", 9).set("нояб", 11);
  return m;
})();

/** Month names that are also ordinary words ("may", "march"): they count as months only next to a number. */
export const AMBIGUOUS_MONTHS: ReadonlySet<string> = new Set(["may", "march", "mar", "dec", "мар", "дек"]);

/** Weekday name → day 1 (Monday) – 7. Russian "среда" is left out: it is also "environment". */
export const WEEKDAYS: ReadonlyMap<string, number> = (() => {
  const m = new Map<string, number>();
  for (const [i, w] of ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"].entries())
    m.set(w, i + 1);
  const ru: Array<[number, string[]]> = [
    [1, [...forms("понедельник", HARD), "понедельникам"]],
    [2, [...forms("вторник", HARD), "вторникам"]],
    [4, [...forms("четверг", HARD), "четвергам"]],
    [5, ["пятница", "пятницы", "пятнице", "пятницу", "пятницей", "пятницам", "пятниц"]],
    [6, ["суббота", "субботы", "субботе", "субботу", "субботой", "субботам", "суббот"]],
    [7, ["воскресенье", "воскресенья", "воскресенью", "воскресеньем", "воскресеньям", "воскресений"]],
  ];
  for (const [d, ws] of ru) for (const w of ws) m.set(w, d);
  return m;
})();

const UP_PREFIXES = ["increas", "увелич", "повыш", "повыс", "возраст", "вырос"];
const DOWN_PREFIXES = ["decreas", "reduc", "declin", "уменьш", "сниж", "сниз", "пониж", "пониз", "сократ", "сокращ"];
const UP_WORDS = new Set([
  "raise",
  "raised",
  "raises",
  "raising",
  "rise",
  "rises",
  "rising",
  "rose",
  "risen",
  "grow",
  "grows",
  "grew",
  "grown",
  "growing",
  "higher",
  "greater",
  "larger",
  "more",
  "gain",
  "gains",
  "gained",
  "рост",
  "роста",
  "растет",
  "растут",
  "рос",
  "росла",
  "росли",
  "выше",
  "больше",
  "более",
]);
const DOWN_WORDS = new Set([
  "lower",
  "lowers",
  "lowered",
  "lowering",
  "fall",
  "falls",
  "falling",
  "fell",
  "fallen",
  "drop",
  "drops",
  "dropped",
  "dropping",
  "shrink",
  "shrinks",
  "shrank",
  "shrunk",
  "less",
  "fewer",
  "smaller",
  "loss",
  "lost",
  "падает",
  "падают",
  "упал",
  "упала",
  "упали",
  "упало",
  "падение",
  "падения",
  "ниже",
  "меньше",
  "менее",
]);

/** Direction a word states: +1 (increase, больше), -1 (decrease, меньше) or 0 (none). `w` is lower case. */
export function directionOf(w: string): 1 | -1 | 0 {
  if (UP_WORDS.has(w) || UP_PREFIXES.some((p) => w.startsWith(p))) return 1;
  if (DOWN_WORDS.has(w) || DOWN_PREFIXES.some((p) => w.startsWith(p))) return -1;
  return 0;
}
