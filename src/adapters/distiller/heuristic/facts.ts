/**
 * Facts: sentences that state a quantity or a date. Numbers that only point elsewhere are ignored first: citation
 * marks ("[12]", "[3,4]"), figure/table/equation/section references ("Fig. 2", "Table 1", "рис. 3", "(4)"), tracker ids ("Bug 1553982", "#12"),
 * leading section numbers ("2.1."), and digits glued to letters (identifiers and versions such as "H264", "x86").
 */
import { EN_MONTHS, RU_MONTHS, UNITS } from "./lexicon.ts";
import type { PriorName } from "./priors.ts";

const REFERENCES = [
  /\[\s*\d+(?:\s*[,;–-]\s*\d+)*\s*\]/gu,
  /\b(?:Fig(?:ure)?s?|Tables?|Tab|Footnotes?|Notes?|Eqs?|Equations?|Sections?|Sect?|Chapters?|Ch|Refs?|Appendix|Supplementary)\.?\s*(?:S?\d+[a-z]?)(?:\s*[,–-]\s*\d+[a-z]?)*/gu,
  /(?<![\p{L}])(?:[Рр]ис(?:унок|унке|\.)?|[Тт]абл(?:ица|ице|\.)?|[Рр]азд(?:ел|\.)?|[Гг]л(?:ава|\.)|[Фф]ормул[аеы]|[Сс]м\.)\s*\d+(?:[.,]\d+)*/gu,
  /\(\s*\d{1,2}(?:\s*[,–-]\s*\d{1,2})*\s*\)/gu,
  /\b(?:Bug|Issue|PR|RFC|CVE|Pull request|Ticket)\s*#?\d+(?:-\d+)*|#\d+\b|№\s*\d+/giu,
  /^\s*\d+(?:\.\d+)*\.?\s+/u,
];

const NUMBER = String.raw`(?<![\p{L}\p{N}_.,])[-+−±~≈]?\d+(?:[.,]\d+)*(?:\s?[-–]\s?\d+(?:[.,]\d+)*)?`;
const UNIT = `(?:${UNITS.join("|")})`;
const MEASURED = [
  new RegExp(`${NUMBER}\\s?${UNIT}(?![\\p{L}\\p{N}])`, "u"),
  /[$€£¥₽]\s?\d/u,
  new RegExp(`(?<![\\p{L}\\p{N}])(?:${EN_MONTHS})\\s+\\d{1,4}\\b|\\b\\d{1,2}\\s+(?:${EN_MONTHS})(?![\\p{L}])`, "u"),
  new RegExp(`(?<![\\p{L}])(?:${RU_MONTHS})(?![\\p{L}])`, "iu"),
  new RegExp(`\\b(?:in|on|since|until|by|from|during|early|late|mid-?)\\s+(?:${EN_MONTHS})(?![\\p{L}])`, "u"),
  /(?<![\p{L}\p{N}.])(?:1[5-9]\d\d|20\d\d)(?:s|-е)?(?![\p{N}]|[.,]\d)/u,
  /\b\d{4}-\d{2}-\d{2}\b|\b\d{1,2}\.\d{1,2}\.(?:\d{4}|\d{2})\b/u,
];
/** The patterns of {@link MEASURED} that need no digit: a Russian month, "in/since/… <English month>". */
const MONTH_WORDS = [MEASURED[3], MEASURED[4]];
const PLAIN = new RegExp(`${NUMBER}(?![\\p{L}\\p{N}])|${NUMBER}(?=\\s)`, "u");

/** The sentence with reference-only numbers removed (see module doc). */
export function withoutReferences(sentence: string): string {
  let s = sentence;
  for (const r of REFERENCES) s = s.replace(r, " ");
  return s;
}

/**
 * The fact rule a sentence matches: `fact_measured` (a unit, percentage, currency, month date, year, ISO or dotted
 * date), `fact_number` (a plain number), or null (no quantity once references are removed).
 */
export function factRule(sentence: string): PriorName | null {
  // Every reference pattern and every quantity pattern but the two month words needs a digit (\d is ASCII).
  if (!/[0-9]/.test(sentence)) return MONTH_WORDS.some((r) => r.test(sentence)) ? "fact_measured" : null;
  const s = withoutReferences(sentence);
  if (MEASURED.some((r) => r.test(s))) return "fact_measured";
  return PLAIN.test(s) ? "fact_number" : null;
}
