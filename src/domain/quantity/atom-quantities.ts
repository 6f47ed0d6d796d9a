/**
 * The measurements of an atom's claim, as the write path, the backfill and dedup read them (issue 24): a cheap guard
 * first (only text with a digit or a number word is read at all, so an ingest of prose pays one regex per claim),
 * then {@link extractQuantities} in the claim's language (Russian when the atom says so or the text is Cyrillic). Pure.
 */
import { extractQuantities, type Quantity } from "./extract.ts";
import { UNITS } from "./units.ts";

/** Most quantities kept per claim: a claim listing more is a table row, not a measurement. */
export const MAX_QUANTITIES_PER_CLAIM = 16;
/** Longest claim read (UTF-16 units): a longer one is a passage, whose sentences are atoms of their own. */
export const MAX_CLAIM_CHARS = 2000;

/** English number words, and the Russian ones by their stems (any case ending): a guard, not a reader. */
const EN_NUMBER = new Set(
  (
    "one two three four five six seven eight nine ten eleven twelve twenty thirty forty fifty sixty seventy eighty " +
    "ninety hundred hundreds thousand thousands million millions billion billions dozen dozens half"
  ).split(" "),
);
const RU_NUMBER =
  /^(?:один|одн|два|две|двух|двум|три|тр[её]х|трем|четыр|пят[ьи]|шест[ьи]|сем[ьи]|восем|восьм|девят|десят|сорок|сто|ста|двест|трист|тысяч|миллион|миллиард|полтор)|(?:надцат[ьи]|десят[ьи]?|сот|стах|стами)$/u;
/** «полчаса», «полгода»: a half glued to its unit. */
const HALF_UNIT = /^пол(?:часа|года|дня|суток|минуты|месяца|века|версты)$/u;
/** Unit words a number in words needs beside it ("two hours", «лет двадцать»): spelled forms of three letters or more. */
const SPELLED_UNIT: ReadonlySet<string> = new Set(
  UNITS.flatMap((u) => u.forms.flatMap((f) => f.toLowerCase().split(" ")))
    .map((f) => f.replace(/\.$/u, ""))
    .filter((f) => f.length >= 3 && /^\p{L}+$/u.test(f)),
);

/**
 * Whether `text` may state a measurement: it holds a digit, a Russian half glued to its unit, or a number word
 * (English or Russian) and a spelled unit word ("twenty minutes", «двести рублей»). One pass over the words.
 */
export function mayStateQuantity(text: string): boolean {
  if (/[0-9]/.test(text)) return true;
  // Most sentences name no unit: one pass of set lookups decides them; the number words are read only after one.
  const words = text.toLowerCase().match(/\p{L}+/gu) ?? [];
  if (!words.some((w) => SPELLED_UNIT.has(w) || (w.startsWith("пол") && HALF_UNIT.test(w)))) return false;
  return words.some((w) => HALF_UNIT.test(w) || EN_NUMBER.has(w) || w.endsWith("teen") || RU_NUMBER.test(w));
}

/** The reader's language for a text: `ru` when the atom's language says so or the text is Cyrillic, else `en`. */
export function quantityLang(text: string, lang?: string): "en" | "ru" {
  if (lang === "ru") return "ru";
  if (lang === "en") return "en";
  return /\p{Script=Cyrillic}/u.test(text) ? "ru" : "en";
}

/**
 * The measurements of a claim (at most {@link MAX_QUANTITIES_PER_CLAIM}); none for a claim without a digit or a number
 * word, or longer than {@link MAX_CLAIM_CHARS}. Never throws: a reader failure on odd text yields none.
 */
export function claimQuantities(claim: string, lang?: string): Quantity[] {
  if (!claim || claim.length > MAX_CLAIM_CHARS || !mayStateQuantity(claim)) return [];
  try {
    return extractQuantities(claim, quantityLang(claim, lang))
      .filter((q) => Number.isFinite(q.canonicalLow) && Number.isFinite(q.canonicalHigh) && q.end > q.start)
      .slice(0, MAX_QUANTITIES_PER_CLAIM);
  } catch {
    return [];
  }
}

const cache = new Map<string, Quantity[]>();

/** {@link claimQuantities} remembered for the last 2,048 texts: dedup reads one text against several others. */
export function cachedQuantities(text: string): Quantity[] {
  let q = cache.get(text);
  if (q === undefined) {
    q = claimQuantities(text);
    if (cache.size >= 2048) cache.delete(cache.keys().next().value as string);
    cache.set(text, q);
  }
  return q;
}
