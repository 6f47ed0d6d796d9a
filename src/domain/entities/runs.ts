/**
 * Runs of candidate name words in a token list: capitalised words, initials and titles side by side, with "of"/"van"
 * inside a name ("University of Tokyo") and "for"/"and" inside an institution's name ("Organisation for Economic
 * Co-operation and Development"). Words that are never names alone (stop words, contractions, common acronyms, code
 * identifiers, capitalised headings) break a run. Pure.
 */
import { isTitle } from "./kinds.ts";
import { COMMON_ACRONYMS, DEMONYMS, INSTITUTION_HEADS, NOT_NAMES, ORG_PREFIXES, ORG_SUFFIXES } from "./lexicon.ts";
import { stripPossessive } from "./names.ts";
import { patronymic } from "./russian-names.ts";
import { ENGLISH_STOP_WORDS, RUSSIAN_STOP_WORDS } from "../stopwords.ts";
import type { Token } from "./tokens.ts";

const CONNECTORS = new Set("of de van von der den da di du la le del des bin al".split(" "));
/** Connectors allowed only inside a name headed by an institution word ("Institute for …", "Department of … and …"). */
const INSTITUTION_CONNECTORS = new Set(["for", "and", "on", "of", "the"]);
const NUMBER_WORD =
  /^(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred|thousand)(?:-\p{L}+)?$/u;
/** Combining forms of nationalities ("Sino-", "Anglo-", "Franco-"). */
const DEMONYM_PREFIXES = new Set(
  "sino anglo franco russo indo afro euro greco graeco italo austro hispano judeo".split(" "),
);
const CONTRACTION = /['’](?:s|re|ll|ve|d|m|t)$/u;

/** True when a capitalised token cannot be (part of) a name by itself. */
export function notName(t: Token, text: string): boolean {
  if (t.initial) return false;
  const w = stripPossessive(t.lower);
  const bare = t.lower.replace(CONTRACTION, "");
  if (t.allCaps && (ORG_PREFIXES.has(w) || w.length >= 7)) return true;
  if (NOT_NAMES.has(w) || NOT_NAMES.has(bare) || COMMON_ACRONYMS.has(w)) return true;
  if (ENGLISH_STOP_WORDS.has(bare) || RUSSIAN_STOP_WORDS.has(w) || /n['’]t$/u.test(t.lower)) return true;
  if (text[t.start - 1] === "_" || text[t.end] === "_") return true;
  // "APIs", "SDKs": the plural of a common acronym; "Mozilla-related": an adjective made of a name.
  if (/^\p{Lu}{2,}s$/u.test(t.text) && COMMON_ACRONYMS.has(w.slice(0, -1))) return true;
  if (/-(?:related|based|signed|like|style|specific|compatible|powered|friendly|driven|owned|made)$/u.test(w))
    return true;
  // "WASI-supporting", "Linux-looking", "Google-funded": a name with a lower-case participle is an adjective.
  if (/^[^-]+-\p{Ll}{3,}(?:ing|ed)$/u.test(t.text)) return true;
  // "Sino-Japanese", "Anglo-Saxon": a compound of nationalities names a relation, not an entity.
  if (w.includes("-") && w.split("-").every((p) => DEMONYMS.has(p) || DEMONYM_PREFIXES.has(p))) return true;
  if (/^\p{Lu}$/u.test(t.text) || NUMBER_WORD.test(t.lower)) return true;
  return /^\d/u.test(t.text);
}

/** True when the gap between two run words keeps them one name (a space, or the dot of an initial or title). */
export function joins(text: string, a: Token, b: Token): boolean {
  const gap = text.slice(a.end, b.start);
  if (gap === " " || gap === "\u00a0") return !/['’]s$/u.test(a.text);
  return /^\.[ \u00a0]?$/u.test(gap) && (a.initial || isTitle(a.lower) || /^(?:\p{Lu}\.)+\p{Lu}$/u.test(a.text));
}

/** True when token `i` may stand inside a run started at `s`: a connector with a name word after it. */
function connector(tokens: readonly Token[], s: number, i: number, text: string): boolean {
  const t = tokens[i];
  const next = tokens[i + 1];
  if (!next?.cap || !joins(text, t, next) || t.cap) return false;
  if (CONNECTORS.has(t.lower)) return true;
  const head = tokens[s].lower;
  return INSTITUTION_CONNECTORS.has(t.lower) && (INSTITUTION_HEADS.has(head) || ORG_PREFIXES.has(head));
}

/** True when a capitalised token is a name word here (a demonym only when a name word follows: "European Space …"). */
function nameWord(tokens: readonly Token[], i: number, text: string, inRun: boolean): boolean {
  const t = tokens[i];
  if (!t.cap) return false;
  if (inRun && isTitle(t.lower)) return true;
  // Capitals in a row are shouting ("YOU AGREE THAT"), not acronyms.
  if (t.allCaps && (tokens[i - 1]?.allCaps || tokens[i + 1]?.allCaps)) return false;
  if (DEMONYMS.has(t.lower)) {
    const next = tokens[i + 1];
    return next?.cap === true && joins(text, t, next) && !notName(next, text);
  }
  return !notName(t, text) || isTitle(t.lower);
}

/** The [start, end) token ranges of the runs of candidate name words, in order. */
export function runsOf(tokens: readonly Token[], text: string): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  let s = -1;
  const close = (e: number) => {
    if (s < 0) return;
    let end = e;
    while (end > s && !tokens[end - 1].cap) end--;
    while (end > s + 1 && DEMONYMS.has(tokens[end - 1].lower)) end--;
    if (end > s && !(end - s === 1 && DEMONYMS.has(tokens[s].lower))) out.push([s, end]);
    s = -1;
  };
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    const joined = s >= 0 && joins(text, tokens[i - 1], t) && !(t.sentStart && !tokens[i - 1].initial);
    if (nameWord(tokens, i, text, s >= 0)) {
      if (!joined) close(i);
      if (s < 0) s = i;
    } else if (!(joined && connector(tokens, s, i, text))) close(i);
  }
  close(tokens.length);
  return out;
}

/**
 * Runs split before a Russian first name that a patronymic follows, when a word stands before that name which is not
 * a surname («В Москве Михаил Аверьяныч» → «Москве» | «Михаил Аверьяныч»; «Рагин Андрей Ефимыч» stays whole).
 */
export function splitAtPatronymics(
  tokens: readonly Token[],
  runs: ReadonlyArray<[number, number]>,
): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  for (const [s, e] of runs) {
    let start = s;
    for (let p = s + 2; p < e; p++) {
      if (patronymic(tokens[p].lower) === null || patronymic(tokens[p - 1].lower) !== null) continue;
      if (/(?:ов|ев|ин|ын|ский|цкий)$/u.test(tokens[p - 2].lower)) continue;
      if (p - 1 > start) out.push([start, p - 1]);
      start = p - 1;
    }
    out.push([start, e]);
  }
  return out;
}

/** True when the run's last word makes it an institution ("… University", "… Inc"). */
export function institutionTail(run: readonly Token[]): boolean {
  return ORG_SUFFIXES.has(run[run.length - 1].lower.replace(/\.$/u, ""));
}
