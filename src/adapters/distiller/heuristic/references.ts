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

/**
 * What the marks' guards read of a text, computed once per text. A guard is a cheap test that holds whenever its
 * regex can match (a digit, a bracket, a literal word), so a regex runs only where it could succeed: prose without
 * digits never runs the year, page or imprint patterns. Guard words are looked up in the lower-cased text and
 * avoid the letters whose case-insensitive matches do not lower-case to them (s: ſ; в д о с т ъ: U+1C80–U+1C86;
 * tests/distiller/reference-guards.test.ts checks this), so a guard never rejects what the `iu` regex accepts.
 */
class Probe {
  readonly digit: boolean;
  private lowered: string | null = null;

  constructor(readonly t: string) {
    this.digit = /[0-9]/.test(t); // \d of these patterns is ASCII only, with or without the u flag
  }

  /** True when the lower-cased text contains one of `words`. */
  has(words: readonly string[]): boolean {
    this.lowered ??= this.t.toLowerCase();
    const lower = this.lowered;
    return words.some((w) => lower.includes(w));
  }
}

/** The identifier mark without its last alternative (below): DOI, URL, PMID, a database tag. */
const IDENTIFIER =
  /\bdoi\b|doi\.org|10\.\d{4,}\/|https?:\/\/|\bwww\.|\bPMC?ID\b|\[(?:CrossRef|PubMed|Google Scholar)\]/iu;
/** A bare domain at the end ("techcrunch.com."); tried only when the text's last five units end so. */
const DOMAIN_END = /\b[\w-]+\.(?:com|org|net|gov|edu|ru|int)\.?$/iu;
const DOMAIN_TAIL = /\.(?:com|org|net|gov|edu|ru|int)\.?$/iu;
// (JavaScript's \b knows only ASCII letters: before a Cyrillic word the boundary is spelled out.)
const ET_AL = /\bet al\.|(?<!\p{L})и др\./u;
/** Volume, issue, edition, identifiers with a number: "Vol. 3", "No. 2", "Т.15, №2", "Вып.2". */
const VOLUME = /(?<![\p{L}\p{N}])(?:vol\.|no\.|issn|isbn|pmid|arxiv|вып\.|изд\.|т\.|№)\s?\d/iu;
/** Editors and proceedings: "Eds.;", "Proc.", "In:", "Под ред.". */
const EDITORS = /\bEds?\.[;,)]|(?<!\p{L})(?:Proc\.|In:|Под ред\.)/iu;
/** Pages: "pp. 1443–1487", "p. 12", "С. 129-137", "с. 98–105", "— 320 с.". */
const PAGES = /(?<![\p{L}\p{N}])(?:pp?\.\s?\d|[СсCc]\.\s?\d+\s?[–-]\s?\d)|\d\s?с\.(?:\s|$)/iu;
/**
 * A year as bibliographies place it: "(2008)", "(November 15, 2012)", "2015, 20, 176–185", "(Publisher, 2019).",
 * last after a comma or semicolon ("… HR Portal; 2015 [cited 2021 Jun 10].").
 */
const PLACED_YEAR = new RegExp(
  `[;,]\\s?${YEAR}(?:\\s?\\[[^\\]]*\\]?)?\\.?$|\\(${YEAR}\\)|\\((?:\\d{1,2}\\s)?${MONTH}(?:\\s\\d{1,2})?,?\\s${YEAR}\\)|\\b${YEAR},\\s\\d+(?:\\s?\\(\\d+\\))?,\\s(?:e?\\d+[–-]\\d+|e\\d+)|\\([^()]{2,80}[,;]\\s?${YEAR}\\)\\.?$|\\.\\s[–—-]\\s${YEAR}\\.`,
  "u",
);
const RETRIEVED =
  /\bRetrieved\b|\bAccessed\b|\bArchived from\b|\[(?:cited|accessed)\b|\bAvailable (?:from|online|at)\b|Дата обращения|\bURL\s?:/iu;
/** GOST's separator "Title // Journal" and a quoted title closing a sentence ("\"Title\". Publisher."). */
const GOST = /\s\/\/\s?\p{L}|["“][^"”]{3,}["”]\.(?:\s|$)/u;
const INITIALS = /(?<![\p{L}\p{N}])\p{Lu}\.(?:\s?\p{Lu}\.)?(?=[,;\s]|\p{Lu}\p{Ll})/gu;
const SURNAME_LIST = new RegExp(`${SURNAME}\\s\\p{Lu}{1,3},\\s${SURNAME}\\s\\p{Lu}{1,3}[,.]`, "u");

/** Guard words (lower case) of the identifier, editors and retrieval marks; tested for safe letters (see Probe). */
export const GUARD_WORDS = {
  identifier: ["doi", "10.", "http", "www.", "pmid", "pmcid"],
  editors: ["proc.", "in:", "ре"],
  retrieved: ["retrieved", "acce", "archived from", "[cited", "available", "бращени", "url"],
} as const;

/** The marks, each a guarded test that counts once (see the module doc). */
const MARKS: Array<(p: Probe) => boolean> = [
  (p) => ENTRY_START.test(p.t),
  (p) =>
    ((p.has(GUARD_WORDS.identifier) || p.t.includes("[")) && IDENTIFIER.test(p.t)) ||
    (DOMAIN_TAIL.test(p.t.slice(-5)) && DOMAIN_END.test(p.t)),
  (p) => (p.t.includes("al.") || p.t.includes("др.")) && ET_AL.test(p.t),
  (p) =>
    (p.digit && VOLUME.test(p.t)) ||
    ((p.t.includes(".;") || p.t.includes(".,") || p.t.includes(".)") || p.has(GUARD_WORDS.editors)) &&
      EDITORS.test(p.t)),
  (p) => p.digit && PAGES.test(p.t),
  (p) => p.digit && PLACED_YEAR.test(p.t),
  (p) => p.has(GUARD_WORDS.retrieved) && RETRIEVED.test(p.t),
  (p) => p.digit && p.t.includes(":") && IMPRINT.test(p.t),
  (p) => (p.t.includes("//") || p.t.includes('"') || p.t.includes("“")) && GOST.test(p.t),
  authorMark,
];

/** Initials: "H.", "F. A. J. L.", "М.С.", "Г.Нолета" (two or more make a mark), or a "Surname AB, Surname C" list. */
function authorMark(p: Probe): boolean {
  if ((p.t.match(INITIALS) ?? []).length >= 2) return true;
  return SURNAME_LIST.test(p.t);
}

/** The text with its in-text citations removed (both patterns need a "(" and a year's digits). */
function withoutInText(text: string): string {
  let t = text.trim();
  if (!t.includes("(") || !/[0-9]/.test(t)) return t;
  for (const r of IN_TEXT) t = t.replace(r, " ");
  return t;
}

/** The bibliographic marks of `text` after its in-text citations are removed (0 … 10). */
export function referenceScore(text: string): number {
  const p = new Probe(withoutInText(text));
  return MARKS.filter((m) => m(p)).length;
}

/** A reference-list entry (or a piece of one): a decisive shape, or two bibliographic marks (module doc). */
export function isReference(text: string): boolean {
  const t = text.trim();
  // Both decisive shapes need a ";" and a year's digits.
  if (t.includes(";") && /[0-9]/.test(t) && DECISIVE.some((r) => r.test(t))) return true;
  const p = new Probe(withoutInText(t));
  let marks = 0;
  for (const m of MARKS) if (m(p) && ++marks >= 2) return true;
  return false;
}
