/**
 * The reference-entry test with guards (references.ts: a regex runs only where it can match) against the test as first
 * written (kept below, verbatim but for names): the same answer and the same mark count on every sentence and
 * paragraph of the fixtures, on bibliography shapes, and on spellings that match a case-insensitive regex without
 * lower-casing to its letters ("ſ", the Kelvin sign, Cyrillic letter variants). The guard words are checked to
 * avoid such letters.
 */
import { beforeAll, describe, expect, test } from "bun:test";
import { GUARD_WORDS, isReference, referenceScore } from "../../src/adapters/distiller/heuristic/references.ts";
import { loadCorpus } from "./corpus.ts";

// ---- the first version of references.ts (main at 7694bde), the reference ----

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
const ENTRY_START = /^(?:\[\d{1,3}\]|\^)\s|^\d{1,3}\.\s+\p{Lu}[\p{L}'’-]+(?:,\s?\p{Lu}\.|\s\p{Lu}{1,3}[.,])/u;

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
function oldScore(text: string): number {
  let t = text.trim();
  for (const r of IN_TEXT) t = t.replace(r, " ");
  return MARKS.filter((r) => r.test(t)).length + (authorMark(t) ? 1 : 0);
}

/** A reference-list entry (or a piece of one): a decisive shape, or two bibliographic marks (module doc). */
function oldIsReference(text: string): boolean {
  const t = text.trim();
  return DECISIVE.some((r) => r.test(t)) || oldScore(t) >= 2;
}

// ---- end of the first version ----

const SHAPES = [
  "1. What can the UN General Assembly do for global health? Lancet. 2013; 382:1000. https://doi.org/10.1016/S0140-6736(13)61959-5 PMID: 24054523",
  "Smith A, Jones B. Sleep and shift work. J Sleep Res. 2016;12(3):45–67.",
  "New York: United Nations; 2016.",
  "Geneva: World Health Organization; 2019 [cited 2021 Nov 30].",
  "1. Fuchs, H.; Bachran, C. Design of targeted protein toxins. In Drug Delivery in Oncology; Kratz, F., Eds.; Wiley-VCH: Weinheim, Germany, 2011; Volume 3, pp. 1443–1487.",
  '^ "Mac vendors ponder Netscape gambit.". Macworld. 1 May 1998. Retrieved 2012-08-19.',
  "Иванов И.И. Геоакустика // Вестник КРАУНЦ. 2019. Т. 27, № 2. С. 129-137.",
  "М.: Наука, 1985. — 320 с.",
  "Под ред. А. Б. Петрова. Дата обращения: 12.03.2020.",
  "Smith et al. (2019) showed that sleep matters, as did (Jones and Lee, 2020).",
  "See the report at techcrunch.com.",
  "See the report at TECHCRUNCH.COM",
  "Accessed via the portal, doi 10.1000/182, Proc. of the meeting; Eds.; In: the volume.",
  // Letters that match a case-insensitive regex without lower-casing to it.
  "Acceſſed 2020 from the archive, et al. and https://example.org/x.",
  "httpſ://example.org and Dᴀta; the ſcholar wrote it.",
  "Да\u1C81та обращения: 2020; Под ре\u1C81. Петрова; т. 5, № 3.",
  "\u212Aelvin et al. wrote Vol. 3, pp. 12–14 (2019).",
];

let pieces: string[] = [];

beforeAll(async () => {
  const corpus = await loadCorpus(1200);
  const seen = new Set<string>();
  for (const chunks of corpus.chunks.values())
    for (const chunk of chunks)
      for (const piece of [chunk, ...chunk.split(/\n\s*\n/u), ...chunk.split(/(?<=[.!?;])\s+|\n/u)])
        if (piece.trim()) seen.add(piece);
  pieces = [...seen, ...SHAPES];
}, 120_000);

describe("reference guards change no answer", () => {
  test("isReference and referenceScore equal the first version on every fixture piece and shape", () => {
    expect(pieces.length).toBeGreaterThan(10_000);
    const differ = pieces.filter((p) => isReference(p) !== oldIsReference(p) || referenceScore(p) !== oldScore(p));
    expect(differ).toEqual([]);
    expect(SHAPES.filter((s) => oldIsReference(s)).length).toBeGreaterThan(8); // the shapes do hit the marks
  });

  test("guard words avoid letters that a case-insensitive match finds without lower-casing to them", () => {
    // No character outside the BMP case-folds into it, so the BMP is all there is to check.
    const letters = new Set([...Object.values(GUARD_WORDS).flat().join("")].filter((c) => /\p{L}/u.test(c)));
    const unsafe: string[] = [];
    for (const x of letters) {
      const re = new RegExp(x, "iu");
      for (let cp = 0; cp <= 0xffff; cp++) {
        const c = String.fromCharCode(cp);
        if (re.test(c) && !c.toLowerCase().includes(x)) unsafe.push(`${x} ← U+${cp.toString(16)}`);
      }
    }
    expect(unsafe).toEqual([]);
  });
});
