/**
 * Sentences of a paragraph (Unicode UAX #29 via Intl.Segmenter, repaired where ICU's rules misfire on real text:
 * "Mr. Smith", "e.g. Table", "free software.[1] The …") and the filters that keep fragments out of the atoms:
 * headings, captions, reference-list entries (references.ts), page furniture, formula debris and too-short pieces.
 */
import { isSpaceUnit, scanTokens, sentenceSegmenter } from "../../../domain/text.ts";
import type { Paragraph, Span } from "./blocks/blocks.ts";
import { ABBREVIATIONS } from "./lexicon.ts";
import { isReference } from "./references.ts";

/** Fewest words (with a letter) a sentence needs to be a claim. */
export const MIN_WORDS = 4;
/** Fewest characters a sentence needs to be a claim. */
export const MIN_CHARS = 20;
/** Fewest words of a sentence that has no end punctuation (cut by a page or column break) to still count. */
export const MIN_WORDS_UNTERMINATED = 8;

const LIST_MARKER = /^\s*(?:[-*•–—]\s|\d{1,3}[.)]\s|[a-zа-я][.)]\s)/u;

/**
 * The paragraph's lines are items (a list or a glossary) when most lines start with a list marker or look like
 * "Term: …" / "Term — …"; then every line is segmented alone instead of being joined with the next.
 */
function lineStructured(text: string): boolean {
  const lines = text.split("\n").filter((l) => l.trim());
  if (lines.length < 2) return false;
  const items = lines.filter(
    (l) => LIST_MARKER.test(l) || /^[^\s:.!?]{1,40}(?: [^\s:.!?]+){0,3}\s*(?::|\s[—–]\s)\s*\S/u.test(l),
  );
  return items.length * 2 >= lines.length + 1;
}

/** The text a segmenter sees: single newlines inside prose become spaces (same length, same offsets). */
function segmentationView(text: string): string {
  if (lineStructured(text)) return text;
  return text.replace(/\n(?![ \t]*(?:[-*•]\s|\d{1,3}[.)]\s))/g, " ");
}

/** Moves a break that ICU put inside a citation ("software.[" / "1] The") to after the citation. */
function repairCitation(text: string, at: number): number {
  if (text[at - 1] === "[") {
    const m = /^[\d,;–\-\s]*\]\s*/.exec(text.slice(at));
    if (m) return at + m[0].length;
  }
  return at;
}

/** "Figure 1." / "Рис. 2." / a section number: a label, not a sentence of its own. */
const LABEL_END =
  /(?:^|\s)(?:Figure|Fig\.|Table|Tab\.|Scheme|Рис\.|Рисунок|Таблица|Табл\.)\s*\d+[a-zа-я]?\.$|^\d+(?:\.\d+)*\.$/iu;

/** True when the break at `at` follows an abbreviation or a label, or precedes a lower-case continuation. */
function falseBreak(text: string, at: number): boolean {
  if (LABEL_END.test(text.slice(Math.max(0, at - 20), at).trimEnd())) return true;
  const before = text.slice(Math.max(0, at - 12), at).trimEnd();
  const word = /(?:^|[\s(])([\p{L}.]+\.)$/u.exec(before)?.[1]?.toLowerCase();
  if (word && (ABBREVIATIONS.has(word) || /^\p{L}\.$/u.test(word))) return true;
  return /^\s*[\p{Ll}]/u.test(text.slice(at, at + 3)) && !/[!?]$/.test(before);
}

/** Sentence spans (chunk offsets, trimmed, non-empty) of a paragraph. */
export function sentenceSpans(p: Paragraph, lang: string): Span[] {
  const view = segmentationView(p.text);
  const breaks: number[] = [];
  for (const seg of sentenceSegmenter(lang).segment(view)) {
    if (seg.index === 0) continue;
    const at = repairCitation(view, seg.index);
    if (at >= view.length || falseBreak(view, at)) continue;
    if (breaks.length === 0 || at > breaks[breaks.length - 1]) breaks.push(at);
  }
  const out: Span[] = [];
  let start = 0;
  for (const end of [...breaks, view.length]) {
    let s = start;
    let e = end;
    while (s < e && /\s/u.test(view[s])) s++;
    while (e > s && /\s/u.test(view[e - 1])) e--;
    if (e > s) out.push({ start: p.start + s, end: p.start + e });
    start = end;
  }
  return out;
}

const HEADING_END = /[.!?…:;,"”»)]$/u;
const CAPTION =
  /^(?:Figure|Fig\.?|Table|Tab\.|Scheme|Chart|Plate|Рис\.|Рисунок|Таблица|Табл\.|Схема)\s*(?:\d+|[IVXLC]+)[a-zа-я]?\s*[.:|–—-]?(?:\s|$)/iu;
const FURNITURE = [
  /^\d{1,4}$/, // page number
  /^(?:page|стр\.?|с\.)\s*\d+(?:\s*(?:of|из)\s*\d+)?$/iu,
  /^\d+\s*(?:of|из|\/)\s*\d+$/iu,
  /©|\bcopyright\b|all rights reserved|все права защищены/iu,
  /^(?:e-?mail|email|doi|issn|isbn|url|received|accepted|published|revised|citation|correspondence|editor|academic editor|keywords|key words|ключевые слова|аннотация|abstract|downloaded from)\b\s*:?/iu,
  /^(?:https?:\/\/|www\.)\S+$/iu,
  /^\S+@\S+\.\S+$/u,
];

/** A heading: one short line without sentence punctuation (or a line ending in a "#" anchor, as blogs render). */
export function isHeading(text: string): boolean {
  const t = text.trim();
  if (t.includes("\n")) return false;
  if (/\s#$/.test(t)) return true;
  // A numbered section title ("2.1. Применение метода псевдообращения", "3 Results."), with or without a period.
  const tokens = tokenCount(t, 12); // only compared with 10 and 12
  if (/^\d+(?:\.\d+)*\.?\s+\p{Lu}/u.test(t) && tokens <= 10 && !/[,;]/.test(t)) return true;
  return tokens <= 12 && !HEADING_END.test(t);
}

/** A figure or table caption ("Figure 2. …", "Рис. 1 …"), which alone is no claim. */
export function isCaption(text: string): boolean {
  return CAPTION.test(text.trim());
}

/** Page furniture: page numbers, running headers with ©, e-mail/DOI/keyword lines, bare URLs. */
export function isFurniture(text: string): boolean {
  const t = text.trim();
  return FURNITURE.some((r) => r.test(t));
}

/**
 * Russian one-letter words (в, к, с, о, у, и, а, я; capitalized only without a period, which would make an
 * initial). Without them a Russian sentence with a few numbers ("… в 1860 году, и в ней было 20 коек.") read as
 * formula debris; English has only "a" and "I", which the thresholds below already allow for.
 */
const ONE_LETTER_WORD = /^[«"“(]?(?:[вкоуиаяс][,;:!?»"”)]*|[ВКОУИАЯС])$/u;

/** Debris of formulas and layout: few letters among the characters, many tokens without letters, or glued words. */
export function isDebris(text: string): boolean {
  // Ill-formed text: joining the tokens could pair two lone surrogates into a letter; count as written then.
  if (!text.isWellFormed()) return isDebrisJoined(text);
  const t = text.trim();
  let tokens = 0;
  let chars = 0;
  let letters = 0;
  let bare = 0;
  let glued = false;
  scanTokens(t, (start, end, tokenLetters, run) => {
    tokens++;
    chars += end - start;
    letters += tokenLetters;
    // No two letters in a row (\p{L}{2}) and not a one-letter word.
    if (run < 2 && !ONE_LETTER_WORD.test(t.slice(start, end))) bare++;
    // Words glued by a lost text layer ("Pleasecheckthattheedits…") are not language either.
    if (run >= 30) glued = true;
  });
  return letters < chars * 0.6 || bare > tokens * 0.35 || glued;
}

/** {@link isDebris} over the joined tokens, as first written (for text with lone surrogates). */
function isDebrisJoined(text: string): boolean {
  const tokens = text.trim().split(/\s+/u);
  const chars = tokens.join("");
  const letters = (chars.match(/\p{L}/gu) ?? []).length;
  const bare = tokens.filter((t) => !/\p{L}{2}/u.test(t) && !ONE_LETTER_WORD.test(t)).length;
  const glued = tokens.some((t) => /\p{L}{30,}/u.test(t));
  return letters < chars.length * 0.6 || bare > tokens.length * 0.35 || glued;
}

/** Words with at least one letter (the pieces of `text.split(/\s+/u)` that have one). */
export function wordCount(text: string): number {
  let n = 0;
  scanTokens(text, (_s, _e, letters) => {
    if (letters > 0) n++;
  });
  return n;
}

/** Number of pieces of `text.split(/\s+/)` (one more than its whitespace runs), counted up to `cap` + 1. */
function tokenCount(text: string, cap: number): number {
  let n = 1;
  for (let i = 0; i < text.length && n <= cap; i++) {
    if (!isSpaceUnit(text.charCodeAt(i))) continue;
    n++;
    while (i + 1 < text.length && isSpaceUnit(text.charCodeAt(i + 1))) i++;
  }
  return n;
}

/**
 * Why a sentence is not a claim, or null when it is one: too short, a question, a heading-like or unterminated
 * fragment, a caption, a reference entry, furniture or debris.
 */
export function fragmentReason(sentence: string): string | null {
  const t = sentence.trim().replace(/^[-–—•*]\s+/u, "");
  const words = wordCount(t);
  if (t.length < MIN_CHARS || words < MIN_WORDS) return "too short";
  if (/\?["”»)]?$/u.test(t)) return "question";
  const terminated = /[.!…;:]["”»)\]]*(?:\[\d[\d,–\s-]*\])?$/u.test(t);
  if (!terminated && words < MIN_WORDS_UNTERMINATED) return "unterminated fragment";
  if (/^\p{Ll}/u.test(t) && words < MIN_WORDS_UNTERMINATED) return "continuation fragment";
  if (isCaption(t)) return "caption";
  if (isReference(t)) return "reference entry";
  if (isFurniture(t)) return "page furniture";
  if (isDebris(t)) return "debris";
  return null;
}
