/**
 * The measurements of an atom's claim, as the write path, the backfill and dedup read them (issue 24): a cheap guard
 * first (only text with a digit or a number word is read at all, so an ingest of prose pays one regex per claim),
 * then {@link extractQuantities} in the claim's language (Russian when the atom says so or the text is Cyrillic). Pure.
 */
import { extractQuantities, type Quantity } from "./extract.ts";

/** Most quantities kept per claim: a claim listing more is a table row, not a measurement. */
export const MAX_QUANTITIES_PER_CLAIM = 16;
/** Longest claim read (UTF-16 units): a longer one is a passage, whose sentences are atoms of their own. */
export const MAX_CLAIM_CHARS = 2000;

const NUMBER_WORD =
  /(?<![\p{L}])(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred|thousand|million|billion|dozen|half|один|одн|два|две|двух|три|трех|трёх|четыр|пят|шест|сем|восем|девят|десят|двадцат|тридцат|сорок|сто|двест|трист|тысяч|миллион|миллиард|полтор|пол(?=час|год|дня|сут|мин|мес|век|вер))/iu;

/** Whether `text` may state a measurement: it holds a digit or a number word (English or Russian). */
export function mayStateQuantity(text: string): boolean {
  return /[0-9]/.test(text) || NUMBER_WORD.test(text);
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
