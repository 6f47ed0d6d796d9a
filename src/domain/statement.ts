/**
 * Reads one statement (an atom's text, English or Russian) into the features that decide whether two close
 * statements say the same thing: negations, numbers (digits or words), units, dates, named entities, codes,
 * directions, the content words in order, and "the rest" (the statement outside those features, light-stemmed).
 * Pure; never throws. Used by domain/meaning.ts.
 */
import { lightStem } from "./light-stem.ts";
import {
  AMBIGUOUS_MONTHS, directionOf, EN_NEGATIONS, FILLER, MONTHS, NEGATION_AUXILIARIES, PREFIX_UNITS, RU_NEGATIONS, RU_NI_WORD,
  UNITS, WEEKDAYS,
} from "./meaning-lexicon.ts";
import { canonicalDigits, foldNumberRun, NUMBER_WORDS, type RunNumber } from "./number-words.ts";

/** The features of one statement; every list is sorted unless it says "in order". */
export interface Statement {
  /** Content words in order: lower case, ё→е, filler dropped, numbers and units in canonical form. */
  words: string[];
  /** Light-stemmed words in order, without negations, numbers, units, dates, directions and filler. */
  rest: string[];
  /** Negations, counted once per clause for Russian negative concord ("никогда не" is one). */
  negations: number;
  /** Light stem of the word after each counted negation ("does not reduce" → "reduc"). */
  negatedWords: string[];
  /** Numbers in canonical form ("двести" → "200", "1,000" → "1000", "-5"). */
  numbers: string[];
  /** Canonical units of the numbers ("km", "mile", "verst", "%", "°c", "$"). */
  units: string[];
  /** Month and weekday names as "month:3", "weekday:5". */
  dates: string[];
  /** Light stems of capitalized words not at a sentence start, and of words with inner capitals ("OkCupid"). */
  entities: string[];
  /** Light stems of capitalized words at a sentence start: entities only if the other text names them mid-sentence. */
  initialCaps: string[];
  /** Tokens mixing letters and digits ("x86", "armv7"), lower case. */
  codes: string[];
  /** Directions stated (+1 increase, -1 decrease), see meaning-lexicon.ts. */
  directions: number[];
  /** Written without lower-case letters (a shouted line, a heading): its capitals say nothing about names. */
  caseless: boolean;
}

type Kind = "word" | "number" | "code" | "symbol";

interface Tok {
  raw: string;
  lower: string;
  kind: Kind;
  initial: boolean;
  /** Gap text before the token. */
  gap: string;
  num?: RunNumber;
  /** For digit tokens: the canonical digits. */
  digits?: string;
  negative?: boolean;
}

const TOKEN = /\d{1,3}(?:[\u00a0\u202f ]\d{3})+(?!\d)|[\p{L}\p{N}]+(?:[.,'’][\p{L}\p{N}]+)*|[$€£₽%°]/gu;
const CITATION = /\[\s*\d+(?:\s*[,;–-]\s*\d+)*\s*\]|\[(?:citation|clarification) needed\]/giu;
const SENTENCE_GAP = /[.!?…\n]|:\s*["«“„]/u;
const CONTRACTION = /^(\p{L}+)n['’]t$/u;
const CONTRACTION_BASE: Record<string, string> = { ca: "can", wo: "will", sha: "shall", ai: "is" };

const fold = (s: string) => s.toLowerCase().replaceAll("ё", "е");

function numberToken(raw: string, t: Omit<Tok, "kind" | "lower" | "raw">): Tok {
  const digits = canonicalDigits(raw);
  const value = Number(digits);
  return { ...t, raw, lower: digits, kind: "number", digits, num: { value: Number.isFinite(value) ? value : NaN, multiplier: false, word: false } };
}

/** Splits one matched token into tokens: contractions, glued number+unit, ordinals, number words, codes. */
function classify(raw: string, t: Omit<Tok, "kind" | "lower" | "raw">): Tok[] {
  const lower = fold(raw);
  if (/^[$€£₽%°]$/u.test(raw)) return [{ ...t, raw, lower, kind: "symbol" }];
  if (/^\d[\d\u00a0\u202f .,]*$/u.test(raw)) return [numberToken(raw, t)];
  const ordinal = /^(\d+)(?:st|nd|rd|th)$/iu.exec(raw);
  if (ordinal) return [numberToken(ordinal[1], t)];
  const glued = /^(\d+(?:[.,]\d+)?)(\p{L}+)$/u.exec(raw);
  if (glued && UNITS.has(fold(glued[2]))) {
    return [numberToken(glued[1], t), { ...t, gap: "", initial: false, raw: glued[2], lower: fold(glued[2]), kind: "word" }];
  }
  if (/\p{N}/u.test(raw) && /\p{L}/u.test(raw)) return [{ ...t, raw, lower, kind: "code" }];
  const c = CONTRACTION.exec(lower);
  if (c || lower === "cannot") {
    const base = c ? (CONTRACTION_BASE[c[1]] ?? c[1]) : "can";
    return [{ ...t, raw: base, lower: base, kind: "word" }, { ...t, gap: " ", initial: false, raw: "not", lower: "not", kind: "word" }];
  }
  const nw = NUMBER_WORDS.get(lower);
  if (nw) return [{ ...t, raw, lower, kind: "number", num: { ...nw, word: true } }];
  return [{ ...t, raw, lower, kind: "word" }];
}

/** Tokens of a text, with sentence starts and negative signs marked. Citation markers ("[12]") are dropped. */
function tokenize(text: string): Tok[] {
  const clean = text.normalize("NFKC").replace(CITATION, " ");
  const out: Tok[] = [];
  let prevEnd = 0;
  for (const m of clean.matchAll(TOKEN)) {
    const gap = clean.slice(prevEnd, m.index);
    const initial = out.length === 0 || SENTENCE_GAP.test(gap);
    const negative = (out.length === 0 ? /^\s*[-−]$/u : /\s[-−]$/u).test(gap);
    out.push(...classify(m[0], { initial, gap, negative }));
    prevEnd = m.index + m[0].length;
  }
  return out;
}

/** The canonical unit of the token after a number run ending at `k`, and how many tokens it takes (0 if none). */
function unitAfter(toks: Tok[], k: number, last: number | undefined): [string, number] | null {
  const u = toks[k + 1];
  if (!u || !/^(?:\s*|\s*[-–]\s*)$/u.test(u.gap)) return null;
  if (u.raw === "%") return ["%", 1];
  if (u.raw === "°") {
    const scale = toks[k + 2];
    const letter = scale && /^\s?$/u.test(scale.gap) ? { c: "°c", с: "°c", f: "°f" }[scale.lower] : undefined;
    return letter ? [letter, 2] : ["°", 1];
  }
  if (u.kind !== "word" && !(u.kind === "number" && u.lower === "second")) return null;
  if ((u.lower === "г" || u.lower === "гг") && last !== undefined && last >= 1000 && last < 3000) return ["year", 1];
  const unit = UNITS.get(u.lower);
  return unit ? [unit, 1] : null;
}

interface NumberRead {
  numbers: string[];
  units: string[];
  /** Indexes of tokens that are numbers, units or unit symbols. */
  used: Set<number>;
  /** Canonical replacement of each used token for the content words ("" drops it). */
  wordOf: Map<number, string>;
}

/** Reads every number run, with its unit after it (or a currency symbol before it). */
function readNumbers(toks: Tok[]): NumberRead {
  const r: NumberRead = { numbers: [], units: [], used: new Set(), wordOf: new Map() };
  for (let j = 0; j < toks.length; j++) {
    if (toks[j].kind !== "number") continue;
    let k = j;
    // "second" after a number is its unit ("1 second"), not the ordinal.
    while (toks[k + 1]?.kind === "number" && toks[k + 1].lower !== "second" && /^(?:\s+|-)$/u.test(toks[k + 1].gap)) k++;
    const run = toks.slice(j, k + 1);
    const folded = run.some((t) => Number.isNaN(t.num!.value)) ? run.map((t) => t.digits ?? t.lower) : foldNumberRun(run.map((t) => t.num!)).map(String);
    if (toks[j].negative && folded.length) folded[0] = "-" + folded[0];
    r.numbers.push(...folded);
    for (let i = j; i <= k; i++) (r.used.add(i), r.wordOf.set(i, i === j ? folded.join(" ") : ""));
    const unit = unitAfter(toks, k, Number(folded[folded.length - 1]));
    if (unit) {
      r.units.push(unit[0]);
      for (let i = 1; i <= unit[1]; i++) (r.used.add(k + i), r.wordOf.set(k + i, i === 1 ? unit[0] : ""));
    }
    const before = toks[j - 1];
    if (before?.kind === "symbol" && PREFIX_UNITS.has(before.raw)) {
      r.units.push(UNITS.get(before.raw) ?? before.raw);
      r.used.add(j - 1);
      r.wordOf.set(j - 1, UNITS.get(before.raw) ?? before.raw);
    }
    j = k + (unit ? unit[1] : 0);
  }
  return r;
}

/** Indexes of the negations that count (a Russian ни-word counts, once, only where no не/нет/нельзя/без is). */
function negationIndexes(toks: Tok[]): number[] {
  const en = toks.flatMap((t, i) => (t.kind === "word" && EN_NEGATIONS.has(t.lower) ? [i] : []));
  const ru = toks.flatMap((t, i) => (t.kind === "word" && RU_NEGATIONS.has(t.lower) ? [i] : []));
  const ni = ru.length ? -1 : toks.findIndex((t) => t.kind === "word" && RU_NI_WORD.test(t.lower));
  return [...en, ...ru, ...(ni >= 0 ? [ni] : [])].sort((x, y) => x - y);
}

const isNegationWord = (t: Tok) => t.kind === "word" && (EN_NEGATIONS.has(t.lower) || RU_NEGATIONS.has(t.lower) || RU_NI_WORD.test(t.lower));

function dateOf(toks: Tok[], i: number): string | null {
  const t = toks[i];
  if (t.kind !== "word") return null;
  const day = WEEKDAYS.get(t.lower);
  if (day) return `weekday:${day}`;
  const month = MONTHS.get(t.lower);
  if (!month) return null;
  if (AMBIGUOUS_MONTHS.has(t.lower) && toks[i - 1]?.kind !== "number" && toks[i + 1]?.kind !== "number") return null;
  return `month:${month}`;
}

/** Reads a statement's features (see {@link Statement}). Pure; never throws; empty text gives empty features. */
export function readStatement(text: string): Statement {
  const toks = tokenize(text);
  const nums = readNumbers(toks);
  const negs = negationIndexes(toks);
  const s: Statement = {
    words: [], rest: [], negations: negs.length, negatedWords: [], numbers: nums.numbers.sort(), units: nums.units.sort(),
    dates: [], entities: [], initialCaps: [], codes: [], directions: [], caseless: !/\p{Ll}/u.test(text) && /\p{Lu}/u.test(text),
  };
  for (const i of negs) {
    const head = toks.slice(i + 1).find((t) => t.kind !== "symbol" && !isNegationWord(t) && !FILLER.has(t.lower) && !NEGATION_AUXILIARIES.has(t.lower));
    if (head) s.negatedWords.push(head.digits ?? lightStem(head.lower));
  }
  toks.forEach((t, i) => readToken(s, toks, i, nums));
  for (const list of [s.negatedWords, s.dates, s.entities, s.initialCaps, s.codes, s.directions]) list.sort();
  return s;
}

/** Adds token i to the statement's words, rest and word-level features. */
function readToken(s: Statement, toks: Tok[], i: number, nums: NumberRead): void {
  const t = toks[i];
  if (nums.used.has(i)) {
    const w = nums.wordOf.get(i);
    if (w) s.words.push(...w.split(" "));
    return;
  }
  if (t.kind === "symbol" || FILLER.has(t.lower)) return;
  s.words.push(t.lower);
  if (t.kind === "code") {
    s.codes.push(t.lower);
    s.rest.push(t.lower);
    return;
  }
  if (t.kind === "number") return; // unreachable: readNumbers puts every number in a run (kept out of the rest)
  const date = dateOf(toks, i);
  const direction = directionOf(t.lower);
  if (date) s.dates.push(date);
  else if (direction) s.directions.push(direction);
  if (date || direction || isNegationWord(t) || NEGATION_AUXILIARIES.has(t.lower)) return;
  const stem = lightStem(t.lower);
  s.rest.push(stem);
  if (t.raw.length < 2 || !/\p{Lu}/u.test(t.raw)) return;
  if (!t.initial || /\p{Lu}/u.test(t.raw.slice(1))) s.entities.push(stem);
  else s.initialCaps.push(stem);
}
