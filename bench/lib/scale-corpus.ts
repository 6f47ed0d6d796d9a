/**
 * Generated atoms, queries and writes of the `scale` benchmark, in English and Russian, reproducible and unbounded
 * (up to ≈ 2 M atoms): the sentences of the two fixture books (bench/lib/large-texts.ts), split by language and
 * shuffled with a fixed seed, then combined so that atom `i` is distinct from every other by construction:
 * - even `i` is English, odd `i` Russian; within its language, atom `m = ⌊i / 2⌋` joins sentence `j = m mod N` and
 *   sentence `(j + 1 + ⌊m / N⌋) mod N` (N sentences in the pool): a different ordered pair for every `m < N(N − 1)`,
 *   and every third atom adds a third sentence (as a paragraph would);
 * - atoms for memory_store come from the top of the same pair range, so they are new at every scale;
 * - queries are 3–5 words of four or more letters taken in order from a random sentence of either book.
 * The vocabulary is the two books' (≈ 20 k words): every term's posting list grows linearly with the atom count, a
 * harder case for the lexical leg than a real store whose vocabulary grows with it.
 */
import { mulberry32 } from "../../tests/support/prng.ts";
import { foldForHash } from "../../src/domain/text.ts";
import { bookSentences } from "./large-texts.ts";

/** The sentences of one language, in the benchmark's fixed order. */
export interface SentencePools {
  en: string[];
  ru: string[];
}

const CYRILLIC = /[а-яё]/i;

/** Shuffles `xs` in place with a seeded Fisher–Yates shuffle; returns it. */
function shuffle<T>(xs: T[], seed: number): T[] {
  const rand = mulberry32(seed);
  for (let i = xs.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [xs[i], xs[j]] = [xs[j], xs[i]];
  }
  return xs;
}

/**
 * Splits `sentences` by language (Cyrillic letters → Russian), drops repeats by folded text (the atom identity's
 * folding) and shuffles each pool with `seed`. Defaults to the two fixture books.
 */
export function sentencePools(sentences: string[] = bookSentences(), seed = 23): SentencePools {
  const seen = new Set<string>();
  const en: string[] = [];
  const ru: string[] = [];
  for (const s of sentences) {
    const key = foldForHash(s);
    if (seen.has(key)) continue;
    seen.add(key);
    (CYRILLIC.test(s) ? ru : en).push(s);
  }
  return { en: shuffle(en, seed), ru: shuffle(ru, seed + 1) };
}

/** How many distinct atoms {@link atomText} can make from `pools`: twice the smaller language's pair count. */
export function atomCapacity(pools: SentencePools): number {
  const n = Math.min(pools.en.length, pools.ru.length);
  return 2 * n * (n - 1);
}

/**
 * Atom `i` (0-based) of the generated corpus (see module doc).
 * @throws RangeError when `i` is negative or not below {@link atomCapacity}.
 */
export function atomText(pools: SentencePools, i: number): string {
  if (!Number.isInteger(i) || i < 0 || i >= atomCapacity(pools)) throw new RangeError(`atom index ${i} out of range`);
  const pool = i % 2 === 0 ? pools.en : pools.ru;
  const m = Math.floor(i / 2);
  const n = pool.length;
  const j = m % n;
  const k = Math.floor(m / n);
  const parts = [pool[j], pool[(j + 1 + k) % n]];
  if (m % 3 === 2) parts.push(pool[(j + 2 + k + Math.floor(n / 2)) % n]);
  return parts.join(" ");
}

/** Atoms `[from, to)` of the generated corpus. */
export function atomTexts(pools: SentencePools, from: number, to: number): string[] {
  const out: string[] = [];
  for (let i = from; i < to; i++) out.push(atomText(pools, i));
  return out;
}

/**
 * `count` atoms for memory_store calls, numbered from `offset` down from the top of the pair range: new against any
 * loaded prefix below capacity − offset − count. Each is `{claim, content}` with the first sentence as claim.
 */
export function storeAtoms(pools: SentencePools, count: number, offset = 0): { claim: string; content: string }[] {
  const top = atomCapacity(pools) - 1 - offset;
  const out: { claim: string; content: string }[] = [];
  for (let c = 0; c < count; c++) {
    const content = atomText(pools, top - c);
    const cut = content.search(/(?<=[.!?…])\s/u);
    out.push({ claim: cut > 0 ? content.slice(0, cut) : content, content });
  }
  return out;
}

/** One generated query: its text and language. */
export interface ScaleQuery {
  text: string;
  lang: "en" | "ru";
}

/**
 * `count` queries, alternately English and Russian: 3–5 words of ≥ 4 letters, in order, from a random sentence of
 * the pool (sentences with fewer such words are skipped). Deterministic for a `seed`.
 */
export function scaleQueries(pools: SentencePools, count: number, seed = 7): ScaleQuery[] {
  const rand = mulberry32(seed);
  const out: ScaleQuery[] = [];
  while (out.length < count) {
    const lang = out.length % 2 === 0 ? "en" : "ru";
    const pool = pools[lang];
    const words = (pool[Math.floor(rand() * pool.length)].match(/\p{L}{4,}/gu) ?? []) as string[];
    const want = 3 + Math.floor(rand() * 3);
    if (words.length < want) continue;
    const start = Math.floor(rand() * (words.length - want + 1));
    out.push({ text: words.slice(start, start + want).join(" "), lang });
  }
  return out;
}
