/**
 * Confidence priors of the heuristic distiller, one per rule, in 0..1. They rank how sure a pattern is that it
 * found what its type says, not whether the statement is true (verification decides that). The order is what
 * matters: explicit markers (a JSON rule, a fence, a Markdown separator, "is defined as", "— это") above shapes that
 * usually mean the same ("X is a Y", pipe rows), above plain sentences; a sentence cut by a page break is lowest.
 * No model, no calibration data: these are documented choices, kept here so that they are changed in one place.
 */

/** Prior per rule name. */
export const PRIORS = {
  /** An explicit `{"if": …, "then": …}` JSON block: the author wrote the rule as a rule. */
  logical_rule: 0.9,
  /** A fenced code block (``` … ```): the author marked it as code. */
  code_fenced: 0.9,
  /** Unfenced code recognized by its lines (pasted code, indented blocks). */
  code_detected: 0.7,
  /** A Markdown table with a header separator row. */
  table_markdown: 0.85,
  /** Rows of " | "-joined cells without a separator: key/value tables, layout tables through our parser. */
  table_pipe: 0.75,
  /** Tab-separated rows, three rows or more. */
  table_tab: 0.7,
  /** "X is defined as / means / refers to / denotes Y", "X — это Y", "Под X понимается Y", "X означает Y". */
  definition_explicit: 0.8,
  /** "Y is called X", "Y называется X". */
  definition_called: 0.75,
  /** "X is a/an Y". */
  definition_is_a: 0.7,
  /** An abbreviation list entry ("AMR, antimicrobial resistance; …") after a table or figure. */
  definition_abbreviation: 0.7,
  /** A glossary entry "X: Y" / "X — Y" at a line start. */
  definition_glossary: 0.65,
  /** "X is the Y" (often a role, not a definition: "Monensin is the most studied …"). */
  definition_is_the: 0.6,
  /** "X are Y" with a plural noun phrase. */
  definition_are: 0.6,
  /** "X есть Y" (bookish Russian copula). */
  definition_est: 0.6,
  /** "X – Y" without "это": Russian dash copula, the least marked form. */
  definition_dash: 0.55,
  /** A sentence with a unit, a percentage, a currency or a date. */
  fact_measured: 0.65,
  /** A sentence with a plain number only. */
  fact_number: 0.55,
  /** A complete sentence. */
  text: 0.5,
  /** A long sentence without end punctuation (cut by a page or column break). */
  text_unterminated: 0.35,
} as const;

/** A rule name of {@link PRIORS}. */
export type PriorName = keyof typeof PRIORS;
