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

/** Folds text for hashing and comparison: NFKC, lower case, ё→е, whitespace runs to one space, trimmed. */
export function foldForHash(text: string): string {
  return text.normalize("NFKC").toLowerCase().replaceAll("ё", "е").replace(/\s+/gu, " ").trim();
}

/** Guesses the language from the script of the letters: `ru` (Cyrillic), `en` (Latin) or `und`. */
export function detectLang(text: string): "ru" | "en" | "und" {
  let cyr = 0;
  let lat = 0;
  const sample = text.length > 4000 ? text.slice(0, 4000) : text;
  for (const ch of sample) {
    if (/\p{Script=Cyrillic}/u.test(ch)) cyr++;
    else if (/[A-Za-z]/.test(ch)) lat++;
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
