/**
 * Text hygiene shared by every write path: characters that PostgreSQL cannot store, newline normalization,
 * language guess and claim extraction. Pure functions, no I/O.
 */

/** Result of {@link sanitizeText}: the storable text and what was changed, as human-readable warnings. */
export interface Sanitized {
  text: string;
  warnings: string[];
}

/**
 * Makes a string storable in PostgreSQL `text` (UTF-8, no NUL): CRLF/CR become LF, NUL bytes are removed and
 * lone UTF-16 surrogates become U+FFFD. Each change is reported with its count; nothing else is altered.
 */
export function sanitizeText(input: string, what = "text"): Sanitized {
  const warnings: string[] = [];
  let text = input.includes("\r") ? input.replace(/\r\n?/g, "\n") : input;
  if (text.includes("\u0000")) {
    const before = text.length;
    text = text.replaceAll("\u0000", "");
    warnings.push(`${what}: removed ${before - text.length} NUL character(s), which PostgreSQL cannot store`);
  }
  if (!text.isWellFormed()) {
    let lone = 0;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c >= 0xd800 && c <= 0xdbff) {
        const n = text.charCodeAt(i + 1);
        if (n >= 0xdc00 && n <= 0xdfff) i++;
        else lone++;
      } else if (c >= 0xdc00 && c <= 0xdfff) lone++;
    }
    text = text.toWellFormed();
    warnings.push(`${what}: replaced ${lone} lone surrogate(s) with U+FFFD`);
  }
  return { text, warnings };
}

/** Most folds remembered by {@link foldForHash} before it forgets them all. */
const FOLD_MEMO_SIZE = 128;
/** Longest text whose fold is remembered (a chunk is ≈ 1,200; longer texts are rarely folded twice). */
const FOLD_MEMO_CHARS = 4096;
/** Recent folds, keyed by a flat copy of the input (a key that is a slice would pin the whole text it was cut from). */
const foldMemo = new Map<string, string>();

/**
 * Folds text for hashing and comparison: NFKC, lower case, ё→е, whitespace runs to one space, trimmed. The last
 * {@link FOLD_MEMO_SIZE} results (of texts up to {@link FOLD_MEMO_CHARS}) are remembered: ingest folds each chunk and each quote several times (quote checks
 * of the distiller and of the core, verbatim-text removal, content hashes), and one fold of a chunk costs as much as
 * the rest of its quote check.
 */
export function foldForHash(text: string): string {
  const memo = text.length <= FOLD_MEMO_CHARS;
  const known = memo ? foldMemo.get(text) : undefined;
  if (known !== undefined) return known;
  const lower = text.normalize("NFKC").toLowerCase().replaceAll("ё", "е");
  // Whitespace already single spaces inside and none at the ends (a folded quote, a collapsed claim): keep it.
  const folded = isCollapsed(lower) ? lower : lower.replace(/\s+/gu, " ").trim();
  if (!memo) return folded;
  if (foldMemo.size >= FOLD_MEMO_SIZE) foldMemo.clear();
  const key = flatCopy(text);
  // A fold that changed nothing may be `text` itself: keep the copy then, not a slice of someone's whole text.
  foldMemo.set(key, folded === text ? key : folded);
  return folded;
}

/**
 * True when `text.replace(/\s+/gu, " ").trim()` would return it unchanged: its only whitespace is single spaces
 * between other characters. One pass over the code units, no regex.
 */
export function isCollapsed(text: string): boolean {
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === 32) {
      if (i === 0 || i === n - 1 || text.charCodeAt(i + 1) === 32) return false;
    } else if (c < 128 ? c >= 9 && c <= 13 : isSpaceUnit(c)) return false;
  }
  return true;
}

/** A copy of `s` in its own buffer (JavaScriptCore keeps a slice's whole parent string alive; a copy does not). */
export function flatCopy(s: string): string {
  return s.length < 64 ? s : ` ${s}`.slice(1);
}

/**
 * A code point test by a one-character regex (`/\p{L}/u`, …), with the answers for the BMP cached in a table filled
 * on first sight: the regex's own answer, at an array read instead of a regex call per character.
 */
function codePointTest(re: RegExp): (cp: number) => boolean {
  let bmp: Uint8Array | null = null; // 0 not asked yet, 1 yes, 2 no
  return (cp) => {
    if (cp > 0xffff) return re.test(String.fromCodePoint(cp));
    bmp ??= new Uint8Array(0x10000);
    let s = bmp[cp];
    if (s === 0) {
      s = re.test(String.fromCharCode(cp)) ? 1 : 2;
      bmp[cp] = s;
    }
    return s === 1;
  };
}

const cyrillicTest = codePointTest(/\p{Script=Cyrillic}/u);
/** True when code point `cp` is of the Cyrillic script (`\p{Script=Cyrillic}`; nothing below U+0400 is). */
function cyrillic(cp: number): boolean {
  return cp >= 0x400 && cyrillicTest(cp);
}

/** True when code point `cp` is a letter (`\p{L}`). */
export const isLetter = codePointTest(/\p{L}/u);
/** True when UTF-16 unit `c` is whitespace as `\s` and `trim()` know it (every such character is in the BMP). */
export const isSpaceUnit = codePointTest(/\s/u);

/**
 * Visits the tokens of `text` split at whitespace runs, exactly the pieces of `text.split(/\s+/u)` (an empty piece
 * before leading and after trailing whitespace, one empty piece for ""), with each piece's UTF-16 range, its letters
 * (`\p{L}` code points) and its longest run of consecutive letters: what word counts and debris tests need, in one
 * pass and without a regex or a string per token.
 */
export function scanTokens(
  text: string,
  visit: (start: number, end: number, letters: number, longestRun: number) => void,
): void {
  const n = text.length;
  let start = 0;
  let letters = 0;
  let run = 0;
  let longest = 0;
  for (let i = 0; i < n; ) {
    const c = text.charCodeAt(i);
    if (isSpaceUnit(c)) {
      visit(start, i, letters, longest);
      letters = run = longest = 0;
      while (i < n && isSpaceUnit(text.charCodeAt(i))) i++;
      start = i;
      continue;
    }
    let cp = c;
    let width = 1;
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < n) {
      const low = text.charCodeAt(i + 1);
      if (low >= 0xdc00 && low <= 0xdfff) {
        cp = 0x10000 + ((c - 0xd800) << 10) + (low - 0xdc00);
        width = 2;
      }
    }
    if (isLetter(cp)) {
      letters++;
      if (++run > longest) longest = run;
    } else run = 0;
    i += width;
  }
  visit(start, n, letters, longest);
}

/** Guesses the language from the script of the letters: `ru` (Cyrillic), `en` (Latin) or `und`. */
export function detectLang(text: string): "ru" | "en" | "und" {
  let cyr = 0;
  let lat = 0;
  const n = Math.min(text.length, 4000); // the first 4,000 code units, as a slice of them would be
  for (let i = 0; i < n; i++) {
    let cp = text.charCodeAt(i);
    if (cp < 0x80) {
      if ((cp >= 65 && cp <= 90) || (cp >= 97 && cp <= 122)) lat++;
      continue;
    }
    // A pair counts as its code point; a lone surrogate (or a pair cut at the 4,000th unit) is neither script.
    if (cp >= 0xd800 && cp <= 0xdbff && i + 1 < n) {
      const low = text.charCodeAt(i + 1);
      if (low >= 0xdc00 && low <= 0xdfff) {
        cp = 0x10000 + ((cp - 0xd800) << 10) + (low - 0xdc00);
        i++;
      }
    }
    if (cyrillic(cp)) cyr++;
  }
  if (cyr + lat < 3) return "und";
  return cyr >= lat ? "ru" : "en";
}

const sentenceSegmenters = new Map<string, Intl.Segmenter>();

/** Sentence segmenter (Unicode UAX #29 via Intl.Segmenter) for a language, cached. */
export function sentenceSegmenter(lang: string): Intl.Segmenter {
  let s = sentenceSegmenters.get(lang);
  if (!s) {
    s = new Intl.Segmenter(lang === "und" ? "en" : lang, { granularity: "sentence" });
    sentenceSegmenters.set(lang, s);
  }
  return s;
}

/** The first sentence of a text, whitespace-collapsed and cut to at most `max` code points (with an ellipsis). */
export function firstSentence(text: string, max = 300): string {
  const flat = text.replace(/\s+/gu, " ").trim();
  const iter = sentenceSegmenter(detectLang(flat)).segment(flat)[Symbol.iterator]().next();
  const sentence = iter.done ? flat : iter.value.segment.trim();
  return truncateCodePoints(sentence || flat, max);
}

/** Cuts a string to at most `max` code points, never inside a surrogate pair; appends "…" when cut. */
export function truncateCodePoints(text: string, max: number): string {
  if (text.length <= max) return text;
  const cps = Array.from(text);
  if (cps.length <= max) return text;
  return `${cps.slice(0, Math.max(0, max - 1)).join("")}…`;
}
