/**
 * Bounded top-k selection with a binary min-heap: O(n log k) over n candidates, O(k) memory.
 */
export class TopK {
  private readonly keys: Int32Array;
  private readonly scores: Float64Array;
  private size = 0;

  constructor(readonly k: number) {
    this.keys = new Int32Array(Math.max(1, k));
    this.scores = new Float64Array(Math.max(1, k));
  }

  /** The lowest score currently kept, or -Infinity while fewer than k are kept. */
  get threshold(): number {
    return this.size < this.k ? -Infinity : this.scores[0];
  }

  /** Offers a candidate; ties keep the earlier key (lower slot), so results are deterministic. */
  push(key: number, score: number): void {
    if (this.k <= 0) return;
    if (this.size < this.k) {
      let i = this.size++;
      this.keys[i] = key;
      this.scores[i] = score;
      while (i > 0) {
        const p = (i - 1) >> 1;
        if (!this.less(i, p)) break;
        this.swap(i, p);
        i = p;
      }
      return;
    }
    if (score <= this.scores[0]) return;
    this.keys[0] = key;
    this.scores[0] = score;
    this.siftDown(0);
  }

  /** The kept candidates, best first. */
  result(): Array<{ key: number; score: number }> {
    const out: Array<{ key: number; score: number }> = [];
    for (let i = 0; i < this.size; i++) out.push({ key: this.keys[i], score: this.scores[i] });
    return out.sort((a, b) => b.score - a.score || a.key - b.key);
  }

  private less(a: number, b: number): boolean {
    const d = this.scores[a] - this.scores[b];
    return d < 0 || (d === 0 && this.keys[a] > this.keys[b]);
  }

  private swap(a: number, b: number): void {
    const k = this.keys[a];
    this.keys[a] = this.keys[b];
    this.keys[b] = k;
    const s = this.scores[a];
    this.scores[a] = this.scores[b];
    this.scores[b] = s;
  }

  private siftDown(i: number): void {
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < this.size && this.less(l, m)) m = l;
      if (r < this.size && this.less(r, m)) m = r;
      if (m === i) return;
      this.swap(i, m);
      i = m;
    }
  }
}
