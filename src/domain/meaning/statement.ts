/**
 * Reads one statement (an atom's text, English or Russian) into the features that decide whether two close
 * statements say the same thing: negations, numbers (digits or words), units and rates, comparisons, dates, named
 * entities, codes, directions, antonyms, quantifiers, the content words in order, and "the rest" (the statement
 * outside those features, light-stemmed). Pure; never throws. Used by domain/meaning/meaning.ts.
 */
import { lightStem } from "./light-stem.ts";
import {
  AMBIGUOUS_MONTHS,
  directionOf,
  EN_NEGATIONS,
  FILLER,
  MONTHS,
  NEGATION_AUXILIARIES,
  NEGATION_IDIOMS,
  RU_NEGATIONS,
  RU_NI_WORD,
  WEEKDAYS,
} from "./lexicon.ts";
import { flipPole, polesOf, PREPOSITION_VARIANTS, QUANTIFIER_IDIOMS, QUANTIFIERS } from "./opposites.ts";
import { type Marks, readComparisons, readRates } from "./qualifiers.ts";
import { readNumbers } from "./statement-numbers.ts";
import { ABILITY, HEDGES, verbBase } from "./verb-forms.ts";
import { type Tok, tokenize } from "./statement-tokens.ts";
import { memoByWord } from "./word-memo.ts";
import { ENGLISH_STOP_WORDS, RUSSIAN_STOP_WORDS } from "../stopwords.ts";

/** The features of one statement; every list is sorted unless it says "in order". */
export interface Statement {
  /** Content words in order: lower case, ё→е, filler dropped, numbers, units, rates and comparators in canonical form. */
  words: string[];
  /** Light-stemmed words in order, without negations, numbers, units, dates, directions, antonyms, quantifiers, filler. */
  rest: string[];
  /** Negations, counted once per clause for Russian negative concord ("никогда не" is one); a negated antonym is none. */
  negations: number;
  /** Light stem of the word after each counted negation ("does not reduce" → "reduc"). */
  negatedWords: string[];
  /** Numbers in canonical form ("двести" → "200", "1,000" → "1000", "-5"); identifiers are not numbers here. */
  numbers: string[];
  /** Identifiers: which thing the statement is about ("widget#5" of "Widget 5", "group#a"), see statement-numbers.ts. */
  ids: string[];
  /** Canonical units of the numbers ("km", "mile", "verst", "%", "°c", "$") and rates ("/day", "/week"). */
  units: string[];
  /** Comparisons with the number they bound: "<0.05", ">=10" ("at least 10", "не менее 10", "10 or more"). */
  comparisons: string[];
  /** Month and weekday names as "month:3", "weekday:5". */
  dates: string[];
  /** Light stems of capitalized words not at a sentence start, and of words with inner capitals ("OkCupid"). */
  entities: string[];
  /** Light stems of capitalized words at a sentence start: entities only if the other text names them mid-sentence. */
  initialCaps: string[];
  /**
   * Light stems that may be names though nothing marks them mid-sentence: sentence-initial capitals that are not
   * stop words ("Smith wrote…"), and every non-stop word of a text without case (meaning.ts decides).
   */
  nameCandidates: string[];
  /** Capitalized words in order (not in a text without case): light stem, lower-case form, clause number from 0. */
  names: Array<{ stem: string; form: string; clause: number }>;
  /** Tokens mixing letters and digits ("x86", "armv7"), lower case. */
  codes: string[];
  /** Directions stated (+1 increase, -1 decrease), see meaning-lexicon.ts. */
  directions: number[];
  /** Antonym poles stated ("alive+", "before-"), see opposites.ts; a negated one is turned over ("not dead" → "alive+"). */
  poles: string[];
  /** Quantifier classes stated ("all", "most", "many", "some", "few"), see opposites.ts. */
  quantifiers: string[];
  /** Light stems of every word, in any role (unique): what "the other text contains the word" is checked against. */
  stems: string[];
  /** Hedges ("may", "might", "can", «может», «возможно»): the claim is stated as possible (verb-forms.ts). */
  hedges: number;
  /** "can" (an ability: a hedge only against a hedged statement, see verb-forms.ts). */
  abilities: number;
  /** Words in order as written (lower case), for telling Russian case endings apart in swapped roles (names.ts). */
  forms: string[];
  /** Written without lower-case letters (a shouted line, a heading): its capitals say nothing about names. */
  caseless: boolean;
  /**
   * Written without capitals (a line typed in lower case): its lack of capitals says nothing about names, so a cased
   * text's names are looked for among its words (names.ts); its words are not taken for names themselves.
   */
  lowercased: boolean;
}

const isNegationWord = (t: Tok) =>
  t.kind === "word" && (EN_NEGATIONS.has(t.lower) || RU_NEGATIONS.has(t.lower) || RU_NI_WORD.test(t.lower));

/** Indexes of the negations that count (a Russian ни-word counts, once, only where no не/нет/нельзя/без is). */
function negationIndexes(toks: Tok[], used: ReadonlySet<number>): number[] {
  const idiom = (i: number) =>
    NEGATION_IDIOMS.some(
      ([before, after]) => (!before || toks[i - 1]?.lower === before) && toks[i + 1]?.lower === after,
    );
  // The word test first: the idiom test looks at neighbours and is only worth it for a negation word.
  const free = (t: Tok, i: number) => t.kind === "word" && !used.has(i) && !idiom(i);
  const en: number[] = [];
  const ru: number[] = [];
  toks.forEach((t, i) => {
    if (EN_NEGATIONS.has(t.lower) && free(t, i)) en.push(i);
    if (RU_NEGATIONS.has(t.lower) && free(t, i)) ru.push(i);
  });
  const ni = ru.length ? -1 : toks.findIndex((t, i) => RU_NI_WORD.test(t.lower) && free(t, i));
  return [...en, ...ru, ...(ni >= 0 ? [ni] : [])].sort((x, y) => x - y);
}

/** A token a negation can bear on: not a symbol, another negation, a filler word or an auxiliary ("does", "есть"). */
const isHead = (t: Tok) =>
  t.kind !== "symbol" &&
  t.kind !== "cmp" &&
  !isNegationWord(t) &&
  !FILLER.has(t.lower) &&
  !NEGATION_AUXILIARIES.has(t.lower);

/** Counts the negations; a negation of an antonym ("not dead", "не опасно") turns the antonym over instead. */
function readNegations(s: Statement, toks: Tok[], used: ReadonlySet<number>): Set<number> {
  const flipped = new Set<number>();
  for (const i of negationIndexes(toks, used)) {
    let h = i + 1;
    while (h < toks.length && !isHead(toks[h])) h++;
    const head = toks[h];
    if (head?.kind === "word" && !used.has(h) && polesOfWord(head.lower).length) {
      flipped.add(h);
      continue;
    }
    s.negations++;
    if (head) s.negatedWords.push(head.digits ?? lightStem(verbBase(head.lower)));
  }
  return flipped;
}

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

/** The quantifier class of token i, or null ("any" is "all" only outside a negation; idioms such as "at all" are none). */
function quantifierOf(toks: Tok[], i: number, negations: number): string | null {
  const t = toks[i];
  const cls = t.lower === "any" ? (negations ? null : "all") : QUANTIFIERS.get(t.lower);
  if (!cls || t.raw.toLowerCase() === "всё") return null;
  const idiom = QUANTIFIER_IDIOMS.get(t.lower);
  if (idiom && (idiom[0].includes(toks[i - 1]?.lower ?? "") || idiom[1].includes(toks[i + 1]?.lower ?? "")))
    return null;
  return toks[i + 1]?.kind === "number" && (t.lower === "every" || t.lower === "each" || t.lower.startsWith("кажд"))
    ? null
    : cls;
}

/** `lightStem(verbBase(lower))`, per word (word-memo.ts). */
const wordStem = memoByWord((lower) => lightStem(verbBase(lower)));
/** The pure per-word lookups of opposites.ts and lexicon.ts, per word. */
const polesOfWord = memoByWord(polesOf);
const directionOfWord = memoByWord(directionOf);

const isStopWord = (w: string) => ENGLISH_STOP_WORDS.has(w) || RUSSIAN_STOP_WORDS.has(w);

/** Reads a statement's features (see {@link Statement}). Pure; never throws; empty text gives empty features. */
export function readStatement(text: string): Statement {
  const toks = tokenize(text);
  const caseless = !/\p{Ll}/u.test(text) && /\p{Lu}/u.test(text);
  const lowercased = /\p{Ll}/u.test(text) && !/\p{Lu}/u.test(text);
  const nums = readNumbers(toks, caseless || lowercased);
  const comparisons = readComparisons(toks, nums, nums.runs);
  const rates = readRates(toks, nums);
  const s: Statement = {
    words: [],
    rest: [],
    negations: 0,
    negatedWords: [],
    numbers: nums.numbers.sort(),
    ids: nums.ids.sort(),
    units: [...nums.units, ...rates].sort(),
    comparisons,
    dates: [],
    entities: [],
    initialCaps: [],
    nameCandidates: [],
    names: [],
    codes: [],
    directions: [],
    poles: [],
    quantifiers: [],
    stems: [],
    hedges: 0,
    abilities: 0,
    forms: [],
    caseless,
    lowercased,
  };
  const flipped = readNegations(s, toks, nums.used);
  const stems = new Set<string>();
  let clause = 0;
  toks.forEach((t, i) => {
    if (i > 0 && CLAUSE_GAP.test(t.gap)) clause++;
    readToken(s, toks, i, { marks: nums, flipped, stems, clause });
  });
  s.stems = [...stems].sort();
  for (const list of [
    s.negatedWords,
    s.dates,
    s.entities,
    s.initialCaps,
    s.codes,
    s.directions,
    s.poles,
    s.quantifiers,
  ])
    list.sort();
  return s;
}

/** Punctuation between clauses (or sentences). */
const CLAUSE_GAP = /[,;:()[\]—–.!?…]|\s-\s/u;

/** What readToken needs beyond the token: the read features, negated antonyms, the stems so far, the clause. */
interface ReadContext {
  marks: Marks;
  flipped: ReadonlySet<number>;
  stems: Set<string>;
  clause: number;
}

/** Adds token i to the statement's words, rest and word-level features. */
function readToken(s: Statement, toks: Tok[], i: number, { marks, flipped, stems, clause }: ReadContext): void {
  const t = toks[i];
  if (marks.used.has(i)) {
    const w = marks.wordOf.get(i);
    if (w) s.words.push(...w.split(" "));
    return;
  }
  if (t.kind === "symbol" || t.kind === "cmp" || FILLER.has(t.lower)) return;
  const lower = PREPOSITION_VARIANTS.get(t.lower) ?? t.lower;
  s.words.push(lower);
  if (t.kind === "code") {
    s.codes.push(lower);
    s.rest.push(lower);
    s.forms.push(lower);
    return;
  }
  if (t.kind === "number") return; // unreachable: readNumbers puts every number in a run (kept out of the rest)
  const stem = wordStem(lower);
  stems.add(stem);
  if (readWordFeature(s, toks, i, flipped) || isNegationWord(t) || NEGATION_AUXILIARIES.has(lower)) return;
  if (HEDGES.has(lower) || ABILITY.has(lower)) {
    if (HEDGES.has(lower)) s.hedges++;
    else s.abilities++;
    return;
  }
  s.rest.push(stem);
  s.forms.push(lower);
  if (s.caseless) {
    if (!isStopWord(lower)) s.nameCandidates.push(stem);
    return;
  }
  if (t.raw.length < 2 || !/\p{Lu}/u.test(t.raw)) return;
  s.names.push({ stem, form: lower, clause });
  if (!t.initial || /\p{Lu}/u.test(t.raw.slice(1))) s.entities.push(stem);
  else {
    s.initialCaps.push(stem);
    if (!isStopWord(lower)) s.nameCandidates.push(stem);
  }
}

/** Records a date, direction, quantifier or antonym word; true when token i was one (it stays out of the rest). */
function readWordFeature(s: Statement, toks: Tok[], i: number, flipped: ReadonlySet<number>): boolean {
  const lower = toks[i].lower;
  const date = dateOf(toks, i);
  if (date) return s.dates.push(date) > 0;
  const direction = directionOfWord(lower);
  if (direction) return s.directions.push(direction) > 0;
  const quantifier = quantifierOf(toks, i, s.negations);
  if (quantifier) return s.quantifiers.push(quantifier) > 0;
  const poles = polesOfWord(lower);
  if (poles.length) s.poles.push(...(flipped.has(i) ? poles.map(flipPole) : poles));
  return poles.length > 0;
}
