/**
 * What a measurement measures, and under which conditions, read from the words around it in its clause (English and
 * Russian). Pure.
 *
 * Method: the clause is the text between the nearest sentence end, semicolon, bracket or dash on either side. A
 * duration followed by "of X" measures X ("60 days of HDBR", "1 h of treadmill exercise"). Otherwise the subject is
 * the last words (at most six) before the number once the linking words between them are dropped ("phase delay of
 * 42 min" → "phase delay"; "cold start takes 1.2 s" → "cold start"; «точность … составила не хуже 1%» → «точность
 * …»), or, when nothing precedes it in its clause, the first words after it. Prepositional phrases of setting
 * ("on the ARM board", "under load", "at 100k atoms", «при 20 °C», «на сервере») are taken out of the subject
 * into the conditions, from either side of the number. Limits: no parser: a subject that is the grammatical subject
 * of a long clause ("the amount of immunotoxin required to inhibit protein synthesis by 50%") is read as its last
 * words; a pronoun ("it is 87 bytes") is not resolved.
 */

import { unitAt } from "./units.ts";

/** The subject phrase and the conditions of the measurement at [start, end) of `text`. */
export function subjectOf(text: string, start: number, end: number): { subject: string; conditions: string[] } {
  const left = text.slice(clauseStart(text, start), start);
  const right = text.slice(end, clauseEnd(text, end));
  const conditions = [...conditionsIn(left), ...conditionsIn(right)];
  const of = /^\s+of\s+((?:[\p{L}\p{N}'-]+\s*){1,4})/iu.exec(right);
  if (of && /\p{L}/u.test(of[1]) && ofLike(text.slice(start, end))) {
    return { subject: trimRight(words(stripConditions(of[1])).slice(0, 4)).join(" "), conditions };
  }
  // An attributive measurement ("a 90-min sleep-wake cycle", "the 24-h recording time") measures the noun after it.
  const attr = /^[\s-]*((?:[\p{L}][\p{L}'’-]*\s*){1,4})/u.exec(right);
  if (/(?:^|\s)(?:a|an|the)\s+$/iu.test(left) && attr) {
    const np = words(attr[1].split(NP_END)[0]);
    const head = trimRight(np);
    if (head.length && !weak(head[0])) return { subject: head.join(" "), conditions };
  }
  const copula = COPULA.exec(left);
  if (copula && words(left.slice(copula.index + copula[0].length)).every(weak)) {
    const np = words(stripConditions(left.slice(0, copula.index).split(NP_END)[0]));
    const head = trimRight(np).slice(-4);
    if (head.some((w) => !weak(w))) return { subject: head.join(" "), conditions };
  }
  let ws = trimRight(words(stripConditions(left)));
  if (!ws.length) {
    // A number opening a bracket or a clause: what precedes the bracket or the clause names it.
    const from = clauseStart(text, start, true);
    const outer = /[([]\s*$/u.test(text.slice(0, from)) ? text.slice(clauseStart(text, from - 1), from - 1) : "";
    ws = trimRight(words(stripConditions(text.slice(from, start) || outer)));
  }
  ws = ws.slice(-4);
  if (ws.some((w) => !weak(w))) return { subject: ws.join(" "), conditions };
  const after = words(stripConditions(right));
  while (after.length && weak(after[0])) after.shift();
  const next = trimRight(after.slice(0, 4));
  if (next.length) return { subject: next.join(" "), conditions };
  // Only linking words on both sides («как и двадцать лет назад,»): the content words of the sentence part before.
  const wide = words(stripConditions(text.slice(clauseStart(text, start, true), start))).filter((w) => !weak(w));
  return { subject: (wide.length ? wide.slice(-4) : ws).join(" "), conditions };
}

const WEAK = new Set(
  (
    "i me my he him his she her it its we us they them you this that these those there here what which who whom " +
    "moreover however still now then again thus so yet not no nor when while if also even there's it's " +
    "я мне меня он его ему она ее её ей оно они их им мы нас вы вас ты тебя что как когда если чтобы " +
    "уже еще ещё тогда потом раз последние каждые каждый продолжение чем тому назад average mean"
  ).split(" "),
);

/** A word that names nothing measured: a linking word, pronoun, adverb or a Roman numeral (a chapter number). */
function weak(w: string): boolean {
  const l = w.toLowerCase();
  return LINK.has(l) || WEAK.has(l) || /^[IVXLC]+$/u.test(w) || /ing$/u.test(l);
}

const LINK = new Set(
  (
    "of for by into was were is are be been being about approximately approx around nearly almost roughly only just " +
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

/** Words of a phrase (letters, digits, hyphens, apostrophes). */
function words(s: string): string[] {
  return (s.match(/[\p{L}\p{N}][\p{L}\p{N}'’-]*/gu) ?? []).filter(
    (w) => /^\p{L}/u.test(w) && unitAt(w, 0)?.end !== w.length,
  );
}

/** Drops linking words from both ends of a word list. */
function trimRight(ws: string[]): string[] {
  const out = [...ws];
  while (out.length && LINK.has(out[out.length - 1].toLowerCase())) out.pop();
  while (out.length && LINK.has(out[0].toLowerCase())) out.shift();
  return out;
}

const CONDITION =
  /(?<![\p{L}])(?:on|under|with|using|at|при|под|на|с)\s+(?:(?:the|a|an|an?)\s+)?(?:[\p{L}\p{N}][\p{L}\p{N}.'’-]*\s*){1,4}/giu;
const SETTING_WORD =
  /^(?:on|under|with|using|at|при|под|на|с)\s+(?:the\s+|a\s+|an\s+)?(?:arm|x86|load|battery|server|board|machine|laptop|phone|device|cpu|gpu|linux|windows|mac|сервер|ноутбук|плат|машин|нагрузк|процессор|устройств|температур|давлени)/iu;
/** A phrase of setting names a thing: a capitalised name or a number ("on the ARM board", «при 20 °C»), or a setting word. */
const CONDITION_HEAD = {
  test: (c: string) =>
    SETTING_WORD.test(c) ||
    /^[\p{L}]+\s+(?:(?:the|a|an)\s+)?[\p{Lu}\p{N}]/u.test(c.replace(/^[\p{Lu}]/u, (x) => x.toLowerCase())),
};

/** Phrases of setting in `s`: "on the ARM board", "under load", «при 20 °C» (a head word that names a setting). */
function conditionsIn(s: string): string[] {
  return (s.match(CONDITION) ?? [])
    .map((c) => c.trim())
    .filter((c) => CONDITION_HEAD.test(c))
    .map((c) => {
      const [prep, ...rest] = c.split(/\s+/u);
      const kept: string[] = [];
      for (const w of rest) {
        if (kept.length && LINK.has(w.toLowerCase()) && !/^(?:the|a|an)$/iu.test(w)) break;
        kept.push(w);
      }
      return [prep, ...kept].join(" ");
    });
}

/** `s` without its phrases of setting. */
function stripConditions(s: string): string {
  return s.replace(CONDITION, (c) => (CONDITION_HEAD.test(c.trim()) ? " " : c));
}

/** Whether "of X" after a quote names what it measures: a duration ("60 days of HDBR") or a share ("2% of the dose"). */
function ofLike(quote: string): boolean {
  return !quote.includes("/") && /(?:h|min|d|days?|weeks?|years?|months?|hours?|minutes?|seconds?|s|%)$/iu.test(quote);
}

/** The last copula of a clause ("was", "is", «составила»): what stands before it is the subject. */
const COPULA =
  /(?<![\p{L}])(?:was|is|were|are|be|been|составил[аио]?|составляет|составляют|было|был|была|были|равн[аоы]|равен)(?![\p{L}])(?![\s\S]*(?<![\p{L}])(?:was|is|were|are|составил|было|был)(?![\p{L}]))/iu;
/** Where a subject noun phrase ends: at a preposition or clause word after its head ("regression across …"). */
const NP_END =
  /\s(?:across|in|on|at|for|with|from|during|among|per|reported|that|which|who|в|на|при|для|среди|который|которая|которые)\s/iu;

const LEFT_STOP = /[.!?](?=\s)|[;()[\]{}«»"“”]|\s[–—]\s/gu;

/** Where the clause of `at` begins; `wide` ignores commas and colons (for a number that opens its clause). */
function clauseStart(text: string, at: number, wide = false): number {
  // A clause longer than 400 characters is cut there: a subject is never that far from its number.
  const from = Math.max(0, at - 400);
  const head = text.slice(from, at);
  let best = 0;
  const re = wide ? LEFT_STOP : /[.!?](?=\s)|[;,()[\]{}«»"“”]|\s[–—]\s/gu;
  for (const m of head.matchAll(re)) best = m.index + m[0].length;
  return from + best;
}

/** Where the clause of `at` ends. */
function clauseEnd(text: string, at: number): number {
  const m = /[.!?](?=\s|$)|[;,()[\]{}«»"“”]|\s[–—]\s/u.exec(text.slice(at));
  return m ? at + m.index : text.length;
}
