/**
 * The store mix of the dedup-store benchmark: memory_store inputs made from the SciFact atom texts
 * (synthetic-atoms.ts), some new, some derived from atoms already stored: near-identical restatements (punctuation
 * or an article changed: same words, other content hash), negated versions ("is" → "is not"), re-numbered versions
 * (one standalone number's last digit changed) and exact repeats. Each input is typed `text`, with the claim and
 * content an ingested atom of that text would have. The kind is what the input was built to be; what dedup decides
 * is measured, not assumed. Deterministic for a seed.
 */
import type { StoreInput } from "../../src/core/knowledge/store-atom.ts";
import { firstSentence } from "../../src/domain/text.ts";
import { mulberry32 } from "../../tests/support/prng.ts";

/** What a mix input was built to be. */
export type MixKind = "new" | "restatement" | "negated" | "renumbered" | "exact";

/** One memory_store input of the mix; `source` is the index of the stored text it was derived from (none for new). */
export interface MixItem {
  kind: MixKind;
  input: StoreInput;
  source?: number;
}

/** Deterministic PRNG (mulberry32, tests/support/prng.ts). */
export const seeded = mulberry32;

/** The input an ingested atom of `text` would be (type text, claim = its first sentence). */
export function inputOf(text: string): StoreInput {
  return { type: "text", claim: firstSentence(text), content: text, confidence: 0.5 };
}

/** Same words, other bytes: the final period dropped, else the first "the" made "a", else a comma made ";". */
export function restate(text: string): string | null {
  if (/[^.]\.$/.test(text)) return text.slice(0, -1);
  if (/\bthe\b/.test(text)) return text.replace(/\bthe\b/, "a");
  if (text.includes(", ")) return text.replace(", ", "; ");
  return null;
}

const AUXILIARY = /\b(is|are|was|were|can|could|may|might|will|would|should|must|has|have|had)\b/;

/** The first auxiliary verb negated ("is" → "is not"); null when there is none or the text already says "not". */
export function negate(text: string): string | null {
  if (/\bnot\b/i.test(text)) return null;
  const m = AUXILIARY.exec(text);
  return m ? `${text.slice(0, m.index + m[0].length)} not${text.slice(m.index + m[0].length)}` : null;
}

/** A standalone number (not in a citation bracket, not part of a word), as digits with an optional decimal part. */
const NUMBER = /(?<![[\p{L}\p{N}_.,-])\d+(?:\.\d+)?(?![\]\p{L}\p{N}_]|[.,]\d)/u;

/** The first standalone number with its last digit changed (d → d+1 mod 10); null when there is none. */
export function renumber(text: string): string | null {
  const m = NUMBER.exec(text);
  if (!m) return null;
  const last = Number(m[0].at(-1));
  const changed = m[0].slice(0, -1) + String((last + 1) % 10);
  return text.slice(0, m.index) + changed + text.slice(m.index + m[0].length);
}

const DERIVE: Record<Exclude<MixKind, "new">, (t: string) => string | null> = {
  restatement: restate,
  negated: negate,
  renumbered: renumber,
  exact: (t) => t,
};

/**
 * Builds the mix: `counts.new` inputs from `fresh` (texts not stored), the other kinds derived from distinct
 * stored texts `stored[i]` picked at random (a text a kind cannot be derived from is passed over); shuffled.
 * @throws Error when the texts cannot supply a kind's count.
 */
export function buildMix(stored: string[], fresh: string[], counts: Record<MixKind, number>, seed = 7): MixItem[] {
  const rand = seeded(seed);
  const used = new Set<number>();
  const items: MixItem[] = fresh.slice(0, counts.new).map((t) => ({ kind: "new", input: inputOf(t) }));
  if (items.length < counts.new) throw new Error(`only ${items.length} fresh texts for ${counts.new} new facts`);
  for (const kind of Object.keys(DERIVE) as Array<keyof typeof DERIVE>) {
    let made = 0;
    for (let tries = 0; made < counts[kind] && tries < stored.length * 4; tries++) {
      const i = Math.floor(rand() * stored.length);
      if (used.has(i)) continue;
      const text = DERIVE[kind](stored[i]);
      if (text === null) continue;
      used.add(i);
      items.push({ kind, input: inputOf(text), source: i });
      made++;
    }
    if (made < counts[kind]) throw new Error(`could derive only ${made} of ${counts[kind]} ${kind} inputs`);
  }
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [items[i], items[j]] = [items[j], items[i]];
  }
  return items;
}
