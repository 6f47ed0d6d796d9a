/**
 * In-process BM25 ranking (Robertson & Zaragoza, 2009, "The Probabilistic Relevance Framework: BM25 and Beyond";
 * Lucene's idf, ln(1 + (N − df + 0.5)/(df + 0.5))) over lexemes that PostgreSQL full-text search produced
 * (`to_tsvector('pegas', …)`, Russian and English Snowball stemming). PostgreSQL does the linguistics; this index
 * does the ranking that `ts_rank` lacks, in memory, over dense slots of an {@link AtomCatalog}.
 */
import type { LexemeTf } from "../../domain/tsvector.ts";
import { TopK } from "../../domain/topk.ts";

/** BM25 parameters; the defaults are Anserini's (k1 = 0.9, b = 0.4), behind the published BEIR BM25 figures. */
export interface Bm25Params {
  k1: number;
  b: number;
}

class Postings {
  /** Postings of slots that count in the collection statistics (see {@link Bm25Index.add}). */
  counted = 0;

  /** Empty, or views of a snapshot's arrays (no throwaway arrays: a snapshot of 40k terms makes 40k of these). */
  constructor(
    public slots: Int32Array = new Int32Array(4),
    public tfs: Uint16Array = new Uint16Array(4),
    public n = 0,
  ) {}

  add(slot: number, tf: number): void {
    if (this.n === this.slots.length) {
      const s = new Int32Array(Math.max(4, this.n * 2));
      s.set(this.slots);
      this.slots = s;
      const t = new Uint16Array(Math.max(4, this.n * 2));
      t.set(this.tfs);
      this.tfs = t;
    }
    this.slots[this.n] = slot;
    this.tfs[this.n++] = Math.min(tf, 65535);
  }
}

/**
 * The contents of a {@link Bm25Index} as flat arrays, as a snapshot stores them: term i's postings are
 * `slots`/`tfs` from the sum of `counts[0..i)` on, `counts[i]` long.
 */
export interface Bm25State {
  /** Indexed slots and the sum of their lengths (in lexeme occurrences). */
  docs: number;
  totalLength: number;
  /** Per slot: document length, and 1 when indexed and counted in the idf, 2 when indexed uncounted, 0 when not. */
  lengths: Uint32Array<ArrayBuffer>;
  indexed: Uint8Array<ArrayBuffer>;
  terms: string[];
  counts: Uint32Array<ArrayBuffer>;
  slots: Int32Array<ArrayBuffer>;
  tfs: Uint16Array<ArrayBuffer>;
}

/** Inverted index with per-slot document length; a slot's terms are indexed once (atom text is immutable). */
export class Bm25Index {
  private readonly terms = new Map<string, Postings>();
  private lengths = new Uint32Array(1024);
  private indexed = new Uint8Array(1024);
  private docs = 0;
  /** Slots that count in the document frequencies (see {@link add}). */
  private countedDocs = 0;
  private totalLength = 0;
  private scores = new Float32Array(1024);

  constructor(private readonly params: Bm25Params = { k1: 0.9, b: 0.4 }) {}

  /** Number of indexed slots. */
  get size(): number {
    return this.docs;
  }

  /** Forgets every slot and term. */
  clear(): void {
    this.terms.clear();
    this.indexed.fill(0);
    this.lengths.fill(0);
    this.docs = 0;
    this.countedDocs = 0;
    this.totalLength = 0;
  }

  /** The index as flat arrays over the first `slots` slots (postings are copied, in term insertion order). */
  exportState(slots: number): Bm25State {
    const terms = [...this.terms.keys()];
    const counts = new Uint32Array(terms.length);
    let total = 0;
    terms.forEach((t, i) => {
      counts[i] = this.terms.get(t)!.n;
      total += counts[i];
    });
    const slotArr = new Int32Array(total);
    const tfs = new Uint16Array(total);
    let at = 0;
    for (const p of this.terms.values()) {
      slotArr.set(p.slots.subarray(0, p.n), at);
      tfs.set(p.tfs.subarray(0, p.n), at);
      at += p.n;
    }
    const lengths = new Uint32Array(slots);
    lengths.set(this.lengths.subarray(0, Math.min(slots, this.lengths.length)));
    const indexed = new Uint8Array(slots);
    indexed.set(this.indexed.subarray(0, Math.min(slots, this.indexed.length)));
    return { docs: this.docs, totalLength: this.totalLength, lengths, indexed, terms, counts, slots: slotArr, tfs };
  }

  /**
   * Replaces the index by a saved state; postings become views of `state`'s arrays (no copy).
   * @throws Error when the arrays disagree in length.
   */
  importState(state: Bm25State): void {
    if (state.counts.length !== state.terms.length || state.slots.length !== state.tfs.length)
      throw new Error("BM25 state arrays disagree in length");
    if (state.lengths.length !== state.indexed.length) throw new Error("BM25 slot arrays disagree in length");
    this.terms.clear();
    let at = 0;
    for (let i = 0; i < state.terms.length; i++) {
      const n = state.counts[i];
      if (at + n > state.slots.length) throw new Error("BM25 postings overrun");
      this.terms.set(state.terms[i], new Postings(state.slots.subarray(at, at + n), state.tfs.subarray(at, at + n), n));
      at += n;
    }
    this.lengths = state.lengths.length ? state.lengths : new Uint32Array(1024);
    this.indexed = state.indexed.length ? state.indexed : new Uint8Array(1024);
    this.docs = state.docs;
    this.totalLength = state.totalLength;
    this.countedDocs = 0;
    for (let s = 0; s < this.indexed.length; s++) if (this.indexed[s] === 1) this.countedDocs++;
    for (const p of this.terms.values()) {
      for (let i = 0; i < p.n; i++) if (this.indexed[p.slots[i]] === 1) p.counted++;
    }
  }

  /** True when the slot's terms are already indexed. */
  has(slot: number): boolean {
    return slot < this.indexed.length && this.indexed[slot] !== 0;
  }

  /**
   * Indexes a slot's lexemes once; a second call for the same slot is ignored. A slot with `counted` false is ranked
   * like any other but left out of the document frequencies and of the collection size of the idf: an atom that
   * restates part of a text already indexed (a typed atom distilled from a passage of a stored document) would
   * count the words of that text twice.
   */
  add(slot: number, lexemes: LexemeTf[], counted = true): void {
    if (this.has(slot)) return;
    if (slot >= this.indexed.length) {
      const size = Math.max(slot + 1, this.indexed.length * 2);
      const ind = new Uint8Array(size);
      ind.set(this.indexed);
      this.indexed = ind;
      const len = new Uint32Array(size);
      len.set(this.lengths);
      this.lengths = len;
    }
    let length = 0;
    for (const { lexeme, tf } of lexemes) {
      let p = this.terms.get(lexeme);
      if (!p) this.terms.set(lexeme, (p = new Postings()));
      p.add(slot, tf);
      if (counted) p.counted++;
      length += tf;
    }
    this.indexed[slot] = counted ? 1 : 2;
    this.lengths[slot] = length;
    this.docs++;
    if (counted) this.countedDocs++;
    this.totalLength += length;
  }

  /**
   * Top-k slots by BM25 for the query lexemes (a repeated lexeme counts once per occurrence), restricted to
   * slots whose `mask` byte is 1. With `neighbours`, a slot also gains the best of `weight`^distance × the score of
   * each slot `of` names as its neighbour (it may match no query term itself): the turn that answers is often next to
   * the one that names the subject, or one turn further (a remark of the other speaker between). Returns best first;
   * score 0 slots are never returned.
   */
  search(
    query: LexemeTf[],
    k: number,
    mask: Uint8Array,
    neighbours?: { weight: number; of: (slot: number) => Array<{ slot: number; distance: number }> },
  ): Array<{ slot: number; score: number }> {
    if (this.docs === 0 || k <= 0) return [];
    if (this.scores.length < this.indexed.length) this.scores = new Float32Array(this.indexed.length);
    const scores = this.scores;
    const touched: number[] = [];
    const { k1, b } = this.params;
    const avgdl = this.totalLength / this.docs || 1;
    for (const { lexeme, tf: qtf } of query) {
      const p = this.terms.get(lexeme);
      if (!p) continue;
      const idf = this.idf(p);
      const w = idf * qtf * (k1 + 1);
      for (let i = 0; i < p.n; i++) {
        const slot = p.slots[i];
        if (slot >= mask.length || mask[slot] === 0) continue;
        const tf = p.tfs[i];
        if (scores[slot] === 0) touched.push(slot);
        scores[slot] += (w * tf) / (tf + k1 * (1 - b + (b * this.lengths[slot]) / avgdl));
      }
    }
    const bonus = neighbours?.weight ? this.neighbourBonus(touched, mask, neighbours) : null;
    const top = new TopK(k);
    for (const slot of touched) top.push(slot, scores[slot] + (bonus?.get(slot) ?? 0));
    if (bonus) for (const [slot, v] of bonus) if (scores[slot] === 0) top.push(slot, v);
    for (const slot of touched) scores[slot] = 0;
    return top.result().map(({ key, score }) => ({ slot: key, score }));
  }

  /**
   * Lucene's BM25 idf over the counted slots; a term that no counted slot holds (only restatements do) takes the
   * frequency over all its slots, and a store of restatements alone counts every slot.
   */
  private idf(p: Postings): number {
    const all = this.countedDocs === 0;
    const n = all ? this.docs : this.countedDocs;
    const df = Math.min(n, all || p.counted === 0 ? p.n : p.counted);
    return Math.log(1 + (n - df + 0.5) / (df + 0.5));
  }

  /**
   * Per neighbour of a scored slot (allowed by the mask): the best `weight`^distance × score among the scored slots
   * it neighbours.
   */
  private neighbourBonus(
    touched: number[],
    mask: Uint8Array,
    { weight, of }: { weight: number; of: (slot: number) => Array<{ slot: number; distance: number }> },
  ): Map<number, number> {
    const bonus = new Map<number, number>();
    for (const slot of touched) {
      for (const { slot: n, distance } of of(slot)) {
        if (n >= mask.length || mask[n] === 0) continue;
        bonus.set(n, Math.max(bonus.get(n) ?? 0, weight ** distance * this.scores[slot]));
      }
    }
    return bonus;
  }
}
