/**
 * A rest sketch: what dedup can know of a text's rest (statement.ts `rest`: the light-stemmed words outside every
 * guarded feature) from its raw tokens alone, far cheaper than reading the statement. `sure` holds stems that are
 * certainly in the rest: plain words (letters only) that no rule can take as a number, unit, rate, comparator,
 * identifier, negation, auxiliary, hedge, date, direction, quantifier, antonym or filler word. `all` holds every
 * stem (and code) the rest may hold. So `sure` ⊆ rest (as a set) ⊆ `all`, which tests/dedup/prune.test.ts checks on
 * real texts; meaning.ts `restsMayMatch` then has lower bounds for its counts without reading either statement.
 */
import { lightStem } from "./light-stem.ts";
import {
  directionOf,
  EN_NEGATIONS,
  FILLER,
  MONTHS,
  NEGATION_AUXILIARIES,
  RU_NEGATIONS,
  RU_NI_WORD,
  WEEKDAYS,
} from "./lexicon.ts";
import { NUMBER_WORDS } from "./number-words.ts";
import { polesOf, PREPOSITION_VARIANTS, QUANTIFIERS } from "./opposites.ts";
import { MARKABLE_WORDS, RATE_STEM_START } from "./qualifiers.ts";
import { fold, tokenPattern, tokenText } from "./statement-tokens.ts";
import { UNITS } from "./units.ts";
import { ABILITY, HEDGES, verbBase } from "./verb-forms.ts";
import { memoByWord } from "./word-memo.ts";

/** The sketch of one text (see module doc). */
export interface RestSketch {
  /** Stems certainly in the rest, unique. */
  sure: string[];
  /** Every stem or code the rest may hold. */
  all: ReadonlySet<string>;
  /** The members of `all` a negating prefix may begin. */
  allPrefixed: string[];
}

const UNIT_NAMES: ReadonlySet<string> = new Set([...UNITS.keys(), ...UNITS.values()]);
const LETTERS = /^\p{L}+$/u;
const GLUED_LETTERS = /\p{L}+$/u;
const CONTRACTED = /^(\p{L}+)n['’]t$/u;
/** {@link fold} per token text. */
const foldWord = memoByWord(fold);

/** True when a word can be nothing but a plain content word of the rest, wherever it stands (per lower-case form). */
const plainWord = memoByWord((w: string): boolean => {
  for (const x of new Set([w, PREPOSITION_VARIANTS.get(w) ?? w]))
    if (
      x.length < 2 ||
      x === "non" ||
      x === "cannot" ||
      x === "any" ||
      FILLER.has(x) ||
      EN_NEGATIONS.has(x) ||
      RU_NEGATIONS.has(x) ||
      RU_NI_WORD.test(x) ||
      NEGATION_AUXILIARIES.has(x) ||
      HEDGES.has(x) ||
      ABILITY.has(x) ||
      MONTHS.has(x) ||
      WEEKDAYS.has(x) ||
      directionOf(x) !== 0 ||
      QUANTIFIERS.has(x) ||
      polesOf(x).length > 0 ||
      NUMBER_WORDS.has(x) ||
      UNIT_NAMES.has(x) ||
      MARKABLE_WORDS.has(x) ||
      RATE_STEM_START.test(x)
    )
      return false;
  return true;
});

/** The rest stem of a lower-case word as statement.ts makes it. */
const stemOf = memoByWord((lower: string) => lightStem(verbBase(PREPOSITION_VARIANTS.get(lower) ?? lower)));

const DIGIT = /\p{N}/u;

/** Adds what a token of lower-case form `lower` may put in a rest: its stem, or itself when it is a code (a digit). */
function addMay(all: Set<string>, lower: string): void {
  all.add(stemOf(lower));
  if (DIGIT.test(lower)) all.add(PREPOSITION_VARIANTS.get(lower) ?? lower);
}

/** The rest sketch of `text` (see module doc). */
export function sketchRest(text: string, isPrefixed: (x: string) => boolean): RestSketch {
  const clean = tokenText(text);
  const sure = new Set<string>();
  const all = new Set<string>();
  let prevLower = "";
  let prevEnd = 0;
  for (const m of clean.matchAll(tokenPattern())) {
    const raw = m[0];
    const lower = foldWord(raw);
    const glued = prevLower === "non" && clean.slice(prevEnd, m.index) === "-";
    addMay(all, lower);
    if (glued) addMay(all, `non${lower}`);
    if (LETTERS.test(raw)) {
      if (lower === "cannot") addMay(all, "can");
      else if (!glued && plainWord(lower)) sure.add(stemOf(lower));
    } else {
      // Digits glued to a unit ("5mg"), a contraction ("doesn't"): the parts tokenize() splits off.
      const letters = GLUED_LETTERS.exec(lower);
      if (letters && letters[0] !== lower) addMay(all, letters[0]);
      const c = CONTRACTED.exec(lower);
      if (c) for (const base of [c[1], "can", "will", "shall", "is"]) addMay(all, base);
    }
    prevLower = lower;
    prevEnd = m.index + raw.length;
  }
  for (const x of sure) all.add(x);
  return { sure: [...sure], all, allPrefixed: [...all].filter(isPrefixed) };
}
