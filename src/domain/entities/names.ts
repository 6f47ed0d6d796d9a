/**
 * The canonical name and key of a run of name words: Russian names put back to the nominative (a patronymic or a
 * known first name tells the case of the whole name), English possessives dropped, spacing kept around initials.
 */
import { FIRST_NAMES } from "./lexicon.ts";
import { genitiveByContext, guessNominative, nominativeIn, patronymic, type RuCase, recase } from "./russian-names.ts";
import type { Token } from "./tokens.ts";

/** The matching form of a name (EntityMention.key): lower case, ё → е, one space between words. */
export function nameKey(name: string): string {
  return name.toLowerCase().replaceAll("ё", "е").replace(/\s+/gu, " ").trim();
}

/** A word without an English possessive ending ("Alice's" → "Alice", "James'" stays "James'"; "Tolkien’s" too). */
export function stripPossessive(word: string): string {
  return word.replace(/['’]s$/u, "");
}

/** A Japanese honorific ending a name ("Koga-san", "Su-chan"): a person, and not part of the name. */
export const HONORIFIC_SUFFIX = /-(?:san|kun|chan|sama|sensei|dono|senpai)$/iu;

const CASES: readonly RuCase[] = ["gen", "dat", "acc", "ins", "pre"];

/** The case and gender of a Cyrillic run: from its patronymic, else from a first name the gazetteer knows. */
function caseOfRun(lowers: readonly string[]): { c: RuCase; fem: boolean } | null {
  for (let i = 1; i < lowers.length; i++) {
    const p = patronymic(lowers[i]);
    if (p) return { c: p.case, fem: p.feminine };
  }
  for (const w of lowers) {
    if (FIRST_NAMES.has(w)) return { c: "nom", fem: /[ая]$/u.test(w) };
    for (const c of CASES)
      for (const fem of [false, true]) if (FIRST_NAMES.has(nominativeIn(w, c, fem))) return { c, fem };
  }
  return null;
}

/** The nominative words of a Cyrillic run (lower case), one per token. */
function russianWords(lowers: readonly string[]): string[] {
  const rc = caseOfRun(lowers);
  if (rc) return lowers.map((w) => nominativeIn(w, rc.c, rc.fem));
  return lowers.map((w) => guessNominative(w));
}

/**
 * The canonical display name of a run of tokens taken from `text` (original spacing kept between the words);
 * `before`/`before2` are the two tokens before the run, which may show a lone Russian name's genitive.
 */
export function canonicalName(run: readonly Token[], text: string, before?: Token, before2?: Token): string {
  const cyrillic = run.some((t) => /\p{Script=Cyrillic}/u.test(t.text));
  const words = run.map((t) => stripPossessive(t.text).replace(HONORIFIC_SUFFIX, ""));
  if (cyrillic) {
    const lowers = words.map((w) => w.toLowerCase().replaceAll("ё", "е"));
    const nominative = russianWords(lowers);
    // The word before governs the name only inside one sentence («тоже должны. Дарьюшка …» is a nominative).
    if (run.length === 1 && nominative[0] === lowers[0] && before && !before.cap && !run[0].sentStart) {
      nominative[0] = genitiveByContext(lowers[0], before.lower, before2?.lower) ?? lowers[0];
    }
    for (let i = 0; i < words.length; i++)
      if (!run[i].allCaps && !/\.$/u.test(words[i])) words[i] = recase(words[i], nominative[i]);
  }
  let out = words[0];
  for (let i = 1; i < run.length; i++) {
    const gap = text.slice(run[i - 1].end, run[i].start);
    out += (/\./u.test(gap) ? ". " : " ") + words[i];
  }
  return out.replace(/['’]$/u, "");
}
