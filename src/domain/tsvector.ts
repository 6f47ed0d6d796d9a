/**
 * Parsing of PostgreSQL's `tsvector` text output (`'lexeme':1,4B 'other':2`), the analysis that PostgreSQL full-text
 * search (stemming, stop words) has already done, into lexeme → term frequency.
 */

/** A lexeme and its frequency (number of positions; 1 when the vector carries no positions). */
export interface LexemeTf {
  lexeme: string;
  tf: number;
}

/**
 * Parses the text form of a tsvector. Lexemes are single-quoted with `''` and `\\` escapes; positions follow
 * a colon, comma-separated, each optionally suffixed by a weight letter A–D.
 * @throws Error on malformed input (a driver bug, never user input).
 */
export function parseTsvector(text: string): LexemeTf[] {
  const out: LexemeTf[] = [];
  let i = 0;
  const n = text.length;
  while (i < n) {
    while (i < n && text.charCodeAt(i) === 32) i++;
    if (i >= n) break;
    if (text[i] !== "'") throw new Error(`malformed tsvector at ${i}: ${text.slice(i, i + 20)}`);
    i++;
    let lexeme = "";
    for (;;) {
      if (i >= n) throw new Error("malformed tsvector: unterminated lexeme");
      const c = text[i];
      if (c === "\\") {
        lexeme += text[i + 1];
        i += 2;
      } else if (c === "'") {
        if (text[i + 1] === "'") {
          lexeme += "'";
          i += 2;
        } else {
          i++;
          break;
        }
      } else {
        lexeme += c;
        i++;
      }
    }
    let tf = 1;
    if (text[i] === ":") {
      tf = 1;
      i++;
      while (i < n && text.charCodeAt(i) !== 32) {
        if (text[i] === ",") tf++;
        i++;
      }
    }
    out.push({ lexeme, tf });
  }
  return out;
}
