/**
 * The embedded search projection of one process: an {@link AtomCatalog}, a {@link Bm25Index} and a
 * {@link FlatVectorIndex}, kept current from the canonical tables by a high-water mark (transaction ids, see
 * `changesSince`), never through outbox claims, so that every process sees every atom.
 */
import type { AtomFilter } from "../../domain/atom.ts";
import type { LexemeTf } from "../../domain/tsvector.ts";
import type { ChangeFeed } from "../../ports/store/change-feed.ts";
import type { ProjectionState, SearchProjection } from "../../ports/projections/search-projection.ts";
import { AtomCatalog } from "./atom-catalog.ts";
import { Bm25Index } from "./bm25-index.ts";
import { FlatVectorIndex } from "./flat-index.ts";

const PAGE = 5000;
/**
 * Share of a neighbouring note's BM25 score a note gains (AtomCatalog.neighbours). LoCoMo development split, recall@10
 * of memory_search: 0 → 64.0, 0.15 → 67.7, 0.3 → 69.3, 0.5 → 71.3, 0.7 → 72.9, 1.0 → 71.7; 0.5 keeps a direct
 * match ahead of the neighbours of a slightly better one.
 */
export const NEIGHBOUR_WEIGHT = 0.5;

/** In-process indexes following the canonical store. */
export class EmbeddedProjection implements SearchProjection {
  readonly catalog = new AtomCatalog();
  readonly lexicalIndex = new Bm25Index();
  readonly vectorIndex: FlatVectorIndex;
  private mark = "0";
  private syncing: Promise<number> | null = null;
  private lastSyncAt = 0;

  constructor(
    private readonly store: ChangeFeed,
    readonly model: string,
    dim: number,
    /** False when vectors live only in an external index (config embedded_vectors = false): only BM25 is kept. */
    private readonly followVectors = true,
  ) {
    this.vectorIndex = new FlatVectorIndex(model, dim, this.catalog);
  }

  /** The current high-water mark (an xid8 as text), when it was last advanced (ms epoch), atoms held. */
  get state(): ProjectionState {
    return { mark: this.mark, lastSyncAt: this.lastSyncAt, atoms: this.catalog.size };
  }

  /**
   * Applies every change since the mark; concurrent callers share one run. Returns the rows applied.
   * @throws PegasError from the store when the database is unreachable.
   */
  sync(): Promise<number> {
    if (!this.syncing) {
      this.syncing = this.runSync().finally(() => {
        this.syncing = null;
      });
    }
    return this.syncing;
  }

  /**
   * Drops the in-process indexes and rebuilds them from the canonical tables (mark back to "0"); concurrent searches
   * wait for it like for a sync. Returns the rows applied.
   */
  async rebuild(): Promise<number> {
    while (this.syncing) await this.syncing.catch(() => 0);
    this.syncing = (async () => {
      this.catalog.clear();
      this.lexicalIndex.clear();
      this.vectorIndex.clear();
      this.mark = "0";
      return this.runSync();
    })().finally(() => {
      this.syncing = null;
    });
    return this.syncing;
  }

  private async runSync(): Promise<number> {
    const next = await this.store.changeMark();
    let applied = 0;
    // Atoms first, then embeddings, so that every vector finds its atom's slot.
    for (let cursor = { xid: this.mark, id: 0 }; ; ) {
      const atoms = await this.store.atomChanges(cursor, PAGE);
      for (const a of atoms) {
        const slot = this.catalog.upsert(a.id, { type: a.type, status: a.status, docId: a.docId, note: a.note });
        // A typed atom of a stored document restates a sentence of its passages: not counted in the idf.
        this.lexicalIndex.add(slot, a.lexemes, a.note === true || a.type === "text");
        cursor = { xid: a.xid, id: a.id };
      }
      applied += atoms.length;
      if (atoms.length < PAGE) break;
    }
    for (let cursor = { xid: this.mark, id: 0 }; this.followVectors; ) {
      const rows = await this.store.embeddingChanges(cursor, this.model, PAGE);
      for (const e of rows) {
        if (this.catalog.slot(e.atomId) !== undefined) this.vectorIndex.put(e.atomId, e.vector);
        cursor = { xid: e.xid ?? cursor.xid, id: e.atomId };
      }
      applied += rows.length;
      if (rows.length < PAGE) break;
    }
    this.mark = next;
    this.lastSyncAt = Date.now();
    return applied;
  }

  /** BM25 top-k atom ids for analyzed query lexemes; notes' neighbour bonus unless `opts.neighbours` is false. */
  lexical(
    lexemes: LexemeTf[],
    k: number,
    filter: AtomFilter,
    opts: { neighbours?: boolean } = {},
  ): Array<{ atomId: number; score: number }> {
    const neighbours =
      opts.neighbours === false
        ? undefined
        : { weight: NEIGHBOUR_WEIGHT, of: (slot: number) => this.catalog.neighbours(slot) };
    return this.lexicalIndex
      .search(lexemes, k, this.catalog.mask(filter), neighbours)
      .map((h) => ({ atomId: this.catalog.atomId(h.slot), score: h.score }));
  }
}
