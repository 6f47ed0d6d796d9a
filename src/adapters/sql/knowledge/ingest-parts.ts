/**
 * A large document written in parts inside one transaction (IngestWrites.ingestInParts, core/documents/ingest-parts.ts):
 * the version is registered first, then each part's chunks and atoms are written as a one-transaction ingest writes
 * them (ingest-commit.ts), and the end stales what the new version no longer contains and queues the outbox rows.
 * Until the transaction commits nothing of it is visible to any other reader (MVCC; in PGlite every other statement
 * waits for it), and a failure or a kill rolls all of it back: no half-written document, nothing to clean up.
 */
import type { TransactionSql } from "postgres";
import type {
  ActiveDocument,
  DocumentInput,
  IngestPart,
  IngestPartWritten,
  IngestSession,
} from "../../../ports/store/ingest.ts";
import { writeAtomTimes } from "./atom-times.ts";
import { writePlannedAtoms } from "./atom-writes.ts";
import { commitOf, refreshIngestStatistics, reviveAtoms, staleOldAtoms, supersedeTx } from "./ingest-commit.ts";
import type { Database, SqlLike } from "../database.ts";
import { guard } from "../errors.ts";
import { signalOutbox } from "../outbox/signal.ts";
import { checkDiskSpace } from "../pglite/disk-space.ts";
import { analyzeMany, dedupCandidates, searchVectors } from "./knowledge.ts";
import { supersessionSubjectsOf } from "./supersession.ts";
import { enqueueOutbox, insertChunkRows, insertQuarantineRows, upsertDocumentRows } from "./table-writes.ts";

type Tx = TransactionSql<any>;

/** Hooks of the store around a session: the disk-space check before each part, the rows written (statistics). */
export interface SessionHooks {
  /** Called before a part is written with the part's text size in UTF-16 code units. @throws to refuse the part. */
  beforePart(bytes: number): void;
  /** Rows written by a part (for the statistics refresh after the commit). */
  rowsWritten(rows: number): void;
}

/** The text a part writes, in UTF-16 code units (as ingest-commit.ts planBytes). */
function partBytes(part: IngestPart): number {
  let n = 0;
  for (const c of part.chunks) n += c.text.length;
  for (const a of part.atoms) n += a.atom.claim.length + a.atom.content.length + a.atom.vector.length * 4;
  return n;
}

/** An {@link IngestSession} over the open transaction `tx`. */
export function ingestSessionTx(tx: Tx, hooks: SessionHooks): IngestSession {
  let doc: { id: number; version: number } | null = null;
  const changed: number[] = [];
  return {
    reads: {
      searchVectors: (texts) => searchVectors(tx, texts),
      analyzeMany: (texts) => analyzeMany(tx, texts),
      dedupCandidates: (ids, model) => dedupCandidates(tx, ids, model),
      supersessionSubjects: (ids) => supersessionSubjectsOf(tx, ids),
    },
    async begin(document: DocumentInput) {
      const stored = (await upsertDocumentRows(tx, [document])).get(document.uri);
      if (!stored) {
        const [row] = await tx`SELECT id, version FROM pm_document WHERE uri = ${document.uri}`;
        return { docId: Number(row.id), version: Number(row.version), unchanged: true };
      }
      doc = stored;
      return { docId: stored.id, version: stored.version, unchanged: false };
    },
    async writePart(part: IngestPart, model: string): Promise<IngestPartWritten> {
      if (!doc) throw new Error("IngestSession.writePart before begin");
      const d = doc;
      hooks.beforePart(partBytes(part));
      const chunkIds = await insertChunkRows(
        tx,
        part.chunks.map((c) => ({ ...c, docId: d.id, docVersion: d.version })),
      );
      const ctx = { docId: d.id, docVersion: d.version, chunkIds: chunkIds.get(d.id) ?? new Map(), model };
      const w = await writePlannedAtoms(tx, part.atoms, ctx);
      await writeAtomTimes(tx, part.atoms, w.ownIds);
      // As one transaction does: the stale atoms this version contains again are revived before any supersession.
      const revived = await reviveAtoms(tx, [...new Set(w.atomIds)]);
      changed.push(...revived);
      const [superseded] = await supersedeTx(tx, [part], w.atomIds);
      const quarantined = await insertQuarantineRows(tx, d.id, d.version, part.quarantine ?? [], ctx.chunkIds);
      hooks.rowsWritten(part.chunks.length + part.atoms.length * 3 + w.linksAdded);
      const extra = { staled: 0, revived: revived.length, quarantined, superseded: superseded.length };
      return { ...commitOf(w, 0, part.atoms.length, d, extra), heldBy: w.atomIds };
    },
    async finish() {
      if (!doc) throw new Error("IngestSession.finish before begin");
      const staled = await staleOldAtoms(tx, doc.id, doc.version);
      changed.push(...staled);
      await enqueueOutbox(tx, "document", [doc.id], "upsert");
      await enqueueOutbox(tx, "atom", changed, "upsert");
      return { atomsStaled: staled.length, atomsRevived: changed.length - staled.length };
    },
  };
}

/**
 * IngestWrites.ingestInParts over `db`: `fn` runs inside one transaction with an {@link IngestSession} on it; the disk
 * space is checked before each part; the outbox workers are woken and the statistics refreshed after the commit. Run
 * again from the start when the embedded host changed (the broken transaction was rolled back whole).
 * @throws PegasError STORE_UNAVAILABLE (a full disk too), or `fn`'s error.
 */
export async function runIngestInParts<T>(db: Database, fn: (session: IngestSession) => Promise<T>): Promise<T> {
  let rows = 0;
  const hooks: SessionHooks = {
    beforePart: (bytes) => checkDiskSpace(db, bytes, "store a part of a document"),
    rowsWritten: (n) => {
      rows += n;
    },
  };
  checkDiskSpace(db, 0, "store a document in parts");
  const out = await guard(db, "store a document in parts", (sql) => {
    rows = 0;
    return sql.begin((t) => fn(ingestSessionTx(t, hooks))) as Promise<T>;
  });
  signalOutbox();
  await guard(db, "refresh table statistics", (sql) => refreshIngestStatistics(sql, rows));
  return out;
}

/** The active document at `uri` (IngestWrites.documentByUri), or null. */
export async function activeDocument(sql: SqlLike, uri: string): Promise<ActiveDocument | null> {
  const rows =
    await sql`SELECT id, version, title, content_hash FROM pm_document WHERE uri = ${uri} AND status = 'active'`;
  if (!rows.length) return null;
  const r = rows[0];
  return {
    id: Number(r.id),
    version: Number(r.version),
    title: (r.title as string | null) ?? null,
    contentHash: (r.content_hash as string | null) ?? null,
  };
}
