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

const FNV_PRIME = 0x01000193;

/**
 * FNV-1a state after `prefix`, before the final mix: hashing on from it gives `fnv1a32(prefix + s)` (domain/hash.ts),
 * so a feature's hash is computed without building its prefixed name.
 */
function prefixState(prefix: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < prefix.length; i++) h = Math.imul(h ^ prefix.charCodeAt(i), FNV_PRIME);
  return h >>> 0;
}

/** Word features are named `w\u0001<word>`, n-gram features `g\u0001<n-gram>`; their hashes are of these names. */
const WORD_SEED = prefixState("w\u0001");
const NGRAM_SEED = prefixState("g\u0001");
/** Feature tables above this many slots are not kept between calls (one huge text must not pin its table). */
const KEEP_SLOTS = 1 << 15;

/**
 * The distinct features of one text, in order of first occurrence, with their hash and count: an open-addressing
 * table keyed by the feature's hash and checked against its characters, so that no string is built or hashed a
 * second time per n-gram (what a Map of "g\u0001abc" names cost: 60 % of the embedder's time). Two different
 * features with the same hash stay two features, as in a Map of names. Order of first occurrence is kept because
 * the vector is a float sum in that order.
 */
class FeatureTable {
  readonly hashes: number[] = [];
  readonly counts: number[] = [];
  readonly isWord: boolean[] = [];
  private readonly srcs: string[] = [];
  private readonly starts: number[] = [];
  private readonly lens: number[] = [];
  private slots = new Int32Array(1024);

  get size(): number {
    return this.hashes.length;
  }

  /** Empties the table for the next text. */
  reset(): void {
    if (this.slots.length > KEEP_SLOTS) this.slots = new Int32Array(1024);
    else this.slots.fill(0);
    for (const a of [this.hashes, this.counts, this.isWord, this.srcs, this.starts, this.lens]) a.length = 0;
  }

  /**
   * Drops the table's references to the text's words: a word may be a slice of the caller's whole document (when
   * folding changed nothing), which an idle table must not keep alive.
   */
  release(): void {
    this.srcs.length = 0;
  }

  /** Counts `by` occurrences of the feature `src[start, start + len)` of the given kind. */
  add(src: string, start: number, len: number, word: boolean, by: number): void {
    let h = word ? WORD_SEED : NGRAM_SEED;
    for (let i = start; i < start + len; i++) h = Math.imul(h ^ src.charCodeAt(i), FNV_PRIME);
    // fnv1a32's final mix (murmur3 fmix32), so the hash equals fnv1a32 of the feature's name.
    h ^= h >>> 16;
    h = Math.imul(h, 0x85ebca6b);
    h ^= h >>> 13;
    h = Math.imul(h, 0xc2b2ae35);
    h ^= h >>> 16;
    h >>>= 0;
    const mask = this.slots.length - 1;
    for (let pos = h & mask; ; pos = (pos + 1) & mask) {
      const f = this.slots[pos] - 1;
      if (f < 0) {
        this.slots[pos] = this.hashes.length + 1;
        this.hashes.push(h);
        this.counts.push(by);
        this.isWord.push(word);
        this.srcs.push(src);
        this.starts.push(start);
        this.lens.push(len);
        if (this.hashes.length * 2 > this.slots.length) this.grow();
        return;
      }
      if (this.hashes[f] === h && this.isWord[f] === word && this.same(f, src, start, len)) {
        this.counts[f] += by;
        return;
      }
    }
  }

  private same(f: number, src: string, start: number, len: number): boolean {
    if (this.lens[f] !== len) return false;
    const other = this.srcs[f];
    const from = this.starts[f];
    for (let i = 0; i < len; i++) if (other.charCodeAt(from + i) !== src.charCodeAt(start + i)) return false;
    return true;
  }

  private grow(): void {
    this.slots = new Int32Array(this.slots.length * 2);
    const mask = this.slots.length - 1;
    for (let f = 0; f < this.hashes.length; f++) {
      let pos = this.hashes[f] & mask;
      while (this.slots[pos] !== 0) pos = (pos + 1) & mask;
      this.slots[pos] = f + 1;
    }
  }
}

/** Adds `by` occurrences of one word's features into `table`: the word, and its character n-grams when `ngrams`. */
function addWordFeatures(word: string, table: FeatureTable, ngrams: boolean, by: number): void {
  table.add(word, 0, word.length, true, by);
  if (!ngrams) return;
  const padded = `<${word}>`;
  // n-grams of code points; without surrogate pairs a code point is one UTF-16 unit, and a range is enough.
  const cps = SURROGATE.test(padded) ? Array.from(padded) : null;
  const length = cps ? cps.length : padded.length;
  for (let n = 3; n <= 5; n++) {
    if (n >= length) break; // the whole padded word is already the word feature
    for (let i = 0; i + n <= length; i++) {
      if (!cps) table.add(padded, i, n, false, by);
      else {
        const g = cps.slice(i, i + n).join("");
        table.add(g, 0, g.length, false, by);
      }
    }
  }
}

/** Occurrences of each string of `list`, in order of first occurrence. */
function distinct(list: readonly string[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const w of list) out.set(w, (out.get(w) ?? 0) + 1);
  return out;
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

  private readonly table = new FeatureTable();

  constructor(readonly dim: number = 256) {
    if (!Number.isInteger(dim) || dim < 16)
      throw new PegasError("INVALID_INPUT", `local embedder dimension ${dim} is below 16`);
    this.model = `pegas-lexical-hash-v1-d${dim}`;
  }

  async ready(): Promise<void> {}

  /** Synchronous embedding of one text. */
  embed(text: string): Float32Array {
    const folded = fold(text);
    const counts = this.table;
    counts.reset();
    // Each distinct word once, with its count, in order of first occurrence: a feature then first occurs at the same
    // word as in the running text, and counts the same, so the vector is the same for a fraction of the work.
    const words = distinct(folded.match(WORD) ?? []);
    // Stop words carry no topic (the local embedder has no idf to discount them); keep them only if nothing else.
    const content = [...words].filter(([w]) => !ENGLISH_STOP_WORDS.has(w) && !RUSSIAN_STOP_WORDS.has(w));
    if (content.length || words.size)
      for (const [w, by] of content.length ? content : words) addWordFeatures(w, counts, true, by);
    else for (const [s, by] of distinct(folded.match(SYMBOL) ?? [])) addWordFeatures(s, counts, false, by);
    if (counts.size === 0) throw new PegasError("INVALID_INPUT", "cannot embed empty text", { hint: "give some text" });
    const v = new Float32Array(this.dim);
    for (let i = 0; i < counts.size; i++) {
      const h = counts.hashes[i];
      const weight = (counts.isWord[i] ? WORD_WEIGHT : NGRAM_WEIGHT) * (1 + Math.log(counts.counts[i]));
      v[h % this.dim] += h & 0x80000000 ? -weight : weight;
    }
    if (v.every((x) => x === 0)) v[fnv1a32(folded) % this.dim] = 1; // features cancelled out exactly
    counts.release();
    return l2normalize(v);
  }

  async embedDocuments(texts: string[]): Promise<Float32Array[]> {
    return texts.map((t) => this.embed(t));
  }

  async embedQuery(text: string): Promise<Float32Array> {
    return this.embed(text);
  }
}
