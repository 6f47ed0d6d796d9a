/**
 * Reference-list (bibliography) entries, English and Russian, as PDF and HTML parsers deliver them: one entry per
 * paragraph, or cut into sentences ("New York: United Nations; 2016."), or split across a page break. An entry is
 * told by its bibliographic marks (a leading "[12]"/"^"/"12. Surname, I.", author initials or "Surname AB" lists,
 * DOI/URL/PMID, "et al.", volume and page marks, a year placed as bibliographies place it, an imprint
 * "Place: Publisher; 2016", "Retrieved/Accessed/Available from", GOST's "//" and «М.: Наука, 1985. — 320 с.»).
 * Two marks make an entry; one decisive shape alone does too (a whole imprint, a journal citation "2013;
 * 382:1000"). Body text keeps its in-text citations ("Smith et al. (2019) showed …", "(Jones and Lee, 2020)"):
 * they are removed before counting, so a sentence that cites is not taken for the entry it cites.
 */

const MONTH = "(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)[a-z]*\\.?";
const YEAR = "(?:1[5-9]|20)\\d{2}[a-z]?";
const SURNAME = "\\p{Lu}[\\p{Ll}'’-]+(?:[- ]\\p{Lu}[\\p{Ll}'’-]+)?";

/** In-text citations, removed before counting: "Smith et al. (2019)", "(Smith et al., 2019; Lee, 2020)". */
const IN_TEXT = [
  new RegExp(`${SURNAME}(?:\\s+(?:and|&|и)\\s+${SURNAME}|\\s+et al\\.|\\s+и др\\.)?\\s+\\(${YEAR}\\)`, "gu"),
  new RegExp(
    `\\((?:see |e\\.g\\., |cf\\. )?${SURNAME}(?:\\s+(?:and|&|и)\\s+${SURNAME}|\\s+et al\\.|\\s+и др\\.)?,?\\s+${YEAR}(?:[;,]\\s*[^()]{0,80})?\\)`,
    "gu",
  ),
];

/** The imprint "Place: Publisher; 2016" (also "М.: Мир, 1990", "Wiley-VCH: Weinheim, Germany, 2011"). */
const IMPRINT = new RegExp(
  `(?:^|[\\s.])\\p{Lu}[\\p{L}.'’ ()-]{0,40}:\\s?[^:;.\\[\\]]{2,100}[;,]\\s?${YEAR}(?![\\p{N}])`,
  "u",
);

/** Shapes that are an entry on their own (see the module doc). */
const DECISIVE = [
  // The sentence ends with a whole imprint: "… New York: United Nations; 2016 [cited 2021 Nov 30]."
  new RegExp(
    `(?:^|[\\s.])\\p{Lu}[\\p{L}.'’ ()-]{1,40}:\\s[^:;.]{2,100};\\s?${YEAR}(?:\\s?\\[(?:cited|accessed)[^\\]]*\\]?)?(?:\\.\\s?pp?\\.\\s?\\d+[–-]\\d+)?\\.?$`,
    "u",
  ),
  // A journal citation "Lancet. 2013; 382:1000", "2019;12(3):45–67", "2016 Mar;12:45".
  new RegExp(`\\b${YEAR}(?:\\s${MONTH}(?:\\s\\d{1,2})?)?\\s?;\\s?\\d+(?:\\s?\\(\\d+\\))?:\\s?[A-Za-z]?\\d+`, "u"),
];

/** How an entry opens: "[12] …", "^ …" (Wikipedia), "12. Fuchs, H.;", "16. Dauda RS.", "[7] Д. Каханер". */
export const ENTRY_START = /^(?:\[\d{1,3}\]|\^)\s|^\d{1,3}\.\s+\p{Lu}[\p{L}'’-]+(?:,\s?\p{Lu}\.|\s\p{Lu}{1,3}[.,])/u;

/** The marks; each counts once (see the module doc). */
const MARKS: RegExp[] = [
  ENTRY_START,
  // An identifier: DOI, URL, PMID, a database tag, a bare domain at the end ("techcrunch.com.").
  /\bdoi\b|doi\.org|10\.\d{4,}\/|https?:\/\/|\bwww\.|\bPMC?ID\b|\[(?:CrossRef|PubMed|Google Scholar)\]|\b[\w-]+\.(?:com|org|net|gov|edu|ru|int)\.?$/iu,
  // (JavaScript's \b knows only ASCII letters: before a Cyrillic word the boundary is spelled out.)
  /\bet al\.|(?<!\p{L})и др\./u,
  // Volume, issue, edition, editors, identifiers: "Vol. 3", "No. 2", "Т.15, №2", "Вып.2", "Eds.;", "Под ред.".
  /(?<![\p{L}\p{N}])(?:vol\.|no\.|issn|isbn|pmid|arxiv|вып\.|изд\.|т\.|№)\s?\d|\bEds?\.[;,)]|(?<!\p{L})(?:Proc\.|In:|Под ред\.)/iu,
  // Pages: "pp. 1443–1487", "p. 12", "С. 129-137", "с. 98–105", "— 320 с.".
  /(?<![\p{L}\p{N}])(?:pp?\.\s?\d|[СсCc]\.\s?\d+\s?[–-]\s?\d)|\d\s?с\.(?:\s|$)/iu,
  // A year as bibliographies place it: "(2008)", "(November 15, 2012)", "2015, 20, 176–185", "(Publisher, 2019).",
  // last after a comma or semicolon ("… HR Portal; 2015 [cited 2021 Jun 10].").
  new RegExp(
    `[;,]\\s?${YEAR}(?:\\s?\\[[^\\]]*\\]?)?\\.?$|\\(${YEAR}\\)|\\((?:\\d{1,2}\\s)?${MONTH}(?:\\s\\d{1,2})?,?\\s${YEAR}\\)|\\b${YEAR},\\s\\d+(?:\\s?\\(\\d+\\))?,\\s(?:e?\\d+[–-]\\d+|e\\d+)|\\([^()]{2,80}[,;]\\s?${YEAR}\\)\\.?$|\\.\\s[–—-]\\s${YEAR}\\.`,
    "u",
  ),
  /\bRetrieved\b|\bAccessed\b|\bArchived from\b|\[(?:cited|accessed)\b|\bAvailable (?:from|online|at)\b|Дата обращения|\bURL\s?:/iu,
  IMPRINT,
  // GOST's separator "Title // Journal" and a quoted title closing a sentence ("\"Title\". Publisher.").
  /\s\/\/\s?\p{L}|["“][^"”]{3,}["”]\.(?:\s|$)/u,
];

/** Initials: "H.", "F. A. J. L.", "М.С.", "Г.Нолета" (two or more make a mark), or a "Surname AB, Surname C" list. */
function authorMark(t: string): boolean {
  if ((t.match(/(?<![\p{L}\p{N}])\p{Lu}\.(?:\s?\p{Lu}\.)?(?=[,;\s]|\p{Lu}\p{Ll})/gu) ?? []).length >= 2) return true;
  return new RegExp(`${SURNAME}\\s\\p{Lu}{1,3},\\s${SURNAME}\\s\\p{Lu}{1,3}[,.]`, "u").test(t);
}

/** The bibliographic marks of `text` after its in-text citations are removed (0 … 10). */
export function referenceScore(text: string): number {
  let t = text.trim();
  for (const r of IN_TEXT) t = t.replace(r, " ");
  return MARKS.filter((r) => r.test(t)).length + (authorMark(t) ? 1 : 0);
}

/** A reference-list entry (or a piece of one): a decisive shape, or two bibliographic marks (module doc). */
export function isReference(text: string): boolean {
  const t = text.trim();
  return DECISIVE.some((r) => r.test(t)) || referenceScore(t) >= 2;
}
