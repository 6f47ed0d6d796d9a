/**
 * Picks the single-byte Cyrillic charset under which bytes read as plausible Russian. Byte-statistics detectors
 * (chardet) confuse windows-1251, KOI8-R and MacCyrillic on short Russian texts (a KOI8-R paragraph is reported
 * as ISO-8859-7 Greek), because the three share letters at permuted byte positions. Decoding under each
 * candidate and scoring the result against the shape of Russian words is cheap and decisive.
 */
import { decoderFor } from "./decoder.ts";

/** Candidates, as WHATWG Encoding Standard labels (all known to TextDecoder). */
export const CYRILLIC_CHARSETS = ["windows-1251", "koi8-r", "x-mac-cyrillic", "ibm866", "iso-8859-5"] as const;

/**
 * The 64 most frequent letter bigrams inside Russian words (computed from Chekhov's "Палата № 6"; they cover
 * ~53% of all in-word bigrams of Russian prose, far less of any mis-decoded text).
 */
const RU_BIGRAMS = new Set(
  (
    "то ст но не по го ни на ра ко ро ка ен ал ва во ов ор ол ть ли ет ре пр ос от ит ом ел ер ло од те он та " +
    "ве ан ил да ем ат ри до за ог де ак ес че ль се им ле ла ми ся ны же ме ас ав аз ег чт"
  ).split(" "),
);

/** Bytes scored per candidate: enough for a stable verdict, bounded so a large file costs no more than a small one. */
const SAMPLE_BYTES = 64 * 1024;

/** Score parts of one candidate decoding (exported for tests and logs). */
export interface RussianScore {
  encoding: string;
  /** Cyrillic letters in well-formed words (one script, lower case or Capitalized) per byte ≥ 0x80. */
  wordShare: number;
  /** Share of in-word lower-case bigrams that are frequent Russian bigrams. */
  bigramShare: number;
  /** Number of bigrams seen; too few makes the verdict unreliable. */
  bigrams: number;
}

// Russian letters plus і ї є ґ ў, so that Ukrainian and Belarusian texts in the same charsets also qualify.
const LOWER = new Set<number>([0x451, 0x456, 0x457, 0x454, 0x491, 0x45e]);
for (let c = 0x430; c <= 0x44f; c++) LOWER.add(c);
const UPPER_TO_LOWER = new Map<number, number>([
  [0x401, 0x451],
  [0x406, 0x456],
  [0x407, 0x457],
  [0x404, 0x454],
  [0x490, 0x491],
  [0x40e, 0x45e],
]);
for (let c = 0x410; c <= 0x42f; c++) UPPER_TO_LOWER.set(c, c + 0x20);

/** Bigrams as numbers (first code unit × 65536 + second): a string slice per letter pair is too slow here. */
const BIGRAM_CODES = new Set([...RU_BIGRAMS].map((b) => b.charCodeAt(0) * 0x10000 + b.charCodeAt(1)));

/** Letter test per UTF-16 code unit, cached: \p{L} on every character dominated the scoring time. */
const letterCache = new Uint8Array(0x10000);
function isLetter(c: number): boolean {
  if (c < 0x80) return (c | 32) >= 97 && (c | 32) <= 122;
  if (!letterCache[c]) letterCache[c] = /\p{L}/u.test(String.fromCharCode(c)) ? 1 : 2;
  return letterCache[c] === 1;
}

/**
 * Prior weights: MacCyrillic shares nearly every lower-case letter with windows-1251 (only "я" differs), so the
 * two score close on text with few capitals; the far more common windows-1251 wins such near-ties.
 */
const PRIOR: Record<string, number> = { "x-mac-cyrillic": 0.98, "iso-8859-5": 0.99 };

/** Scores one decoding of `sample` (which contains `highBytes` bytes ≥ 0x80). */
export function scoreRussian(encoding: string, text: string, highBytes: number): RussianScore {
  let good = 0;
  let bigrams = 0;
  let hits = 0;
  let i = 0;
  while (i < text.length) {
    if (!isLetter(text.charCodeAt(i))) {
      i++;
      continue;
    }
    // A word is well formed when its first letter is a Cyrillic letter of either case and the rest lower case.
    const first = text.charCodeAt(i);
    let prev = UPPER_TO_LOWER.get(first) ?? first;
    let ok = LOWER.has(prev);
    let len = 1;
    let pairs = 0;
    let pairHits = 0;
    for (i++; i < text.length && isLetter(text.charCodeAt(i)); i++, len++) {
      const c = text.charCodeAt(i);
      if (!LOWER.has(c)) ok = false;
      if (!ok) continue;
      pairs++;
      if (BIGRAM_CODES.has(prev * 0x10000 + c)) pairHits++;
      prev = c;
    }
    if (!ok) continue;
    good += len;
    bigrams += pairs;
    hits += pairHits;
  }
  return { encoding, wordShare: highBytes ? good / highBytes : 0, bigramShare: bigrams ? hits / bigrams : 0, bigrams };
}

/** True when a score looks like real Russian text rather than a mis-decoding or another language. */
function plausible(s: RussianScore): boolean {
  return s.bigrams >= 4 && s.wordShare >= 0.6 && s.bigramShare >= 0.25;
}

/** Ranks by word shape; bigrams only gate (short words after a mis-decoding can still hit frequent bigrams). */
function weighted(s: RussianScore): number {
  return s.wordShare * (PRIOR[s.encoding] ?? 1);
}

/**
 * The Cyrillic charset under which `bytes` decode into the most plausible Russian, or null when none does
 * (not Russian, or too short to tell). Looks at the first 64 KiB only.
 */
export function guessRussianCharset(bytes: Uint8Array): { encoding: string; score: RussianScore } | null {
  const sample = bytes.subarray(0, SAMPLE_BYTES);
  let highBytes = 0;
  for (const b of sample) if (b >= 0x80) highBytes++;
  if (highBytes === 0) return null;
  let best: RussianScore | null = null;
  for (const encoding of CYRILLIC_CHARSETS) {
    const s = scoreRussian(encoding, decoderFor(encoding).decode(sample), highBytes);
    if (!plausible(s)) continue;
    if (!best || weighted(s) > weighted(best)) best = s;
  }
  return best ? { encoding: best.encoding, score: best } : null;
}
