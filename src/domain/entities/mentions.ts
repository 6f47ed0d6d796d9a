/**
 * Heuristic entity mentions of a text, English and Russian, with no model: runs of capitalised words (a sentence's
 * first word only with evidence that it is a name), titles and honorifics, initials, possessives, Russian names with
 * patronymics in any case, names in quotation marks, organisation, software, project and place cues. Each mention
 * carries its span, the nominative name, the matching key, a kind and a confidence. Pure.
 */
import { guessKind, isTitle, personShaped } from "./kinds.ts";
import { COMMON_ACRONYMS, FIRST_NAMES, NOT_NAMES, ORG_PREFIXES, PLACES, TITLES, WEAK_TITLES } from "./lexicon.ts";
import { canonicalName, nameKey, stripPossessive } from "./names.ts";
import { quotedMentions } from "./quoted.ts";
import { guessNominative, patronymic } from "./russian-names.ts";
import { unifyDocument } from "./document.ts";
import { type Token, tokenize } from "./tokens.ts";
import type { EntityMention } from "./types.ts";

/** What the whole text says about its words: which appear in lower case, which capitalised inside a sentence. */
interface Evidence {
  lowerSeen: ReadonlySet<string>;
  capSeen: ReadonlySet<string>;
}

const CONNECTORS = new Set([
  "of",
  "de",
  "van",
  "von",
  "der",
  "den",
  "da",
  "di",
  "du",
  "la",
  "le",
  "del",
  "des",
  "bin",
  "al",
]);
const RU_SURNAME = /(?:ов|ев|ин|ын|ский|цкий)(?:а|у|ым|е)?$/u;
const ORDINARY_EN = /\p{L}{3}(?:ly|ing|ed|ness|tion|ment|ful|ous|ive|able|ible|less)$/u;
const ORDINARY_RU =
  /(?:[лт]ь|ла|ло|ли|ть|ться|сь|ся|ет|ит|ют|ут|ешь|ишь|ете|ите|ого|ому|ыми|ими|ые|ие|ая|яя|ое|ее|ый|ость|ение|ание|ство)$/u;

/** True when a capitalised token cannot be (part of) a name by itself. */
function notName(t: Token): boolean {
  if (t.initial) return false;
  const w = stripPossessive(t.lower);
  if (t.allCaps && ORG_PREFIXES.has(w)) return true;
  if (NOT_NAMES.has(w) || COMMON_ACRONYMS.has(w)) return true;
  if (/^\p{Lu}$/u.test(t.text) && !t.initial) return true;
  return /^\d/u.test(t.text);
}

/** True when a sentence-initial word looks like an ordinary word (its shape, or it appears in lower case). */
function ordinary(t: Token, ev: Evidence): boolean {
  const w = stripPossessive(t.lower);
  if (FIRST_NAMES.has(w) || PLACES.has(w) || FIRST_NAMES.has(guessNominative(w))) return false;
  if (ev.lowerSeen.has(w)) return true;
  if (ev.capSeen.has(w)) return false;
  // Russian capitalises little but names, so a sentence's first word needs a positive sign: a surname's shape.
  if (/\p{Script=Cyrillic}/u.test(w)) return !RU_SURNAME.test(w) || ORDINARY_RU.test(w);
  return ORDINARY_EN.test(w);
}

/** The whole text's evidence about its words. */
function evidenceOf(tokens: readonly Token[]): Evidence {
  const lowerSeen = new Set<string>();
  const capSeen = new Set<string>();
  for (const t of tokens) {
    if (!/^\p{L}/u.test(t.text)) continue;
    if (!t.cap) lowerSeen.add(t.lower);
    else if (!t.sentStart && !t.heading && !t.allCaps) capSeen.add(stripPossessive(t.lower));
  }
  return { lowerSeen, capSeen };
}

/** True when the gap between two run words keeps them one name (a space, or the dot of an initial or title). */
function joins(text: string, a: Token, b: Token): boolean {
  const gap = text.slice(a.end, b.start);
  if (gap === " " || gap === "\u00a0") return !/['’]s$/u.test(a.text);
  return /^\.[ \u00a0]?$/u.test(gap) && (a.initial || isTitle(a.lower) || /^(?:\p{Lu}\.)+\p{Lu}$/u.test(a.text));
}

/** Runs of candidate name words: capitalised words, initials and titles, with "of"/"van"-style connectors inside. */
function runsOf(tokens: readonly Token[], text: string): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  let s = -1;
  const close = (e: number) => {
    if (s < 0) return;
    let end = e;
    while (end > s && CONNECTORS.has(tokens[end - 1].lower)) end--;
    if (end > s) out.push([s, end]);
    s = -1;
  };
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    const joined = s >= 0 && joins(text, tokens[i - 1], t) && !(t.sentStart && !tokens[i - 1].initial);
    const nameWord = t.cap && (!notName(t) || (s >= 0 && isTitle(t.lower)));
    if (nameWord || (isTitle(t.lower) && t.cap)) {
      if (!joined) close(i);
      if (s < 0) s = i;
    } else if (joined && CONNECTORS.has(t.lower) && tokens[i + 1]?.cap && joins(text, t, tokens[i + 1])) {
      // kept: "University of Tokyo", "Ludwig van Beethoven"
    } else close(i);
  }
  close(tokens.length);
  return out;
}

/** Evidence that a lone sentence-initial word is a name: gazetteer, a name cue after it, or a use elsewhere. */
function loneEvidence(t: Token, next: Token | undefined, text: string, ev: Evidence): boolean {
  const w = stripPossessive(t.lower);
  if (FIRST_NAMES.has(w) || PLACES.has(w) || ev.capSeen.has(w)) return true;
  const nominative = guessNominative(w);
  if (nominative !== w && (FIRST_NAMES.has(nominative) || PLACES.has(nominative) || ev.capSeen.has(nominative)))
    return true;
  if (/^\s*:/u.test(text.slice(t.end, t.end + 2)) && (t.start === 0 || text[t.start - 1] === "\n")) return true;
  if (/\p{Script=Cyrillic}/u.test(w) && RU_SURNAME.test(w) && !ev.lowerSeen.has(w)) return !ORDINARY_RU.test(w);
  return next !== undefined && text.slice(t.end, next.start) === " " && /^(?:inc|ltd|llc|corp)\.?$/u.test(next.lower);
}

/** Drops leading titles and ordinary sentence-initial words from a run; returns the first kept index and `titled`. */
function trimRun(tokens: readonly Token[], s: number, e: number, ev: Evidence): [number, boolean] {
  let i = s;
  let titled = s > 0 && TITLES.has(tokens[s - 1].lower) && !WEAK_TITLES.has(tokens[s - 1].lower) && !tokens[s - 1].cap;
  const before = (k: number) => k + 1 < e && patronymic(tokens[k + 1].lower) !== null;
  while (
    i < e &&
    (isTitle(tokens[i].lower) || ((tokens[i].sentStart || tokens[i].heading) && !before(i) && ordinary(tokens[i], ev)))
  ) {
    if (isTitle(tokens[i].lower) && i + 1 < e) titled = true;
    i++;
  }
  return [i, titled];
}

/** The mention of one run, or null when the run is no name. */
function mentionOf(tokens: readonly Token[], s0: number, e: number, text: string, ev: Evidence): EntityMention | null {
  const [s, titled] = trimRun(tokens, s0, e, ev);
  if (s >= e) return null;
  const run = tokens.slice(s, e);
  const weak = run.every((t) => t.sentStart || t.heading);
  const cyrillic = /\p{Script=Cyrillic}/u.test(run[0].text);
  const strong = titled || personShaped(run);
  if (run.length === 1 && weak && !strong && !loneEvidence(run[0], tokens[e], text, ev)) return null;
  if (
    run.length > 1 &&
    run.every((t) => t.heading) &&
    !strong &&
    !run.some((t) => loneEvidence(t, undefined, text, ev))
  )
    return null;
  if (run.length === 1 && run[0].text.length < 2) return null;
  const name = canonicalName(run, text);
  const key = nameKey(name);
  const after = tokens[e];
  const kind = guessKind({
    run,
    before: tokens[s - 1],
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
  const inQuote = (t: Token) => quoted.some((q) => t.start >= q.start && t.end <= q.end);
  const tokens = tokenize(text);
  const ev = evidenceOf(tokens);
  const found: EntityMention[] = [...quoted];
  for (const [s, e] of runsOf(tokens, text)) {
    if (tokens.slice(s, e).some(inQuote)) continue;
    const m = mentionOf(tokens, s, e, text, ev);
    if (m) found.push(m);
  }
  return unifyDocument(found.sort((a, b) => a.start - b.start));
}
