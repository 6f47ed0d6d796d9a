/**
 * Key terms of a question and how two term lists compare, on the lexemes of the `pegas` text search configuration
 * (Snowball stemming and stop words for Russian and English, ё = е, case folded: see SearchReads.analyze).
 * Interrogative words ("какова", "сколько", "whose"…) are analysed by the same configuration and taken out, so that
 * "Какова температура кипения воды?" and "При какой температуре кипит вода?" keep the same key terms.
 */
import type { Services } from "../services.ts";

/**
 * Question words of both languages, and the words that only name the kind of answer asked for ("In which year…" is
 * answered by "…in 1922", "какого числа" by a date); Snowball's stop lists already hold most English question words
 * (what, how, why…) and many Russian ones (что, как, где…), the rest are here. Analysed once per services into lexemes.
 */
const INTERROGATIVES =
  "what which who whom whose why how when where whether does do did is are was were can could should would will much many " +
  "year date number amount name " +
  "каков какова каково каковы какой какая какое какие каким каких какую каком какому почему зачем сколько скольких когда где " +
  "куда откуда кто что чем чей чья чьё чьи как ли разве вопрос question год году года дата число числа количество имя название";

const QUESTION_WORDS: ReadonlySet<string> = new Set(INTERROGATIVES.split(" "));

/**
 * The question with a leading question word in lower case ("Сколько весит…" → "сколько весит…"): the meaning guard
 * (domain/meaning/meaning.ts) reads a capitalized sentence-initial word that is no stop word as a possible name, and two
 * wordings of one question rarely open with the same question word.
 */
export function lowerQuestionWord(question: string): string {
  const m = /^\s*(\p{L}+)/u.exec(question);
  if (!m || !QUESTION_WORDS.has(m[1].toLowerCase())) return question;
  return question.slice(0, m.index) + question.slice(m.index).replace(m[1], m[1].toLowerCase());
}

const cache = new WeakMap<object, Promise<Set<string>>>();

/** Lexemes of the interrogative words under this database's `pegas` configuration (cached per services). */
function interrogatives(services: Pick<Services, "searchReads">): Promise<Set<string>> {
  let p = cache.get(services);
  if (!p) {
    p = services.searchReads.analyze(INTERROGATIVES).then((lx) => new Set(lx.map((l) => l.lexeme)));
    p.catch(() => cache.delete(services));
    cache.set(services, p);
  }
  return p;
}

/** The key terms among `lexemes`: the question words taken out, duplicates removed, in input order. */
export async function keyTerms(services: Pick<Services, "searchReads">, lexemes: readonly string[]): Promise<string[]> {
  const drop = await interrogatives(services);
  return [...new Set(lexemes.filter((l) => !drop.has(l)))];
}

/**
 * Whether two lexemes name one term: equal, or one a prefix of the other of at least 3 letters and at most 3 letters
 * shorter — Snowball leaves "кипен" (кипения) and "кип" (кипит) apart, which a reworded question needs together.
 */
export function sameTerm(a: string, b: string): boolean {
  if (a === b) return true;
  const [s, l] = a.length <= b.length ? [a, b] : [b, a];
  return s.length >= 3 && l.length - s.length <= 3 && l.startsWith(s);
}

/** Terms of `a` that some term of `b` matches ({@link sameTerm}). */
export function matchedTerms(a: readonly string[], b: readonly string[]): string[] {
  return a.filter((x) => b.some((y) => sameTerm(x, y)));
}

/**
 * Overlap of two term lists: `dice` = (matched in a + matched in b) / (|a| + |b|) (Dice's coefficient with the
 * prefix-tolerant match) and `containment` = the share of the shorter list matched in the longer; both 0..1.
 */
export function termOverlap(a: readonly string[], b: readonly string[]): { dice: number; containment: number } {
  if (!a.length || !b.length) return { dice: 0, containment: 0 };
  const ma = matchedTerms(a, b).length;
  const mb = matchedTerms(b, a).length;
  const containment = a.length <= b.length ? ma / a.length : mb / b.length;
  return { dice: (ma + mb) / (a.length + b.length), containment };
}
