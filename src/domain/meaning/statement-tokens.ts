/**
 * The tokenizer behind domain/meaning/statement.ts: words, numbers (digits or words), codes ("x86"), unit and currency
 * symbols, comparison symbols ("<", "≥"), with sentence starts and negative signs marked. Contractions are split
 * ("doesn't" → "does" + "not"), a number glued to its unit is split ("5mg" → "5" + "mg"), citation markers
 * ("[12]") are dropped, and "non-" is glued back to its word ("non-toxic" → "nontoxic"). Pure; never throws.
 */
import { UNITS } from "./units.ts";
import { canonicalDigits, NUMBER_WORDS, type RunNumber } from "./number-words.ts";
import { memoByWord } from "./word-memo.ts";

/** What a token is. `cmp`: a comparison symbol, its `lower` the canonical one ("<", "<=", ">", ">=", "!="). */
export type Kind = "word" | "number" | "code" | "symbol" | "cmp";

/** One token. */
export interface Tok {
  raw: string;
  /** Lower case, ё→е; for digits the canonical digits; for `cmp` the canonical comparator. */
  lower: string;
  kind: Kind;
  /** First token of a sentence. */
  initial: boolean;
  /** Gap text before the token. */
  gap: string;
  num?: RunNumber;
  /** For digit tokens: the canonical digits. */
  digits?: string;
  negative?: boolean;
}

type TokBase = Omit<Tok, "kind" | "lower" | "raw">;

const TOKEN =
  /\d{1,3}(?:[\u00a0\u202f ]\d{3})+(?!\d)|[\p{L}\p{N}]+(?:[.,'’][\p{L}\p{N}]+)*|<=|>=|!=|[<>≤≥≠⩽⩾]|[$€£₽%°]/gu;
const CITATION = /\[\s*\d+(?:\s*[,;–-]\s*\d+)*\s*\]|\[(?:citation|clarification) needed\]/giu;
const SENTENCE_GAP = /[.!?…\n]|:\s*["«“„]/u;
const CONTRACTION = /^(\p{L}+)n['’]t$/u;
const CONTRACTION_BASE: ReadonlyMap<string, string> = new Map([
  ["ca", "can"],
  ["wo", "will"],
  ["sha", "shall"],
  ["ai", "is"],
]);
// Maps, not object literals: a word like "constructor" must never find Object.prototype's members.
const COMPARATORS: ReadonlyMap<string, string> = new Map([
  ["<", "<"],
  [">", ">"],
  ["<=", "<="],
  [">=", ">="],
  ["≤", "<="],
  ["≥", ">="],
  ["⩽", "<="],
  ["⩾", ">="],
  ["!=", "!="],
  ["≠", "!="],
]);

/** Lower case with ё folded to е. */
export const fold = (s: string) => s.toLowerCase().replaceAll("ё", "е");
/** {@link fold} per token text (word-memo.ts): a text repeats its words. */
const foldWord = memoByWord(fold);

function numberToken(raw: string, t: TokBase): Tok {
  const digits = canonicalDigits(raw);
  const value = Number(digits);
  return {
    ...t,
    raw,
    lower: digits,
    kind: "number",
    digits,
    num: { value: Number.isFinite(value) ? value : NaN, multiplier: false, word: false },
  };
}

/** Splits one matched token into tokens: contractions, glued number+unit, ordinals, number words, codes. */
function classify(raw: string, t: TokBase): Tok[] {
  const lower = foldWord(raw);
  if (COMPARATORS.has(raw)) return [{ ...t, raw, lower: COMPARATORS.get(raw)!, kind: "cmp" }];
  if (/^[$€£₽%°]$/u.test(raw)) return [{ ...t, raw, lower, kind: "symbol" }];
  if (/^\d[\d\u00a0\u202f .,]*$/u.test(raw)) return [numberToken(raw, t)];
  const ordinal = /^(\d+)(?:st|nd|rd|th)$/iu.exec(raw);
  if (ordinal) return [numberToken(ordinal[1], t)];
  const glued = /^(\d+(?:[.,]\d+)?)(\p{L}+)$/u.exec(raw);
  if (glued && UNITS.has(fold(glued[2]))) {
    return [
      numberToken(glued[1], t),
      { ...t, gap: "", initial: false, raw: glued[2], lower: fold(glued[2]), kind: "word" },
    ];
  }
  if (/\p{N}/u.test(raw) && /\p{L}/u.test(raw)) return [{ ...t, raw, lower, kind: "code" }];
  const c = CONTRACTION.exec(lower);
  if (c || lower === "cannot") {
    const base = c ? (CONTRACTION_BASE.get(c[1]) ?? c[1]) : "can";
    return [
      { ...t, raw: base, lower: base, kind: "word" },
      { ...t, gap: " ", initial: false, raw: "not", lower: "not", kind: "word" },
    ];
  }
  const nw = NUMBER_WORDS.get(lower);
  if (nw) return [{ ...t, raw, lower, kind: "number", num: { ...nw, word: true } }];
  return [{ ...t, raw, lower, kind: "word" }];
}

/** True when `t` continues a "non-" written before it with a hyphen ("non-toxic"), but not a name ("non-Mozilla"). */
function gluesToNon(prev: Tok | undefined, t: Tok): boolean {
  return prev?.kind === "word" && prev.lower === "non" && t.kind === "word" && t.gap === "-" && !/\p{Lu}/u.test(t.raw);
}

/** The text {@link tokenize} matches tokens in: NFKC, citation markers blanked. */
export const tokenText = (text: string) => text.normalize("NFKC").replace(CITATION, " ");

/** A fresh copy of the token pattern of {@link tokenize} (global: one per loop), for readers that need raw tokens only. */
export const tokenPattern = () => new RegExp(TOKEN.source, TOKEN.flags);

/** Tokens of a text, with sentence starts and negative signs marked. Citation markers ("[12]") are dropped. */
export function tokenize(text: string): Tok[] {
  const clean = tokenText(text);
  const out: Tok[] = [];
  let prevEnd = 0;
  for (const m of clean.matchAll(TOKEN)) {
    const gap = clean.slice(prevEnd, m.index);
    const initial = out.length === 0 || SENTENCE_GAP.test(gap);
    const negative = (out.length === 0 ? /^\s*[-−]$/u : /\s[-−]$/u).test(gap);
    for (const t of classify(m[0], { initial, gap, negative })) {
      const prev = out[out.length - 1];
      if (gluesToNon(prev, t)) out[out.length - 1] = { ...prev, raw: `${prev.raw}-${t.raw}`, lower: `non${t.lower}` };
      else out.push(t);
    }
    prevEnd = m.index + m[0].length;
  }
  return out;
}
