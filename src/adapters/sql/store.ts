/**
 * The CanonicalStore over SQL, the same for PostgreSQL and embedded PGlite (both reached through postgres.js, see
 * {@link Database}). Every method maps driver errors to PegasError and retries through `Database.run` when the
 * embedded host changed.
 */
import type { AtomFilter } from "../../domain/atom.ts";
import type { LexemeTf } from "../../domain/tsvector.ts";
import type { AtomIndexRow, ChangeCursor } from "../../ports/store/change-feed.ts";
import type { AtomLinks, AtomView } from "../../ports/store/atom-reads.ts";
import type {
  ForgetOutcome,
  ForgetRequest,
  LinkApplied,
  LinkRequest,
  UnlinkApplied,
  UnlinkRequest,
} from "../../ports/store/curation.ts";
import type { CanonicalStore } from "../../ports/canonical-store.ts";
import type { DedupCandidate, MergeRecord, StoreAtomInput, StoreAtomResult } from "../../ports/store/atom-writes.ts";
import type { EmbeddingRow } from "../../ports/store/embeddings.ts";
import type { ActiveDocument, IngestCommit, IngestPlan, IngestSession } from "../../ports/store/ingest.ts";
import type { QuarantineResolution, QuarantinedChunk } from "../../ports/store/ingest.ts";
import { activeDocument, runIngestInParts } from "./knowledge/ingest-parts.ts";
import type { MigrationStatus, StoreStats } from "../../ports/store/maintenance.ts";
import type { Database } from "./database.ts";
import { guard } from "./errors.ts";
import { enqueueOutbox, insertEmbeddings } from "./knowledge/table-writes.ts";
import * as ingestCommit from "./knowledge/ingest-commit.ts";
import { checkDiskSpace } from "./pglite/disk-space.ts";
import { signalOutbox } from "./outbox/signal.ts";
import {
  analyzeMany,
  searchVectors,
  dedupCandidates,
  embeddingsOf,
  failQuarantine,
  openQuarantine,
  resolveQuarantine,
  undoMerge,
} from "./knowledge/knowledge.ts";
import { MIGRATIONS, applyMigrations, appliedVersions } from "./migrations.ts";
import { atomLinks } from "./knowledge/atom-detail.ts";
import { forgetTarget, forgetTx } from "./knowledge/forget-entity.ts";
import { linkTx } from "./knowledge/link.ts";
import { unlinkTx } from "./knowledge/unlink.ts";
import {
  analyze,
  atomChanges,
  atomsByIds,
  changeMark,
  feedIdentity,
  embeddingChanges,
  trigramSearch,
} from "./knowledge/read-queries.ts";
import { readStats } from "./stats.ts";
import { storeAtomTx } from "./knowledge/store-atom.ts";
import { atomTimes } from "./knowledge/atom-times.ts";
import type { AtomTime } from "../../domain/time/atom-time.ts";
import type { TraceInput, TraceQuery, TraceRow, TraceStored } from "../../ports/store/traces.ts";
import { insertTrace, searchTraces } from "./traces.ts";
import type {
  RevertApplied,
  StatusChangeRecord,
  VerificationApplied,
  VerificationSelection,
  VerificationTargets,
  VerificationWrite,
  VerifySubject,
} from "../../ports/store/verification.ts";
import {
  applyVerificationTx,
  revertStatusChangeTx,
  statusHistory,
  verificationSubjects,
  verificationTargets,
} from "./verify.ts";

/** CanonicalStore implementation over a {@link Database}. */
export class SqlCanonicalStore implements CanonicalStore {
  constructor(readonly db: Database) {}

  /** A write that may add outbox rows: once it committed, this process's outbox workers are woken (PGlite has no NOTIFY). */
  private async write<T>(what: string, fn: (sql: Database["sql"]) => Promise<T>): Promise<T> {
    checkDiskSpace(this.db, 0, what); // the WAL's reserve, before any write
    const out = await guard(this.db, what, fn);
    signalOutbox();
    return out;
  }

  migrate(): Promise<number[]> {
    return guard(this.db, "apply migrations", (sql) => applyMigrations(sql));
  }

  migrationStatus(): Promise<MigrationStatus> {
    return guard(this.db, "read the schema version", async (sql) => {
      const applied = await appliedVersions(sql);
      return {
        applied: [...applied.keys()].sort((a, b) => a - b),
        pending: MIGRATIONS.map((m) => m.version).filter((v) => !applied.has(v)),
      };
    });
  }

  documentByUri(uri: string): Promise<ActiveDocument | null> {
    return guard(this.db, "look up a document", (sql) => activeDocument(sql, uri));
  }

  async commitIngest(plan: IngestPlan): Promise<IngestCommit> {
    return (await this.commitIngestBatch([plan]))![0]; // one plan: an unchanged document is a commit, never null
  }

  ingestInParts<T>(fn: (session: IngestSession) => Promise<T>): Promise<T> {
    return runIngestInParts(this.db, fn);
  }

  async commitIngestBatch(plans: IngestPlan[]): Promise<IngestCommit[] | null> {
    const what = plans.length === 1 ? `store document '${plans[0].document.uri}'` : `store ${plans.length} documents`;
    const bytes = plans.reduce((n, p) => n + ingestCommit.planBytes(p), 0);
    checkDiskSpace(this.db, bytes, what);
    const tx = (sql: Database["sql"]) =>
      sql.begin((t) => ingestCommit.commitIngestBatchTx(t, plans)) as Promise<IngestCommit[]>;
    const out = await this.write(what, tx).catch((err) => ingestCommit.unlessUnchanged(err));
    if (!out) return null;
    const rows = plans.reduce((n, p, i) => n + ingestCommit.rowsOf(p, out[i]), 0);
    await guard(this.db, "refresh table statistics", (sql) => ingestCommit.refreshIngestStatistics(sql, rows));
    return out;
  }

  storeAtom(input: StoreAtomInput): Promise<StoreAtomResult> {
    return this.write("store an atom", (sql) => sql.begin((tx) => storeAtomTx(tx, input)) as Promise<StoreAtomResult>);
  }

  analyze(text: string): Promise<LexemeTf[]> {
    return guard(this.db, "analyze a query", (sql) => analyze(sql, text));
  }

  changeMark(): Promise<string> {
    return guard(this.db, "read the change mark", (sql) => changeMark(sql));
  }

  feedIdentity(): Promise<string> {
    return guard(this.db, "read the change feed's identity", (sql) => feedIdentity(sql));
  }

  atomChanges(cursor: ChangeCursor, limit: number): Promise<AtomIndexRow[]> {
    return guard(this.db, "read changed atoms", (sql) => atomChanges(sql, cursor, limit));
  }

  embeddingChanges(cursor: ChangeCursor, model: string, limit: number): Promise<EmbeddingRow[]> {
    return guard(this.db, "read changed embeddings", (sql) => embeddingChanges(sql, cursor, model, limit));
  }

  trigramSearch(query: string, k: number, filter: AtomFilter): Promise<Array<{ atomId: number; score: number }>> {
    return guard(this.db, "run the trigram fallback", (sql) => trigramSearch(sql, query, k, filter));
  }

  atomTimes(atomIds: number[]): Promise<Map<number, AtomTime>> {
    return guard(this.db, "read atom times", (sql) => atomTimes(sql, atomIds));
  }

  atomsByIds(ids: number[], maxCitations: number): Promise<AtomView[]> {
    return guard(this.db, "read atoms", (sql) => atomsByIds(sql, ids, maxCitations));
  }

  link(req: LinkRequest): Promise<LinkApplied> {
    return this.write(
      `link ${req.src.kind}:${req.src.id} -${req.kind}-> ${req.dst.kind}:${req.dst.id}`,
      (sql) => sql.begin((tx) => linkTx(tx, req)) as Promise<LinkApplied>,
    );
  }

  unlink(req: UnlinkRequest): Promise<UnlinkApplied> {
    return this.write(
      `remove the link ${req.src.kind}:${req.src.id} -${req.kind}-> ${req.dst.kind}:${req.dst.id}`,
      (sql) => sql.begin((tx) => unlinkTx(tx, req)) as Promise<UnlinkApplied>,
    );
  }

  forget(req: ForgetRequest): Promise<ForgetOutcome> {
    return this.write(
      `${req.undo ? "undo the forgetting of" : "forget"} ${forgetTarget(req)}`,
      (sql) => sql.begin((tx) => forgetTx(tx, req)) as Promise<ForgetOutcome>,
    );
  }

  atomLinks(atomId: number, limit: number, offset = 0): Promise<AtomLinks> {
    return guard(this.db, "read an atom's links", (sql) => atomLinks(sql, atomId, limit, offset));
  }

  stats(): Promise<StoreStats> {
    return guard(this.db, "read statistics", (sql) => readStats(sql));
  }

  atomsWithoutEmbedding(
    model: string,
    limit: number,
    afterId: number,
  ): Promise<Array<{ id: number; claim: string; content: string }>> {
    return guard(this.db, "find atoms without embeddings", async (sql) => {
      const rows = await sql`
        SELECT a.id, a.claim, a.content FROM pm_atom a
         WHERE a.id > ${afterId} AND a.status <> 'retracted'
           AND NOT EXISTS (SELECT 1 FROM pm_atom_embedding e WHERE e.atom_id = a.id AND e.model = ${model})
         ORDER BY a.id LIMIT ${limit}`;
      return rows.map((r) => ({ id: Number(r.id), claim: String(r.claim), content: String(r.content) }));
    });
  }

  putEmbeddings(rows: EmbeddingRow[], model: string): Promise<void> {
    return this.write(
      "store embeddings",
      (sql) =>
        sql.begin(async (tx) => {
          const added = await insertEmbeddings(tx, rows, model);
          // Qdrant projects an atom with its vector: a vector added after the atom is a change of that atom.
          await enqueueOutbox(tx, "atom", added, "upsert");
        }) as Promise<void>,
    );
  }

  // Knowledge: dedup candidates, merges, distillation quarantine (issue 4)
  analyzeMany(texts: string[]): Promise<LexemeTf[][]> {
    return guard(this.db, "analyze texts", (sql) => analyzeMany(sql, texts));
  }

  searchVectors(texts: string[]): Promise<string[]> {
    return guard(this.db, "analyze texts", (sql) => searchVectors(sql, texts));
  }

  embeddingsOf(atomIds: number[], model: string): Promise<Map<number, Float32Array>> {
    return guard(this.db, "read embeddings", (sql) => embeddingsOf(sql, atomIds, model));
  }

  dedupCandidates(atomIds: number[], model: string): Promise<DedupCandidate[]> {
    return guard(this.db, "read dedup candidates", (sql) => dedupCandidates(sql, atomIds, model));
  }

  undoMerge(mergeId: number): Promise<MergeRecord> {
    return this.write(`undo merge #${mergeId}`, (sql) => undoMerge(sql, mergeId));
  }

  openQuarantine(limit: number, docId?: number): Promise<QuarantinedChunk[]> {
    return guard(this.db, "read the distillation quarantine", (sql) => openQuarantine(sql, limit, docId));
  }

  resolveQuarantine(res: QuarantineResolution): Promise<IngestCommit> {
    return this.write(`store the retried chunk of quarantine entry #${res.quarantineId}`, (sql) =>
      resolveQuarantine(sql, res),
    );
  }

  failQuarantine(id: number, reason: string, detail: string): Promise<void> {
    return guard(this.db, `record a failed retry of quarantine entry #${id}`, (sql) =>
      failQuarantine(sql, id, reason, detail),
    );
  }

  // Episodic traces (issue 4)
  addTrace(input: TraceInput): Promise<TraceStored> {
    return guard(this.db, `store a ${input.kind} trace`, (sql) => insertTrace(sql, input));
  }

  searchTraces(q: TraceQuery): Promise<TraceRow[]> {
    return guard(this.db, "search traces", (sql) => searchTraces(sql, q));
  }

  // Verification (issue 4)
  verificationTargets(sel: VerificationSelection): Promise<VerificationTargets> {
    return guard(this.db, "choose atoms to verify", (sql) => verificationTargets(sql, sel));
  }

  verificationSubjects(ids: number[]): Promise<VerifySubject[]> {
    return guard(this.db, "read atoms to verify", (sql) => verificationSubjects(sql, ids));
  }

  applyVerification(write: VerificationWrite): Promise<VerificationApplied> {
    return this.write(
      "record verification results",
      (sql) => sql.begin((tx) => applyVerificationTx(tx, write)) as Promise<VerificationApplied>,
    );
  }

  revertStatusChange(changeId: number): Promise<RevertApplied> {
    return this.write(
      `revert status change #${changeId}`,
      (sql) => sql.begin((tx) => revertStatusChangeTx(tx, changeId)) as Promise<RevertApplied>,
    );
  }

  statusHistory(atomId: number, limit: number): Promise<StatusChangeRecord[]> {
    return guard(this.db, `read the status history of atom ${atomId}`, (sql) => statusHistory(sql, atomId, limit));
  }
}
