/**
 * The embedded default embedder: deterministic, weightless, lexical. Feature hashing (Weinberger et al., 2009,
 * "Feature Hashing for Large Scale Multitask Learning") of word unigrams and character n-grams of each word
 * (n = 3..5 over "<word>", as fastText's subwords, Bojanowski et al., 2017), Snowball stop words skipped,
 * sublinear term frequency, signed buckets, L2-normalized. It captures spelling overlap (Russian inflections share n-grams), not meaning: its
 * model name says "lexical" so that nobody mistakes it for a neural model.
 */
import { fnv1a32 } from "../../domain/hash.ts";
import { ENGLISH_STOP_WORDS, RUSSIAN_STOP_WORDS } from "../../domain/stopwords.ts";
import { PegasError } from "../../errors.ts";
import { type Embedder, l2normalize } from "../../ports/models/embedder.ts";

const WORD = /[\p{L}\p{N}]+/gu;
const SYMBOL = /\S+/gu;
const WORD_WEIGHT = 1.0;
const NGRAM_WEIGHT = 0.35;
const SURROGATE = /[\uD800-\uDFFF]/;

/** Adds the hashed features of one word into `counts`. */
function addWordFeatures(word: string, counts: Map<string, number>, ngrams: boolean): void {
  const w = `w\u0001${word}`;
  counts.set(w, (counts.get(w) ?? 0) + 1);
  if (!ngrams) return;
  const padded = `<${word}>`;
  // n-grams of code points; without surrogate pairs a code point is one UTF-16 unit, and substring() is enough.
  const astral = SURROGATE.test(padded);
  const cps = astral ? Array.from(padded) : null;
  const length = cps ? cps.length : padded.length;
  for (let n = 3; n <= 5; n++) {
    if (n >= length) break; // the whole padded word is already the word feature
    for (let i = 0; i + n <= length; i++) {
      const g = `g\u0001${cps ? cps.slice(i, i + n).join("") : padded.substring(i, i + n)}`;
      counts.set(g, (counts.get(g) ?? 0) + 1);
    }
  }
}

/** Normalizes for features: NFKC, lower case, ё→е. */
function fold(text: string): string {
  return text.normalize("NFKC").toLowerCase().replaceAll("ё", "е");
}

/**
 * Local lexical embedder (see module doc). `dim` buckets; `embed*` never returns a zero vector for text that has
 * any non-space character (symbols-only text is hashed by its symbol runs).
 * @throws PegasError INVALID_INPUT for empty or whitespace-only text.
 */
export class LexicalHashEmbedder implements Embedder {
  readonly kind = "lexical" as const;
  readonly model: string;
  /**
   * Near-duplicate candidate cosine, calibrated by bench/calibrate-dedup.ts on the 130 labelled pairs of
   * tests/dedup/pairs.ts at the default dimension 256: the lowest cosine of a pair that must merge or contradict
   * (0.3974, "По субботам и воскресеньям…" vs "По понедельникам и вторникам…") minus a 0.05 margin, rounded down;
   * labelled unrelated pairs stay below 0.14, and 0.2% of 40,000 random sentence pairs of Botchan and Палата № 6
   * reach it. Recorded in bench/results/dedup-calibration.json. Far lower than a neural model's: a short statement
   * with one word changed loses half its bag of words. Safe because the words decide: the lexical policy merges
   * only the same words and contradicts only when the rest of the statement is the same; a candidate that is
   * neither is kept (and linked `related`).
   */
  readonly nearDupThreshold = 0.34;

  constructor(readonly dim: number = 256) {
    if (!Number.isInteger(dim) || dim < 16)
      throw new PegasError("INVALID_INPUT", `local embedder dimension ${dim} is below 16`);
    this.model = `pegas-lexical-hash-v1-d${dim}`;
  }

  async ready(): Promise<void> {}

  /** Synchronous embedding of one text. */
  embed(text: string): Float32Array {
    const folded = fold(text);
    const counts = new Map<string, number>();
    const words = folded.match(WORD) ?? [];
    // Stop words carry no topic (the local embedder has no idf to discount them); keep them only if nothing else.
    const content = words.filter((w) => !ENGLISH_STOP_WORDS.has(w) && !RUSSIAN_STOP_WORDS.has(w));
    if (content.length || words.length)
      for (const w of content.length ? content : words) addWordFeatures(w, counts, true);
    else for (const s of folded.match(SYMBOL) ?? []) addWordFeatures(s, counts, false);
    if (counts.size === 0) throw new PegasError("INVALID_INPUT", "cannot embed empty text", { hint: "give some text" });
    const v = new Float32Array(this.dim);
    for (const [feature, count] of counts) {
      const h = fnv1a32(feature);
      const weight = (feature.charCodeAt(0) === 119 ? WORD_WEIGHT : NGRAM_WEIGHT) * (1 + Math.log(count));
      v[h % this.dim] += h & 0x80000000 ? -weight : weight;
    }
    if (v.every((x) => x === 0)) v[fnv1a32(folded) % this.dim] = 1; // features cancelled out exactly
    return l2normalize(v);
  }

  async embedDocuments(texts: string[]): Promise<Float32Array[]> {
    return texts.map((t) => this.embed(t));
  }

  async embedQuery(text: string): Promise<Float32Array> {
    return this.embed(text);
  }
}
