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
import { log } from "../../log.ts";
import { collectIfGrown, collectNow } from "../../platform/gc.ts";
import {
  parseSnapshot,
  readSnapshotFile,
  type SnapshotContent,
  SnapshotUnusable,
  snapshotMatches,
  writeSnapshot,
  type SnapshotKey,
} from "./snapshot.ts";

const PAGE = 5000;
/**
 * Share of a neighbouring note's BM25 score a note gains (AtomCatalog.neighbours). LoCoMo development split, recall@10
 * of memory_search: 0 → 64.0, 0.15 → 67.7, 0.3 → 69.3, 0.5 → 71.3, 0.7 → 72.9, 1.0 → 71.7; 0.5 keeps a direct
 * match ahead of the neighbours of a slightly better one.
 */
export const NEIGHBOUR_WEIGHT = 0.5;
/**
 * How many notes away on each side a note's neighbours reach; one `distance` further lends {@link NEIGHBOUR_WEIGHT}
 * times less (0.5 next door, 0.25 two turns away). In a conversation the answer is often two turns from the turn that
 * names the subject, with the other speaker's remark between. LoCoMo development split, recall@10 of memory_search
 * (session dates as observed_at): reach 1 → 73.9, 2 → 74.7 (every category and every conversation equal or higher;
 * temporal 84.6 → 85.8), 3 (0.125 three away) → 74.7; reach 2 lending the same 0.5 at distance 2 → 76.1 but
 * multi-hop 41.0 → 40.4.
 */
export const NEIGHBOUR_REACH = 2;

/** Where and how often an {@link EmbeddedProjection} keeps its snapshot (snapshot.ts). */
export interface SnapshotOptions {
  /** The snapshot file (in the embedded data dir's `.cache`). */
  path: string;
  /**
   * Rows applied since the last save that make a catch-up save again (default 2000); a save also needs a tenth of
   * the atoms held, so that writing the whole file stays linear in the store's growth, not quadratic.
   */
  minRows?: number;
  /** The file's bytes read ahead (snapshot.ts readSnapshotFile, null: none), taken by the first restore. */
  file?: Promise<Buffer | null>;
}

/**
 * Most atoms the in-process indexes serve at the search latency the benchmarks hold (`scale`: the exact vector scan
 * and BM25 grow linearly, memory_search p50 ≈ 40 ms at 100k atoms on the 2-core reference machine, so ≈ 50 ms near
 * 130k). Past it a catch-up logs, once per process, the set-up for a store that large.
 */
export const EMBEDDED_ATOM_CEILING = 150_000;

/** What a process logs when its in-process indexes outgrow {@link EMBEDDED_ATOM_CEILING}: the set-up to move to. */
export interface CeilingAdvice {
  /** Atoms past which to warn (default {@link EMBEDDED_ATOM_CEILING}). */
  atoms?: number;
  /** The production set-up for this store, e.g. "run PostgreSQL with Qdrant: …". */
  hint: string;
}

/** In-process indexes following the canonical store. */
export class EmbeddedProjection implements SearchProjection {
  readonly catalog = new AtomCatalog();
  readonly lexicalIndex = new Bm25Index();
  readonly vectorIndex: FlatVectorIndex;
  private mark = "0";
  private syncing: Promise<number> | null = null;
  private lastSyncAt = 0;
  /** Rows applied since the snapshot was last written or read. */
  private unsaved = 0;
  /** Set by the first catch-up, which starts from the snapshot when one checks. */
  private key: SnapshotKey | null = null;

  constructor(
    private readonly store: ChangeFeed,
    readonly model: string,
    readonly dim: number,
    /** False when vectors live only in an external index (config embedded_vectors = false): only BM25 is kept. */
    private readonly followVectors = true,
    /** Keep a snapshot of the indexes (embedded data dir); none: rebuild from the feed in every process. */
    private readonly snapshot?: SnapshotOptions,
    /** Warn once when the indexes hold more atoms than the ceiling; none: never. */
    private readonly ceiling?: CeilingAdvice,
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
      this.unsaved = Number.POSITIVE_INFINITY; // a rebuild replaces the snapshot whatever its size
      return this.runSync();
    })().finally(() => {
      this.syncing = null;
    });
    return this.syncing;
  }

  private async runSync(): Promise<number> {
    if (this.snapshot && !this.key) await this.restore(this.snapshot.path);
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
      // A page's rows are garbage once applied; a first catch-up reads every atom, so it is collected as it goes.
      collectIfGrown();
    }
    if (this.followVectors) this.vectorIndex.reserve(this.catalog.size);
    for (let cursor = { xid: this.mark, id: 0 }; this.followVectors; ) {
      const rows = await this.store.embeddingChanges(cursor, this.model, PAGE);
      for (const e of rows) {
        if (this.catalog.slot(e.atomId) !== undefined) this.vectorIndex.put(e.atomId, e.vector);
        cursor = { xid: e.xid ?? cursor.xid, id: e.atomId };
      }
      applied += rows.length;
      if (rows.length < PAGE) break;
      collectIfGrown();
    }
    this.mark = next;
    this.lastSyncAt = Date.now();
    this.unsaved += applied;
    if (this.snapshot && this.unsaved >= Math.max(this.snapshot.minRows ?? 2000, this.catalog.size / 10))
      this.save(this.snapshot.path);
    // The last pages' and the snapshot's garbage, collected at once rather than when the heap next grows (a first
    // catch-up of 100k atoms: RSS after it 659 → 466 MiB with the paged collections above, → ≈ 380 with this one).
    if (applied >= PAGE) collectNow();
    this.adviseOnCeiling();
    return applied;
  }

  private ceilingAdvised = false;

  /** Logs (once) that the store outgrew the in-process indexes' ceiling, naming the set-up for its size. */
  private adviseOnCeiling(): void {
    const limit = this.ceiling?.atoms ?? EMBEDDED_ATOM_CEILING;
    if (!this.ceiling || this.ceilingAdvised || this.catalog.size <= limit) return;
    this.ceilingAdvised = true;
    log.warn(
      `this store holds ${this.catalog.size} atoms, past the ${limit} the in-process indexes serve quickly: searches slow down linearly (≈ 40 ms per 100k atoms); ${this.ceiling.hint}`,
      { atoms: this.catalog.size, ceiling: limit },
    );
  }

  /**
   * Starts from the snapshot at `path` when it checks (format, checksum, feed identity, model, and a mark not ahead of
   * the feed); the catch-up that follows applies what changed since its mark. A damaged or foreign one, or one of
   * another format version, is ignored with a warning: the indexes are then rebuilt from the feed and saved anew.
   */
  private async restore(path: string): Promise<void> {
    this.key = {
      identity: await this.store.feedIdentity(),
      model: this.model,
      dim: this.dim,
      vectors: this.followVectors,
    };
    let content: SnapshotContent | null;
    const ahead = this.snapshot?.file;
    if (this.snapshot) delete this.snapshot.file; // read ahead once; a later restore reads the file anew
    try {
      const file = await (ahead ?? readSnapshotFile(path));
      content = file && parseSnapshot(file);
    } catch (err) {
      if (!(err instanceof SnapshotUnusable)) throw err;
      // A damaged file and one of another format version (after an upgrade) alike: the rebuild costs a full catch-up.
      log.warn(`index snapshot unusable (${err.message}); rebuilding the in-process indexes from the database`, {
        path,
      });
      this.unsaved = Number.POSITIVE_INFINITY; // save the rebuilt indexes whatever their size
      return;
    }
    if (!content || this.mark !== "0") return;
    const current = await this.store.changeMark();
    if (!snapshotMatches(content, this.key) || BigInt(content.mark) > BigInt(current)) {
      log.warn("index snapshot belongs to another database, schema or model; rebuilding the in-process indexes", {
        path,
      });
      this.unsaved = Number.POSITIVE_INFINITY;
      return;
    }
    try {
      this.catalog.importState(content.catalog);
      this.lexicalIndex.importState(content.bm25);
      if (content.flat) this.vectorIndex.importState(content.flat);
      this.mark = content.mark;
    } catch (err) {
      log.warn("index snapshot inconsistent; rebuilding the in-process indexes from the database", {
        path,
        error: (err as Error).message,
      });
      this.catalog.clear();
      this.lexicalIndex.clear();
      this.vectorIndex.clear();
      this.unsaved = Number.POSITIVE_INFINITY;
    }
  }

  /** Writes the snapshot (atomically); a failure is logged and leaves the indexes as they are. */
  private save(path: string): void {
    if (!this.key) return;
    const size = this.catalog.size;
    try {
      writeSnapshot(path, {
        ...this.key,
        mark: this.mark,
        catalog: this.catalog.exportState(),
        bm25: this.lexicalIndex.exportState(size),
        ...(this.followVectors ? { flat: this.vectorIndex.exportState(size) } : {}),
      });
      this.unsaved = 0;
    } catch (err) {
      log.warn("cannot write the index snapshot", { path, error: (err as Error).message });
    }
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
        : { weight: NEIGHBOUR_WEIGHT, of: (slot: number) => this.catalog.neighbours(slot, NEIGHBOUR_REACH) };
    return this.lexicalIndex
      .search(lexemes, k, this.catalog.mask(filter), neighbours)
      .map((h) => ({ atomId: this.catalog.atomId(h.slot), score: h.score }));
  }
}
