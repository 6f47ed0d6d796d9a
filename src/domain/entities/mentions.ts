/**
 * Heuristic entity mentions of a text, English and Russian, with no model: runs of capitalised words (a sentence's
 * first word only with evidence that it is a name), titles and honorifics, initials, possessives, Russian names with
 * patronymics in any case, names in quotation marks, organisation, software, project and place cues. A capitalised
 * everyday English word needs evidence of a name (common-words.ts), and an acronym the text defines for lower-case
 * words names nothing (abbreviations.ts). Each mention carries its span, the nominative name, the matching key, a
 * kind and a confidence. Pure.
 */
import { guessKind, isTitle, personShaped } from "./kinds.ts";
import { KNOWN_SOFTWARE, knownSoftware, PLACES } from "./gazetteer.ts";
import {
  COMMON_ACRONYMS,
  FIRST_NAMES,
  HEADING_WORDS,
  IMPERATIVES,
  INSTITUTION_HEADS,
  ORG_SUFFIXES,
  PLACE_SUFFIXES,
  PROJECT_SUFFIXES,
  TITLES,
  WEAK_TITLES,
} from "./lexicon.ts";
import { canonicalName, nameKey, stripPossessive } from "./names.ts";
import { quotedMentions } from "./quoted.ts";
import { guessNominative, patronymic, russianDiminutive } from "./russian-names.ts";
import { unifyDocument } from "./document.ts";
import { commonAbbreviations, isCommonAbbreviation } from "./abbreviations.ts";
import { bareCommonWord, commonOpener, countedHead, labelRun } from "./common-words.ts";
import { institutionTail, runsOf, splitAtPatronymics } from "./runs.ts";
import { type Token, tokenize } from "./tokens.ts";
import type { EntityMention } from "./types.ts";

/** Words that cue a kind but name nothing alone ("the Project", "the Foundation", "Bachelor of Arts"). */
const CUE_WORDS = new Set([...PROJECT_SUFFIXES, ...INSTITUTION_HEADS, ...ORG_SUFFIXES, "company", "engine", "library"]);
const DEGREES = new Set(["bachelor", "bachelors", "master", "masters", "doctor", "doctors", "bachelor-of-arts"]);

/** Words that open a question to "you" as an interjection or a call, not a name ("Look, what do you …?"). */
const ADDRESS_WORDS = new Set(
  "look listen wait come man dude guys honey darling fine alright right exactly say hey please sorry".split(" "),
);

/** What the whole text says about its words: which appear in lower case, which capitalised inside a sentence. */
interface Evidence {
  lowerSeen: ReadonlySet<string>;
  /** How often each word is capitalised inside a sentence. */
  capSeen: ReadonlyMap<string, number>;
}

// Masculine surname endings in any case; the feminine -ова/-ина are left out: they are also common nouns (Тишина).
const RU_SURNAME = /(?:ов|ев|ин|ын)(?:у|ым|е)?$|(?:ский|цкий|ского|скому|ским)$/u;
// Perfective gerunds end like -ев surnames (Осмотрев, Увидев) but start with a verb prefix.
const RU_GERUND = /^(?:по|у|о|на|вы|за|про|от|рас|раз|при|под|пере|до)\p{L}+[ая]?в(?:ши)?$/u;
const ORDINARY_EN = /\p{L}{3}(?:ly|ing|ed|ness|tion|ment|ful|ous|ive|able|ible|less|ants|ents|ions|ities)$/u;
/** A Roman numeral of two letters or more written in capitals (I, V, X, L: chapters and list items up to 89). */
const ROMAN = /^(?=[IVXL]{2,}$)L?X{0,3}(?:IX|IV|V?I{0,3})$/u;
const ABSTRACT_EN = /^\p{Ll}{4,}(?:ing|tion|tions|ment|ments|ness)$/u;
const ORDINARY_RU =
  /(?:[лт]ь|ла|ло|ли|ть|ться|сь|ся|ет|ит|ют|ут|ешь|ишь|ете|ите|ого|ому|ыми|ими|ые|ие|ая|яя|ое|ее|ый|ость|ение|ание|ство)$/u;

/** True when a sentence-initial word looks like an ordinary word (its shape, or it appears in lower case). */
function ordinary(t: Token, ev: Evidence, byShape = true): boolean {
  const w = stripPossessive(t.lower);
  if (FIRST_NAMES.has(w) || PLACES.has(w) || FIRST_NAMES.has(guessNominative(w))) return false;
  if (russianDiminutive(guessNominative(w))) return false;
  if (ev.lowerSeen.has(w)) return true;
  if (knownSoftware(w)) return false;
  if (ev.capSeen.has(w) || !byShape) return false;
  // Russian capitalises little but names, so a sentence's first word needs a positive sign: a surname's shape.
  if (/\p{Script=Cyrillic}/u.test(w)) return !RU_SURNAME.test(w) || ORDINARY_RU.test(w) || RU_GERUND.test(w);
  return ORDINARY_EN.test(w);
}

/** The whole text's evidence about its words. */
function evidenceOf(tokens: readonly Token[]): Evidence {
  const lowerSeen = new Set<string>();
  const capSeen = new Map<string, number>();
  for (const t of tokens) {
    if (!/^\p{L}/u.test(t.text)) continue;
    if (!t.cap) lowerSeen.add(t.lower);
    else if (!t.sentStart && !t.heading && !t.allCaps) {
      const w = stripPossessive(t.lower);
      capSeen.set(w, (capSeen.get(w) ?? 0) + 1);
    }
  }
  return { lowerSeen, capSeen };
}

/**
 * Evidence that a lone sentence-initial word is a name: a gazetteer (first names, places, software that is no
 * everyday word), a name cue after it ("Inc", an appositive "X, the …"), or a use elsewhere.
 */
function loneEvidence(t: Token, next: Token | undefined, text: string, ev: Evidence): boolean {
  const w = stripPossessive(t.lower);
  // A use inside another sentence is evidence; the word's own use does not count.
  const own = !t.sentStart && !t.heading && !t.allCaps ? 1 : 0;
  const seen = (x: string) => (ev.capSeen.get(x) ?? 0) > (x === w ? own : 0);
  if (FIRST_NAMES.has(w) || PLACES.has(w) || knownSoftware(w) || seen(w)) return true;
  const nominative = guessNominative(w);
  if (nominative !== w && (FIRST_NAMES.has(nominative) || PLACES.has(nominative) || seen(nominative))) return true;
  if (russianDiminutive(nominative)) return true;
  if (/\p{Script=Cyrillic}/u.test(w) && RU_SURNAME.test(w) && !ev.lowerSeen.has(w))
    return !ORDINARY_RU.test(w) && !RU_GERUND.test(w);
  // An acronym inside running text ("(ESA)") is a name; a capitalised heading has been dropped before.
  if (t.allCaps && !t.heading && !COMMON_ACRONYMS.has(w)) return true;
  if (next === undefined) return false;
  // "Marionette, the framework that …": an appositive with an article right after the word describes a name.
  if (text.slice(t.end, next.start) === ", " && /^(?:the|a|an)$/u.test(next.lower)) return true;
  // "Yoshikawa, what do you think …?": a word addressed before a question to "you" is a name (a vocative).
  if (
    text.slice(t.end, next.start) === ", " &&
    !ADDRESS_WORDS.has(w) &&
    /^(?:what|how|why|where|when|who|do|did|are|can|could|would|will)$/u.test(next.lower)
  ) {
    const rest = text.slice(next.start, text.slice(next.start).search(/[.!?]/u) + next.start + 1);
    if (/\byou\b/iu.test(rest) && rest.endsWith("?")) return true;
  }
  return text.slice(t.end, next.start) === " " && /^(?:inc|ltd|llc|corp)\.?$/u.test(next.lower);
}

/**
 * "Users of Debian …", "Members of Netscape …": a sentence-initial plural governing "of" is a common noun heading a
 * phrase, not the first word of a name (an institution's head or a known name is left alone).
 */
function pluralHead(tokens: readonly Token[], i: number, e: number): boolean {
  const t = tokens[i];
  if (!t.sentStart || t.allCaps || i + 2 >= e || tokens[i + 1].lower !== "of") return false;
  return (
    /\p{Ll}[^s']s$/u.test(t.lower) &&
    !INSTITUTION_HEADS.has(t.lower) &&
    !known(t) &&
    !/\p{Script=Cyrillic}/u.test(t.text)
  );
}

/** Drops leading titles and ordinary sentence-initial words from a run; returns the first kept index and `titled`. */
function trimRun(tokens: readonly Token[], s: number, e: number, ev: Evidence): [number, boolean] {
  let i = s;
  // A title in the sentence before says nothing ("the old lady." "Makes no difference").
  let titled =
    s > 0 &&
    TITLES.has(tokens[s - 1].lower) &&
    !WEAK_TITLES.has(tokens[s - 1].lower) &&
    !tokens[s - 1].cap &&
    !tokens[s].sentStart;
  const before = (k: number) => k + 1 < e && patronymic(tokens[k + 1].lower) !== null;
  const named = (t: Token) => known(t) || seenElsewhere(t, ev);
  // A long run or one ending in an institution or place word is a name from its first word ("United Nations …").
  const run = tokens.slice(s, e);
  const latin = !/\p{Script=Cyrillic}/u.test(run[0].text);
  const whole =
    (latin && run.filter((t) => t.cap).length >= 3 && !/(?:ing|ly)$/u.test(tokens[s].lower)) ||
    institutionTail(run) ||
    (e - s > 1 && PLACE_SUFFIXES.has(run[run.length - 1].lower));
  while (
    i < e &&
    (isTitle(tokens[i].lower) ||
      (tokens[i].sentStart && i + 1 < e && IMPERATIVES.has(tokens[i].lower)) ||
      pluralHead(tokens, i, e) ||
      ((tokens[i].sentStart || tokens[i].heading) &&
        !before(i) &&
        (ordinary(tokens[i], ev, !(whole && i === s)) ||
          (!(whole && i === s) && commonOpener(tokens, i, e, seenElsewhere(tokens[i], ev), named)))))
  ) {
    if (isTitle(tokens[i].lower) && i + 1 < e) titled = true;
    i++;
  }
  while (i < e && !tokens[i].cap) i++; // a connector left at the front ("Users of Debian" → "Debian")
  return [i, titled];
}

/** True when the word is capitalised inside some sentence other than at its own place. */
function seenElsewhere(t: Token, ev: Evidence): boolean {
  const own = !t.sentStart && !t.heading && !t.allCaps ? 1 : 0;
  return (ev.capSeen.get(stripPossessive(t.lower)) ?? 0) > own;
}

/** True when a gazetteer or the first-name list knows the word. */
function known(t: Token): boolean {
  const w = stripPossessive(t.lower);
  return FIRST_NAMES.has(w) || PLACES.has(w) || KNOWN_SOFTWARE.has(w);
}

/** The mention of one run, or null when the run is no name. */
function mentionOf(tokens: readonly Token[], s0: number, e: number, text: string, ev: Evidence): EntityMention | null {
  const [s, titled] = trimRun(tokens, s0, e, ev);
  if (s >= e) return null;
  const run = tokens.slice(s, e);
  // After a heading word glued to a sentence ("Discussion Surgery, …") the next word opens the sentence.
  const afterHeading = s > 0 && tokens[s - 1].sentStart && HEADING_WORDS.has(tokens[s - 1].lower);
  const weak = afterHeading || run.every((t) => t.sentStart || t.heading);
  const cyrillic = /\p{Script=Cyrillic}/u.test(run[0].text);
  const strong = titled || personShaped(run);
  if (run.length === 1 && weak && !strong && !loneEvidence(run[0], tokens[e], text, ev)) return null;
  // A lone capitalised word the same text also writes in lower case is an ordinary word stressed ("Stable … stable").
  if (run.length === 1 && !strong && !cyrillic && ev.lowerSeen.has(stripPossessive(run[0].lower)) && !known(run[0]))
    return null;
  if (
    run.length > 1 &&
    run.every((t) => t.heading) &&
    !strong &&
    !run.some((t) => loneEvidence(t, undefined, text, ev))
  )
    return null;
  if (run.length === 1 && (run[0].text.length < 2 || CUE_WORDS.has(run[0].lower))) return null;
  // "XIV" alone: a chapter's or a list's Roman numeral ("Louis XIV" keeps it inside the run).
  if (run.length === 1 && ROMAN.test(run[0].text)) return null;
  // "focused on Learning, and Media", "Getting started with Docker": a lone word shaped like a gerund or an abstract
  // noun, capitalised inside a sentence, is a stressed topic or a link's text, not a name (unless a list knows it).
  if (run.length === 1 && !strong && !cyrillic && !known(run[0]) && ABSTRACT_EN.test(run[0].lower)) return null;
  if (DEGREES.has(run[0].lower) && run[1]?.lower === "of") return null;
  if (run.length === 1 && !strong && !cyrillic && !known(run[0]) && countedHead(tokens, s, e, text)) return null;
  if (!strong && !run.some(known) && labelRun(tokens, s, e, text)) return null;
  // "Cancel", "Media", "Game 7": a lone everyday word capitalised, with no other sign of a name, is a label or a stress.
  if (
    run.length === 1 &&
    !strong &&
    !known(run[0]) &&
    bareCommonWord(run[0].text, text, run[0].start, seenElsewhere(run[0], ev))
  )
    return null;
  const name = canonicalName(run, text, tokens[s - 1], tokens[s - 2]);
  const key = nameKey(name);
  const after = tokens[e];
  const kind = guessKind({
    run,
    before: tokens[s - 1],
    before2: tokens[s - 2],
    after,
    titled,
    key,
    gapAfter: after ? text.slice(tokens[e - 1].end, after.start) : "",
  });
  let detect = run.length > 1 ? 0.85 : weak ? 0.65 : 0.75;
  if (strong) detect = 0.95;
  const end = run[run.length - 1].end;
  const surfaceEnd =
    text[end] === "'" || text[end] === "’"
      ? /s$/u.test(run[run.length - 1].text) && cyrillic === false
        ? end + 1
        : end
      : end;
  const surface = text.slice(run[0].start, surfaceEnd);
  return {
    start: run[0].start,
    end: surfaceEnd,
    surface,
    name,
    key,
    kind: kind.kind,
    confidence: Math.min(detect, kind.confidence + 0.1),
  };
}

/** Mentions of named entities in `text` (language `lang`: "en", "ru" or anything else), ordered by start. */
export function extractMentions(text: string, lang: string): EntityMention[] {
  void lang; // the script of each word decides its rules, so mixed-language texts work too
  const quoted = quotedMentions(text);
  const single = (q: EntityMention) => /['‘]/u.test(text[q.start - 1] ?? "");
  const inQuote = (t: Token) => quoted.some((q) => t.start >= q.start && t.end <= q.end);
  const tokens = tokenize(text);
  const ev = evidenceOf(tokens);
  const abbreviations = commonAbbreviations(text);
  const found: EntityMention[] = [...quoted];
  for (const [s, e] of splitAtPatronymics(tokens, runsOf(tokens, text))) {
    const q = quoted.find((x) => tokens[s].start >= x.start && tokens[e - 1].end <= x.end);
    if (tokens.slice(s, e).some(inQuote) && !(q && single(q))) continue;
    const m = mentionOf(tokens, s, e, text, ev);
    if (!m || isCommonAbbreviation(m.surface, abbreviations)) continue;
    // A title in single quotes that the capitals name whole ('Red Shirt') keeps the run's kind.
    if (q && single(q)) {
      if (m.start === q.start && m.end === q.end) found.splice(found.indexOf(q), 1, m);
      continue;
    }
    found.push(m);
  }
  return unifyDocument(found.sort((a, b) => a.start - b.start));
}
