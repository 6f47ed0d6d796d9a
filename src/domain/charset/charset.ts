/**
 * Charset choice and decoding for text-like sources (plain text, Markdown, HTML), after the WHATWG Encoding
 * Standard (https://encoding.spec.whatwg.org/): labels are resolved by the built-in TextDecoder, which implements
 * that standard's label table and decoders (windows-1251, koi8-r, x-mac-cyrillic, gb18030, shift_jis, …).
 * Precedence: BOM > transport (HTTP Content-Type charset) > in-document declaration > valid UTF-8 > detection.
 */
import chardet from "chardet";
import { PegasError } from "../../errors.ts";
import { guessRussianCharset } from "./cyrillic.ts";
import { decoderFor } from "./decoder.ts";

/** Where a charset came from, recorded as `metadata.charset_source`. */
export type CharsetSource = "bom" | "transport" | "declaration" | "utf-8" | "detected" | "fallback";

/** A chosen charset: `encoding` is the WHATWG canonical name (e.g. `windows-1251`, `utf-8`). */
export interface CharsetChoice {
  encoding: string;
  source: CharsetSource;
}

/** A declared charset: the raw label and where it was declared. */
export interface DeclaredCharset {
  label: string;
  source: "transport" | "declaration";
}

/** Decoded text with the charset used and warnings about it (lossy decode, overridden declaration). */
export interface Decoded {
  text: string;
  charset: CharsetChoice;
  warnings: string[];
}

/** How the warning about a guessed charset starts (callers that report the charset themselves leave it out). */
export const GUESSED_CHARSET = "not valid UTF-8; decoded as";

/** Bytes looked at for binary and UTF-16 sniffing (a common heuristic window, as in git and file(1)). */
const SNIFF_BYTES = 8192;

/** The WHATWG canonical name for a label, or null when TextDecoder does not know it. */
export function canonicalCharset(label: string): string | null {
  try {
    return decoderFor(label.trim()).encoding;
  } catch {
    return null;
  }
}

/** The encoding named by a byte order mark (UTF-8, UTF-16LE, UTF-16BE), or null. */
export function sniffBom(bytes: Uint8Array): string | null {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return "utf-8";
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return "utf-16le";
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return "utf-16be";
  return null;
}

/**
 * For BOM-less bytes with NULs in the first 8 KiB: "utf-16le"/"utf-16be" when the NULs sit almost all at odd
 * (resp. even) offsets, as the zero high bytes of ASCII characters in UTF-16 do; null means binary.
 */
export function sniffUtf16(bytes: Uint8Array): "utf-16le" | "utf-16be" | null {
  const head = bytes.subarray(0, SNIFF_BYTES);
  let even = 0;
  let odd = 0;
  for (let i = 0; i < head.length; i++) {
    if (head[i] === 0) {
      if (i % 2) odd++;
      else even++;
    }
  }
  const nuls = even + odd;
  // UTF-16 text has a NUL in every ASCII character (spaces, digits, punctuation: at least ~5% of any prose);
  // a stray NUL or two in 8-bit text must not turn it into UTF-16.
  if (nuls < Math.max(4, head.length * 0.025)) return null;
  const guess = odd >= nuls * 0.95 ? "utf-16le" : even >= nuls * 0.95 ? "utf-16be" : null;
  if (!guess) return null;
  try {
    // A true UTF-16 text has no unpaired surrogates; random binary with lopsided NULs almost always does.
    decoderFor(guess, true).decode(head.subarray(0, head.length - (head.length % 2)));
    return guess;
  } catch {
    return null;
  }
}

/** True when the first 8 KiB contain a NUL byte (the caller rules out UTF-16 first). */
export function hasNulHead(bytes: Uint8Array): boolean {
  return bytes.subarray(0, SNIFF_BYTES).includes(0);
}

/** The whole input as strict UTF-8, or null when it is not valid UTF-8. */
function strictUtf8(bytes: Uint8Array): string | null {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return null;
  }
}

function hasNonAscii(bytes: Uint8Array): boolean {
  for (let i = 0; i < bytes.length; i++) if (bytes[i] >= 0x80) return true;
  return false;
}

/**
 * Detects the charset of bytes that are not valid UTF-8: plausible Russian in a Cyrillic single-byte charset
 * first (see cyrillic.ts), else chardet's best guess that TextDecoder supports, else windows-1252 (the WHATWG
 * default for legacy content).
 */
export function detectCharset(bytes: Uint8Array): CharsetChoice {
  const russian = guessRussianCharset(bytes);
  if (russian) return { encoding: russian.encoding, source: "detected" };
  for (const match of chardet.analyse(bytes.subarray(0, 64 * 1024))) {
    if (match.confidence <= 0) continue;
    const encoding = canonicalCharset(match.name);
    // chardet answers UTF-8/ASCII for near-UTF-8 input, but such input has already failed strict UTF-8.
    if (encoding && encoding !== "utf-8") return { encoding, source: "detected" };
  }
  return { encoding: "windows-1252", source: "fallback" };
}

/** Least ratio of valid non-ASCII characters to U+FFFD replacements for damaged UTF-8 (see {@link nearUtf8}). */
const NEAR_UTF8_RATIO = 3;

/**
 * Bytes that are UTF-8 with a few corrupt sequences (a truncated or damaged UTF-8 file), decoded leniently, or null.
 * The lenient decode must hold at least {@link NEAR_UTF8_RATIO} valid non-ASCII characters per U+FFFD replacement:
 * legacy single-byte text almost never forms valid UTF-8 multi-byte sequences (the argument by which a stale
 * declaration is overridden), while decoding damaged UTF-8 as a single-byte charset turns every non-ASCII letter into
 * mojibake with no replacement character to warn of it. chardet's own UTF-8 recognizer is no help here: it gives up
 * after five invalid bytes and wants ten valid sequences per invalid one, so it ranks a damaged French UTF-8 text
 * as windows-1252.
 */
function nearUtf8(bytes: Uint8Array): { text: string; replaced: number } | null {
  const text = new TextDecoder("utf-8").decode(bytes);
  let replaced = 0;
  let valid = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0xfffd) replaced++;
    else if (c >= 0x80 && (c < 0xdc00 || c > 0xdfff)) valid++; // a surrogate pair counts once
  }
  return valid >= replaced * NEAR_UTF8_RATIO ? { text, replaced } : null;
}

/** Decodes with a WHATWG encoding; counts the U+FFFD replacement characters the decoder produced. */
export function decodeAs(bytes: Uint8Array, encoding: string): { text: string; replaced: number } {
  const text = decoderFor(encoding).decode(bytes);
  let replaced = 0;
  for (let i = text.indexOf("\ufffd"); i !== -1; i = text.indexOf("\ufffd", i + 1)) replaced++;
  return { text, replaced };
}

/**
 * Chooses a charset and decodes: BOM, else the first usable declared charset (unless the bytes are valid
 * UTF-8 with non-ASCII content, which a legacy charset practically never produces: a stale declaration is
 * overridden with a warning), else UTF-8 when valid, else detection. A BOM is dropped from the text.
 * `allowNul` is for containers whose members are known to be text (EPUB chapters): stray NULs are then left
 * for sanitizeText to remove with a warning instead of refusing the bytes.
 * @throws PegasError UNSUPPORTED_MEDIA when the bytes are binary (NULs, not UTF-16) and `allowNul` is not set.
 */
export function decodeText(
  bytes: Uint8Array,
  declared: DeclaredCharset[],
  uri: string,
  opts: { allowNul?: boolean } = {},
): Decoded {
  const warnings: string[] = [];
  const bom = sniffBom(bytes);
  const nul = hasNulHead(bytes);
  const utf16 = bom || !nul ? null : sniffUtf16(bytes);
  if (!bom && !utf16 && nul && !opts.allowNul) {
    throw new PegasError("UNSUPPORTED_MEDIA", `'${uri}' looks binary (NUL bytes in its first 8 KiB), not text`, {
      hint: "ingest text, Markdown, HTML, PDF or EPUB",
    });
  }
  let choice: CharsetChoice | null = bom
    ? { encoding: bom, source: "bom" }
    : utf16
      ? { encoding: utf16, source: "detected" }
      : null;
  let utf8: string | null | undefined;
  for (const d of choice ? [] : declared) {
    const encoding = canonicalCharset(d.label);
    if (!encoding) {
      warnings.push(`unknown charset '${d.label}' (${d.source}) ignored`);
      continue;
    }
    // A declared UTF-16 in bytes without a BOM or NULs cannot be true (WHATWG maps such a meta to UTF-8).
    if (encoding.startsWith("utf-16")) continue;
    if (encoding !== "utf-8") {
      utf8 ??= strictUtf8(bytes);
      if (utf8 !== null && hasNonAscii(bytes)) {
        warnings.push(`declared charset '${d.label}' (${d.source}) ignored: the bytes are valid UTF-8`);
        choice = { encoding: "utf-8", source: "utf-8" };
        break;
      }
    }
    choice = { encoding, source: d.source };
    break;
  }
  if (!choice) {
    utf8 ??= strictUtf8(bytes);
    if (utf8 !== null) return { text: stripBom(utf8), charset: { encoding: "utf-8", source: "utf-8" }, warnings };
    const near = nearUtf8(bytes);
    if (near) {
      warnings.push(
        `lossy decode: not valid UTF-8; ${near.replaced} byte sequence(s) invalid in utf-8 replaced with U+FFFD`,
      );
      return { text: stripBom(near.text), charset: { encoding: "utf-8", source: "detected" }, warnings };
    }
    choice = detectCharset(bytes);
    warnings.push(
      choice.source === "fallback"
        ? `${GUESSED_CHARSET} windows-1252, as the charset could not be detected: some characters may be wrong`
        : `${GUESSED_CHARSET} ${choice.encoding}, the charset detection's guess: if the text reads wrong, re-save it as UTF-8 or declare its charset`,
    );
  }
  if (choice.encoding === "utf-8" && utf8) return { text: stripBom(utf8), charset: choice, warnings };
  const { text, replaced } = decodeAs(bytes, choice.encoding);
  if (replaced > 0)
    warnings.push(`lossy decode: ${replaced} byte sequence(s) invalid in ${choice.encoding} replaced with U+FFFD`);
  return { text, charset: choice, warnings };
}

function stripBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}
