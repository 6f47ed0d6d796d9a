/**
 * Outbox port: the queue of canonical changes that feeds the external projections (pattern: transactional outbox,
 * microservices.io). Rows are claimed with a lease (`FOR UPDATE SKIP LOCKED`), so workers on one database never
 * hold the same row; a row is acked after every sink applied it, or failed with exponential backoff and jitter,
 * and dead-lettered after `maxAttempts`. Errors are PegasError STORE_UNAVAILABLE.
 */
import type { ProjectionChange, ProjectionSink } from "./projection-sink.ts";

/** Entity types written to `pm_outbox.entity_type`. */
export type OutboxEntity =
  | "atom"
  | "document"
  | "atom_link"
  | "atom_symbol_link"
  | "code_symbol"
  | "code_dependency"
  | "entity"
  | "entity_mention";

/** An external projection as a reader of the outbox: its name (`qdrant`, `memgraph`) and the entity types it reads. */
export interface OutboxReader {
  name: string;
  entityTypes: readonly OutboxEntity[];
}

/** The outbox entity types behind each projected entity kind. */
const TYPES_OF: Readonly<Record<ProjectionChange["entity"], readonly OutboxEntity[]>> = {
  atom: ["atom"],
  document: ["document"],
  symbol: ["code_symbol"],
  entity: ["entity"],
  edge: ["atom_link", "atom_symbol_link", "code_dependency", "entity_mention"],
};

/** A sink as an outbox reader: its name and the outbox entity types of the entities it projects. */
export function readerOf(sink: Pick<ProjectionSink, "name" | "entities">): OutboxReader {
  return { name: sink.name, entityTypes: [...sink.entities].flatMap((e) => TYPES_OF[e]) };
}

/** What registering readers found: readers new to the store (or back after they lapsed), and whether it holds atoms. */
export interface ReadersRegistered {
  added: string[];
  storeHasAtoms: boolean;
}

/** A claimed outbox row. `attempts` counts this claim; `createdAt` is ms since epoch. */
export interface OutboxRow {
  id: number;
  entityType: OutboxEntity;
  entityId: string;
  op: "upsert" | "delete";
  attempts: number;
  createdAt: number;
}

/** Backoff policy: delay = min(maxMs, baseMs·2^(attempts−1)) scaled by a random factor in [0.5, 1] ("equal jitter"). */
export interface RetryPolicy {
  maxAttempts: number;
  baseMs: number;
  maxMs: number;
}

/** Backlog figures for stats: pending rows, dead letters, age of the oldest pending row (s, null when none). */
export interface OutboxBacklog {
  pending: number;
  dead: number;
  oldestPendingAgeS: number | null;
}

/** A page of the canonical state for rebuilds; `next` is the cursor of the next page (null at the end). */
export interface SnapshotPage {
  changes: ProjectionChange[];
  next: string | null;
}

/** The outbox of the canonical store. */
export interface OutboxStore {
  /**
   * Claims up to `limit` due rows (pending, not dead, `available_at` ≤ now) in id order, leasing them for `leaseMs`
   * under `token`: another worker sees them again only when the lease ends without an ack (a crashed worker).
   */
  claim(limit: number, leaseMs: number, token: string): Promise<OutboxRow[]>;
  /** Marks rows processed (only rows still leased by `token`); returns how many. */
  ack(ids: number[], token: string): Promise<number>;
  /** Records a failure: each row becomes due again after the policy's backoff, or dead at `maxAttempts`. */
  fail(ids: number[], token: string, error: string, policy: RetryPolicy): Promise<{ retried: number; dead: number }>;
  /** Makes dead rows pending again with a fresh attempt count (all, or those of one entity type); returns how many. */
  retryDead(entityType?: OutboxEntity): Promise<number>;
  /** Current canonical state of the rows' entities, deduplicated, for a sink of vector model `model`. */
  resolve(rows: OutboxRow[], model: string): Promise<ProjectionChange[]>;
  /** One page of every projectable entity of a kind, for rebuilds (`cursor` null = start). */
  snapshot(
    entity: ProjectionChange["entity"],
    cursor: string | null,
    limit: number,
    model: string,
  ): Promise<SnapshotPage>;
  /** Canonical counts per projectable entity (atoms not retracted; `atom_vectors`: those with a vector of `model`). */
  canonicalCounts(model: string): Promise<Record<ProjectionChange["entity"] | "atom_vectors", number>>;
  /** Pending rows, dead letters and lag. */
  backlog(): Promise<OutboxBacklog>;
  /**
   * Deletes up to `limit` rows, oldest ids first: first rows of an entity type no registered reader reads (whatever
   * their state: nobody will ever apply them), then rows processed more than `olderThanS` seconds ago (retention: a
   * processed row has done its work; pending and dead rows a reader reads are never deleted); returns how many went.
   */
  prune(olderThanS: number, limit: number): Promise<number>;
  /**
   * Registers `readers` (upsert by name; `seen_at` now): from then on every writer queues the entity types they read,
   * and only those. This store refreshes them on each {@link OutboxStore.expireReaders}.
   */
  registerReaders(readers: readonly OutboxReader[]): Promise<ReadersRegistered>;
  /**
   * Refreshes the readers this store registered, then drops the other readers not seen for `ttlS` seconds (a
   * projection no process has configured any more); returns the names dropped. Their rows go at the next prune.
   */
  expireReaders(ttlS: number): Promise<string[]>;
  /**
   * Resolves when new rows may be due (LISTEN/NOTIFY on PostgreSQL, an in-process signal on PGlite) or after
   * `timeoutMs` (the polling fallback), or when `signal` aborts.
   */
  waitForWork(timeoutMs: number, signal?: AbortSignal): Promise<void>;
  /** Stops listening. */
  close(): Promise<void>;
}
