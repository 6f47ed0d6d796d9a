/**
 * ChangeFeed port: atoms and embeddings in the order their transactions committed, which the in-process indexes
 * follow (src/adapters/embedded) and readiness probes. Read-only. Errors are PegasError (STORE_UNAVAILABLE,
 * MIGRATION_REQUIRED), never a driver error.
 */
import type { AtomStatus, AtomType } from "../../domain/atom.ts";
import type { LexemeTf } from "../../domain/tsvector.ts";
import type { EmbeddingRow } from "./embeddings.ts";

/** Position in the change feed: the transaction id (xid8 as decimal text) and row id of the last row read. */
export interface ChangeCursor {
  xid: string;
  id: number;
}

/** What the in-process indexes need of one atom; `xid` is the transaction that last changed it. */
export interface AtomIndexRow {
  id: number;
  xid: string;
  type: AtomType;
  status: AtomStatus;
  docId: number | null;
  /**
   * True for a note: an atom with no document, or whose document is only referenced (a source named by
   * memory_store, never ingested), as opposed to an atom distilled from an ingested document. Absent: false.
   */
  note?: boolean;
  /** Lexemes with term frequencies: the atom's own, and its document's title for an atom of an ingested document. */
  lexemes: LexemeTf[];
}

/** The change feed of atoms and embeddings. */
export interface ChangeFeed {
  /**
   * The current high-water mark: the snapshot's xmin (an xid8 as decimal text). Every transaction below it has
   * finished, so any change not yet read carries a transaction id ≥ it ("0" reads everything).
   */
  changeMark(): Promise<string>;
  /**
   * What a saved position in this feed is only valid against: the cluster's system identifier, the database and the
   * schema version (e.g. "7351…:pegas:17"). A snapshot of the indexes taken under another identity is rebuilt.
   */
  feedIdentity(): Promise<string>;
  /** At most `limit` atoms after `cursor` in (change xid, id) order; start with `{ xid: mark, id: 0 }`. */
  atomChanges(cursor: ChangeCursor, limit: number): Promise<AtomIndexRow[]>;
  /** At most `limit` embeddings of `model` after `cursor` in (change xid, atom id) order. */
  embeddingChanges(cursor: ChangeCursor, model: string, limit: number): Promise<EmbeddingRow[]>;
}
