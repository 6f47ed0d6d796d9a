/**
 * How well one sentence introduces a name: the way texts present someone or something the first time, in English
 * and Russian — a copula or a dash after the name ("Ricin is a plant protein", "Webmaker is Mozilla's initiative", «Доктор Андрей Ефимыч Рагин –
 * замечательный человек», «X — это», «является»), an appositive ("Mitchell Baker, executive chairwoman of …",
 * «Иван Дмитрич Громов, мужчина лет тридцати трех»), a role noun before it ("our maid Kiyo", «сторож Никита»), a
 * naming verb ("one named Hotta", "whom I had nicknamed Clown", «по прозвищу»), «Это X, …», a name in quotes.
 * Dialogue lines and questions weigh less: a character addressed by name is not introduced by it. Names are
 * matched word by word on light stems, so Russian case endings do not matter («Андрею Ефимычу» is «Андрей Ефимыч»).
 */
import { lightStem } from "../../../domain/meaning/light-stem.ts";

const WORD = /[\p{L}\p{N}_]+(?:['’-][\p{L}\p{N}_]+)*/gu;

/** Function words that cannot be a role noun before a name nor open an appositive after it. */
const FUNCTION = new Set(
  (
    "and or but that which who whom whose when where while if as like such than then so to of in on at by for from with " +
    "said says asked told replied is was are were be been has had have do did not no this these those it its he she " +
    "they we you i me him her them his their our my your a an the " +
    "и а но что чтобы как когда если то же ли не ни он она оно они я ты мы вы его ее её их ему ей им в во на с со " +
    "к ко о об от по за из у до для при же бы было был была были это этот эта эти который которая которое которые " +
    "сказал сказала спросил спросила ответил ответила говорит сказал"
  ).split(" "),
);

/** Russian and English verb endings: a word before a name that ends so is most likely its verb, not its role. */
const VERBISH = /(?:л|ла|ло|ли|ть|ет|ит|ют|ят|ут|ся|сь|я|вши|ed|ing)$/u;

function fold(w: string): string {
  return w
    .toLowerCase()
    .replaceAll("ё", "е")
    .replace(/['’]s$/u, "");
}

function same(a: string, b: string): boolean {
  if (a === b) return true;
  const [short, long] = a.length < b.length ? [a, b] : [b, a];
  return short.length >= 4 && long.length - short.length <= 3 && long.startsWith(short);
}

/** A name prepared for matching: the light stems of its words of two letters or more, and which are capitalised. */
export interface NameStems {
  stems: string[];
  /** A proper name matches capitalised words only ("Red Shirt" is not "a red shirt"). */
  proper: boolean;
  /**
   * Per stem: the name writes that word capitalised, so only a capitalised word matches it; a word the name writes
   * in lower case matches either ("Pseudomonas exotoxin A" is "Pseudomonas Exotoxin A" too).
   */
  caps: boolean[];
  /** The one-letter words the name ends with ("Pseudomonas exotoxin A"): a place of the name must end with them. */
  tail: string[];
}

/** The stems of `name` (initials left out: "K. Natsume" matches "Mr. K. Natsume" and "Natsume"). */
export function nameStems(name: string): NameStems {
  const all = name.match(WORD) ?? [];
  const words = all.filter((w) => w.length > 1);
  const caps = words.map((w) => /^\p{Lu}/u.test(w));
  const last = all.findLastIndex((w) => w.length > 1);
  const tail = all.slice(last + 1);
  return { stems: words.map((w) => lightStem(fold(w))), proper: caps.some(Boolean), caps, tail };
}

/** Every place the name stands in `sentence` (UTF-16 offsets of its first word's start and last word's end). */
export function findNames(sentence: string, name: NameStems): { start: number; end: number }[] {
  const { stems, caps } = name;
  if (stems.length === 0) return [];
  const words = [...sentence.matchAll(WORD)].map((m) => ({ s: lightStem(fold(m[0])), at: m.index ?? 0, w: m[0] }));
  const fits = (i: number, k: number) => same(words[i].s, stems[k]) && (!caps[k] || /^[\p{Lu}\p{N}]/u.test(words[i].w));
  const found: { start: number; end: number }[] = [];
  for (let i = 0; i < words.length; i++) {
    if (!fits(i, 0)) continue;
    let j = i;
    let k = 1;
    while (k < stems.length && j + 1 < words.length) {
      j++;
      if (words[j].w.length === 1) continue; // an initial between the words
      if (!fits(j, k)) break;
      k++;
    }
    if (k < stems.length || !name.tail.every((t, n) => words[j + 1 + n]?.w === t)) continue;
    j += name.tail.length;
    found.push({ start: words[i].at, end: words[j].at + words[j].w.length });
  }
  return found;
}

/** The first place the name stands in `sentence`, or null. */
export function findName(sentence: string, name: NameStems): { start: number; end: number } | null {
  return findNames(sentence, name)[0] ?? null;
}

const COPULA_EN =
  /^\s*(?:\([^)]{0,80}\)\s*)?(?:is|was|are|were)\s+(?:(a|an|the|one|another|his|her|its|their|our|my|your|\p{Lu}[\p{L}.-]*['’]s|(?:considered|regarded|defined|described|known)\s+(?:as\s+)?(?:a|an|the)?)\b|(\p{L}+))/iu;
const COPULA_RU =
  /^(?:\s+\p{Lu}\p{L}+)?\s*(?:\([^)]{0,80}\)\s*)?(?:[–—-]\s+(?:это\s|\p{Ll})|,?\s*(?:это|является|являлся|являлась|представляет\s+собой|называется|есть)\s)/u;
const NAMING_BEFORE =
  /(?:\bnamed|\bcalled|\bnicknamed|\bnickname\s+of|\bknown\s+as|\bcall\s+(?:him|her|it|them)|по\s+имени|по\s+прозвищу|по\s+фамилии|зовут|прозвали|назвали|называют|так\s+называем\p{L}*)\s*["'“‘«]?\s*$/iu;
const THIS_IS = /^\s*["“«]?(?:это|this\s+is|that\s+is|it\s+is|it\s+was|he\s+is|she\s+is)\s+\p{L}*\s*$/iu;
/**
 * Speech: a line opening with a dash or a double quote, a closing double quote at the end, a dash after a sentence
 * mark. Single quotes are left out: texts put names and terms in them ("'Badger' for the principal").
 */
const DIALOGUE = /^\s*(?:[–—-]|["“«„])|["”»]\s*$|[.,!?…]\s*[–—]\s/u;

/**
 * True when the name stands in parentheses right after its long form ("United Nations General Assembly (UNGA)"):
 * the abbreviation's letters are found in order in the words before, its first letter opening a word (the
 * Schwartz & Hearst 2003 test for abbreviation definitions).
 */
function definesAbbreviation(before: string, after: string, short: string): boolean {
  if (!/\(\s*$/u.test(before) || !/^\s*\)/u.test(after)) return false;
  const letters = short.replace(/[^\p{L}\p{N}]/gu, "").toLowerCase();
  if (letters.length < 2 || !/^\p{L}/u.test(letters)) return false;
  const words = before.replace(/\(\s*$/u, "").match(/[\p{L}\p{N}]+(?:-[\p{L}\p{N}]+)*/gu) ?? [];
  const long = words
    .slice(-(letters.length + 2))
    .join(" ")
    .toLowerCase();
  let j = long.length - 1;
  for (let i = letters.length - 1; i >= 0; i--) {
    const wordStart = (k: number) => k === 0 || !/[\p{L}\p{N}]/u.test(long[k - 1]);
    while (j >= 0 && (long[j] !== letters[i] || (i === 0 && !wordStart(j)))) j--;
    if (j < 0) return false;
    j--;
  }
  return true;
}

/**
 * A name whose copula is not its own: governed by "of" ("the face of Clown was a …": the copula's subject is "the
 * face"), or the subject of a clause reporting someone's belief or knowledge ("I thought Porcupine was a better
 * sport", "I never knew our friend X was …"): an opinion about it, not what it is.
 */
const NOT_OWN_COPULA =
  /(?:\bof\s+(?:the\s+)?|\b(?:i|we|you|he|she|they|one)\s+(?:(?:never|always|had|have|did\s+not|do\s+not|don['’]t|didn['’]t)\s+)?(?:thought|think|knew|know|believe|believed|supposed|suppose|guess|guessed|felt|feel|fancied|imagined|heard|said|say|found)\s+(?:that\s+)?(?:(?:our|my|your|his|her|their|the|this|that)\s+)?(?:\p{Ll}+\s+)?)$/iu;
/**
 * A Russian dash before a preposition or a gerund stands for a left-out verb («а Михаил Аверьяныч – с веселым
 * видом», «доктор – задумавшись»): ellipsis, not the copula dash of a definition («X – замечательный человек»).
 */
const RU_ELLIPSIS_DASH =
  /^(?:\s+\p{Lu}\p{L}+)?\s*[–—-]\s+(?:(?:с|со|в|во|на|к|ко|у|от|до|из|за|по|под|над|при|без|для|о|об|про|через|перед|между)\s|\p{Ll}+(?:вши|вшись|ясь|аясь|учи|ючи)[\s,.!?…])/u;
const APPOSITIVE_NP =
  /^\s*,\s*(?:the|a|an)\s+(?:\p{Ll}[\p{L}-]*\s+){0,2}\p{Ll}[\p{L}-]*(?:\s*,|\s+(?:that|which|who|whose|of|for|from|in|on|at|with|by|behind|used|developed|written|made)\b)/u;
/** A comma list of short items (keywords, tags): "docker, installation, install, Docker Engine, …". */
function enumeration(sentence: string): boolean {
  const items = sentence.split(/\s*[,;]\s*/u);
  return items.length >= 4 && items.every((x) => (x.match(/[\p{L}\p{N}]+/gu) ?? []).length <= 3);
}

/** The cues around one place of the name (see module doc), before the sentence-wide ones. */
function placeScore(sentence: string, at: { start: number; end: number }): number {
  const before = sentence.slice(0, at.start);
  const after = sentence.slice(at.end);
  let score = 0.2;
  if (enumeration(sentence)) return score;
  const copula = COPULA_EN.exec(after);
  // "X is a …" defines; "X is going …", "X was uttering …" narrate.
  if (copula && NOT_OWN_COPULA.test(before)) score += /\bof\s+(?:the\s+)?$/iu.test(before) ? 0 : 1;
  // "X was the first to treat me …", "X is the only one to …": an ordinal before an infinitive tells an event.
  else if (copula && /^\s*(?:is|was|are|were)\s+the\s+(?:first|last|next|only|second)\s+(?:one\s+)?to\s/iu.test(after))
    score += 1;
  else if (copula) score += copula[1] ? 3 : /(?:ing|ed)$/iu.test(copula[2] ?? "") ? 0 : 1;
  else if (COPULA_RU.test(after) && !RU_ELLIPSIS_DASH.test(after)) score += 3;
  // An abbreviation defined right after the name: "head-down tilt bed rest (HDBR)".
  if (/^\s*\(\p{Lu}[\p{Lu}\p{N}-]{1,11}\)/u.test(after)) score += 1.5;
  // … and the abbreviation itself, defined by the long form before it.
  if (definesAbbreviation(before, after, sentence.slice(at.start, at.end))) {
    score += 2.5;
    // "Head-down tilt bed rest (HDBR) is considered an excellent model": the long form's copula defines it too.
    const outer = COPULA_EN.exec(after.replace(/^\s*\)/u, ""));
    if (outer?.[1] && !NOT_OWN_COPULA.test(before.replace(/\(\s*$/u, ""))) score += 2;
  }
  const appositive = /^(?:\s+\p{Lu}\p{L}+)?\s*,\s*([\p{L}]+)/u.exec(after);
  if (appositive && /^\p{Ll}/u.test(appositive[1])) {
    const w = fold(appositive[1]);
    if (w === "who" || w === "который" || w === "которая") score += 1;
    else if (!FUNCTION.has(w) && !VERBISH.test(w)) score += 1.5;
    // "Marionette, the framework that …", "Kiyo, an old maid, …": an article opening a noun phrase after the comma,
    // closed by a relative word, a preposition or a comma (not a list: "Marionette, the tests and the docs").
    else if (APPOSITIVE_NP.test(after.replace(/^\s+\p{Lu}\p{L}+/u, ""))) score += 1.5;
  }
  if (NAMING_BEFORE.test(before)) score += 2.5;
  if (THIS_IS.test(before)) score += 2;
  // A role noun may stand before the given names of the one asked about ("врач Евгений Федорыч Хоботов").
  const role = /([\p{Ll}]{3,}),?\s+(?:\p{Lu}[\p{L}.]*\s+){0,2}$/u.exec(before);
  if (role && !FUNCTION.has(fold(role[1])) && !VERBISH.test(fold(role[1]))) score += 1;
  if (/["'“‘«]\s*$/u.test(before) && /^\s*["'”’»]/u.test(after)) {
    score += 1;
    // "'Badger' for the principal": a name given for a role.
    if (/^\s*["'”’»]\s*(?:for|stands\s+for|means)\s+(?:the|a|an|our|my)\s/iu.test(after)) score += 1.5;
  }
  if (at.start === 0 || /^\s*(?:the|a|an)\s*$/iu.test(before)) score += 0.5;
  return score;
}

/**
 * The introduction score of `sentence` for `name` (0 when the name is not in it): the best of its places, larger
 * for a clearer introduction (see module doc). `first`: the sentence is the first of its document that names it.
 */
export function introductionScore(sentence: string, name: NameStems, first = false): number {
  const places = findNames(sentence, name);
  if (places.length === 0) return 0;
  let score = Math.max(...places.map((at) => placeScore(sentence, at)));
  if (first) score += 1;
  if (DIALOGUE.test(sentence)) score -= 1.5;
  if (/\?\s*$/u.test(sentence)) score -= 1;
  return Math.max(0, score);
}
