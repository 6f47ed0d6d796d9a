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
 * The query's lexemes without those of hyphenated compounds whose parts are there too. PostgreSQL's parser emits a
 * hyphenated word both whole and by part («AMP-activated» → `amp-activ`, `amp`, `activ`), so a text that hyphens the
 * words matched three query lexemes where one that writes them apart («activated by AMP») matched two. The
 * compound is dropped when another lexeme of the query starts one of its parts or is started by one (the parts are
 * stemmed alone: `inflammation-rel` has `inflamm`, `relat`), which splits the word as Lucene's standard tokenizer
 * (Unicode UAX #29 word breaks) does for the BM25 baselines of BEIR (Thakur et al., 2021); a compound whose parts
 * are stop words («кто-то») stays. SciFact tune half nDCG@10 0.6974 → 0.6995 (bench/notes.md).
 */
export function withoutSplitCompounds(lexemes: LexemeTf[]): LexemeTf[] {
  const simple = lexemes.map((l) => l.lexeme).filter((l) => !COMPOUND.test(l));
  const split = (compound: string) =>
    compound.split("-").some((part) => simple.some((l) => part.startsWith(l) || l.startsWith(part)));
  return lexemes.filter((l) => !COMPOUND.test(l.lexeme) || !split(l.lexeme));
}
