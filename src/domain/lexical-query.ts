/**
 * The text of a search query that the lexical leg analyzes: the question without its question words and without the
 * case endings of numerals. PostgreSQL's analyzer (`to_tsvector('pegas', …)`) sees words, not a question: it keeps
 * the forms of «какой», «который», «этот» that the Snowball stop list misses (domain/stopwords.ts,
 * {@link QUESTION_WORD_FORMS}) and splits a Russian numeral's written ending («1970-х», «10-й», «90-е», «2-го») into
 * a number and a one- or two-letter lexeme («х», «й») that matches every other numeral with that ending.
 */
import { QUESTION_WORD_FORMS } from "./stopwords.ts";

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
