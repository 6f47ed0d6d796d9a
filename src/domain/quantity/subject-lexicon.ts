/**
 * The word lists and clause bounds the subject reader (subject.ts, subject-rules.ts) shares: linking words, words
 * that name nothing, words of a phrase, and where a clause begins and ends. English and Russian. Pure.
 */

import { EN_ORDINALS, NUMBER_WORDS } from "../meaning/number-words.ts";
import { unitAt } from "./units.ts";

const WEAK = new Set(
  (
    "i me my he him his she her it its we us they them you this that these those there here what which who whom " +
    "moreover however still now then again thus so yet not no nor when while if also even there's it's " +
    "я мне меня он его ему она ее её ей оно они их им мы нас вы вас ты тебя что как когда если чтобы " +
    "уже еще ещё тогда потом раз последние каждые каждый продолжение чем тому назад спустя позже раньше average mean " +
    "ago afterward afterwards thereafter hence later earlier past once twice"
  ).split(" "),
);

/** Linking words: prepositions, articles, auxiliaries and verbs of measuring ("was", "takes", «составила»). */
export const LINK = new Set(
  (
    "of for by into and or but или was were is are be been being about approximately approx around nearly almost roughly only just " +
    "than less more over under at in on to with after before during within the a an some still took takes take " +
    "lasted lasts last showed shows had has have reached reaches ranged ranges between from up down least most " +
    "increased decreased increase decrease by: : = ~ ≈ as which that who it its per each every also even " +
    "uses used use weighs weighed rose rises fell falls dropped drops grew grows needs needed requires required " +
    "consumes consumed peaks peaked averages averaged measures runs ran costs " +
    "в на за около примерно приблизительно составила составил составило составляет составляют не хуже лучше " +
    "более менее больше меньше через по с до от уже всего лишь только было был была были это и а но равна равен " +
    "равно занимает занимают заняла занял длится длилась длился ещё еще почти порядка"
  ).split(" "),
);

/** A word that names nothing measured: a linking word, pronoun, adverb or a Roman numeral (a chapter number). */
export function weak(w: string, gerund = true): boolean {
  const l = w.toLowerCase();
  return LINK.has(l) || WEAK.has(l) || /^[IVXLC]+$/u.test(w) || (gerund && /ing$/u.test(l));
}

/** Whether a word is a whole unit word ("days", «мс»), memoised (the unit table is scanned once per word form). */
const UNIT_WORD = new Map<string, boolean>();
function unitWord(w: string): boolean {
  let u = UNIT_WORD.get(w);
  if (u === undefined) {
    u = unitAt(w, 0)?.end === w.length;
    if (UNIT_WORD.size > 20_000) UNIT_WORD.clear();
    UNIT_WORD.set(w, u);
  }
  return u;
}

const ORDINAL = new Set(EN_ORDINALS);
const RU_ORDINAL =
  /^(?:перв|втор|трет|четверт|пят|шест|седьм|восьм|девят|десят)(?:ый|ого|ому|ым|ом|ая|ой|ую|ое|ые|ых|ыми|ий|ье(?:го|му|м)?|ь(?:им|я|ей|ю|и|их|ими))$/u;

/** A cardinal number word ("sixty", «двадцати»), which names no measured thing; ordinals ("third dose") are kept. */
function cardinal(w: string): boolean {
  const l = w.toLowerCase();
  return NUMBER_WORDS.has(l) && !ORDINAL.has(l) && !RU_ORDINAL.test(l);
}

/** Words of a phrase (letters, digits, hyphens, apostrophes), without numbers, number words and unit words. */
export function words(s: string): string[] {
  return (s.match(/[\p{L}\p{N}][\p{L}\p{N}'’-]*/gu) ?? []).filter(
    (w) => /^\p{L}/u.test(w) && !unitWord(w) && !cardinal(w),
  );
}

/** Drops linking words from both ends of a word list. */
export function trimRight(ws: string[]): string[] {
  const out = [...ws];
  while (out.length && LINK.has(out[out.length - 1].toLowerCase())) out.pop();
  while (out.length && LINK.has(out[0].toLowerCase())) out.shift();
  return out;
}

/** Where a subject noun phrase ends: at a preposition or clause word after its head ("regression across …"). */
export const NP_END =
  /\s(?:across|in|on|at|for|with|from|during|among|per|reported|that|which|who|в|на|при|для|среди|который|которая|которые)\s/iu;

const LEFT_STOP = /[.!?](?=\s)|[;()[\]{}«»"“”]|\s[–—]\s/gu;

/** Where the clause of `at` begins; `wide` ignores commas and colons (for a number that opens its clause). */
export function clauseStart(text: string, at: number, wide = false): number {
  // A clause longer than 400 characters is cut there: a subject is never that far from its number.
  const from = Math.max(0, at - 400);
  const head = text.slice(from, at);
  let best = 0;
  const re = wide ? LEFT_STOP : /[.!?](?=\s)|[;,()[\]{}«»"“”]|\s[–—]\s/gu;
  for (const m of head.matchAll(re)) best = m.index + m[0].length;
  return from + best;
}

/** Where the clause of `at` ends. */
export function clauseEnd(text: string, at: number): number {
  const m = /[.!?](?=\s|$)|[;,()[\]{}«»"“”]|\s[–—]\s/u.exec(text.slice(at));
  return m ? at + m.index : text.length;
}

/** Where the sentence of `at` begins (after the last ".", "!" or "?" followed by a space). */
export function sentenceStart(text: string, at: number): number {
  const from = Math.max(0, at - 600);
  let best = 0;
  for (const m of text.slice(from, at).matchAll(/[.!?](?=\s)/gu)) best = m.index + 1;
  return from + best;
}
