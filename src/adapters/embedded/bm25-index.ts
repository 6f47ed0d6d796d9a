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
  slots = new Int32Array(4);
  tfs = new Uint16Array(4);
  n = 0;
  /** Postings of slots that count in the collection statistics (see {@link Bm25Index.add}). */
  counted = 0;

  add(slot: number, tf: number): void {
    if (this.n === this.slots.length) {
      const s = new Int32Array(this.n * 2);
      s.set(this.slots);
      this.slots = s;
      const t = new Uint16Array(this.n * 2);
      t.set(this.tfs);
      this.tfs = t;
    }
    this.slots[this.n] = slot;
    this.tfs[this.n++] = Math.min(tf, 65535);
  }
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

  /** True when the slot's terms are already indexed. */
  has(slot: number): boolean {
    return slot < this.indexed.length && this.indexed[slot] === 1;
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
    this.indexed[slot] = 1;
    this.lengths[slot] = length;
    this.docs++;
    if (counted) this.countedDocs++;
    this.totalLength += length;
  }

  /**
   * Top-k slots by BM25 for the query lexemes (a repeated lexeme counts once per occurrence), restricted to
   * slots whose `mask` byte is 1. With `neighbours`, a slot also gains `weight` × the best score among the slots
   * `of` it names as its neighbours (it may match no query term itself): the turn that answers is often next to the
   * one that names the subject. Returns best first; score 0 slots are never returned.
   */
  search(
    query: LexemeTf[],
    k: number,
    mask: Uint8Array,
    neighbours?: { weight: number; of: (slot: number) => number[] },
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
    const bonus = neighbours?.weight ? this.neighbourBonus(touched, mask, neighbours.of) : null;
    const top = new TopK(k);
    for (const slot of touched) top.push(slot, scores[slot] + (neighbours?.weight ?? 0) * (bonus?.get(slot) ?? 0));
    if (bonus) for (const [slot, v] of bonus) if (scores[slot] === 0) top.push(slot, neighbours!.weight * v);
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

  /** Per neighbour of a scored slot (allowed by the mask): the best score among its scored neighbours. */
  private neighbourBonus(touched: number[], mask: Uint8Array, of: (slot: number) => number[]): Map<number, number> {
    const bonus = new Map<number, number>();
    for (const slot of touched) {
      for (const n of of(slot)) {
        if (n >= mask.length || mask[n] === 0) continue;
        bonus.set(n, Math.max(bonus.get(n) ?? 0, this.scores[slot]));
      }
    }
    return bonus;
  }
}
