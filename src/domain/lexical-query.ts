/**
 * The text of a search query that the lexical leg analyzes: the question without its question words and without the
 * case endings of numerals. PostgreSQL's analyzer (`to_tsvector('pegas', …)`) sees words, not a question: it keeps
 * the forms of «какой», «который», «этот» that the Snowball stop list misses (domain/stopwords.ts,
 * {@link QUESTION_WORD_FORMS}) and splits a Russian numeral's written ending («1970-х», «10-й», «90-е», «2-го») into
 * a number and a one- or two-letter lexeme («х», «й») that matches every other numeral with that ending.
 */
import { QUESTION_WORD_FORMS } from "./stopwords.ts";
import type { LexemeTf } from "./tsvector.ts";

/** A digit followed by a hyphen and a Cyrillic ending of at most three letters, the whole word. */
const NUMERAL_ENDING = /(\d)-[а-яё]{1,3}(?![\p{L}\d])/giu;

/**
 * `query` with the words of {@link QUESTION_WORD_FORMS} replaced by spaces (compared in lower case, ё read as е)
 * and numeral endings dropped («в 1970-х годах» → «в 1970 годах»); `query` itself when no letter or digit would
 * remain, so that a query of such words alone still finds them.
 */
export function lexicalQueryText(query: string): string {
  const kept = query
    .replace(NUMERAL_ENDING, "$1")
    .replace(/\p{L}+/gu, (w) => (QUESTION_WORD_FORMS.has(w.toLowerCase().replaceAll("ё", "е")) ? " " : w));
  return /[\p{L}\d]/u.test(kept) ? kept : query;
}

/** A lexeme of a hyphenated compound as PostgreSQL's parser gives it (`amp-activ`, `санкт-петербург`), not `-3`. */
const COMPOUND = /^[^-]+(?:-[^-]+)+$/;

/**
 * Weight of a hyphenated compound's own lexeme beside its parts, as a phrase feature: SciFact tune half nDCG@10
 * 0 (parts only) 0.6995, 0.1 0.7015, 0.2 0.7018, 0.3 0.7043, 0.4 0.7002, 1 (as before) 0.6974 (bench/notes.md).
 */
export const COMPOUND_WEIGHT = 0.3;

/**
 * The query's lexemes with those of hyphenated compounds whose parts are there too weighed as a phrase, not as a
 * word. PostgreSQL's parser emits a hyphenated word whole and by part («AMP-activated» → `amp-activ`, `amp`,
 * `activ`): counted in full, the whole is a third rare word, and a text that hyphenates outranked one that writes
 * the words apart («activated by AMP») by a full word's score. The whole is in effect the ordered-window (#1) feature
 * of the sequential dependence model (Metzler & Croft, 2005, "A Markov Random Field Model for Term Dependencies"),
 * which gives such a phrase a fraction of a word's weight: its frequency is multiplied by `weight` (default
 * {@link COMPOUND_WEIGHT}). A part is there when another lexeme of the query starts it or is started by it (the parts
 * are stemmed alone: `inflammation-rel` has `inflamm`, `relat`); a compound whose parts are stop words («кто-то»)
 * keeps its full weight. Order and other lexemes unchanged.
 */
export function weighCompounds(lexemes: LexemeTf[], weight = COMPOUND_WEIGHT): LexemeTf[] {
  const simple = lexemes.map((l) => l.lexeme).filter((l) => !COMPOUND.test(l));
  const split = (compound: string) =>
    compound.split("-").some((part) => simple.some((l) => part.startsWith(l) || l.startsWith(part)));
  return lexemes.map((l) => (COMPOUND.test(l.lexeme) && split(l.lexeme) ? { lexeme: l.lexeme, tf: l.tf * weight } : l));
}
