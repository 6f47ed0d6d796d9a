/**
 * The EntityStore over SQL (PostgreSQL and PGlite alike, through {@link Database}): entities, mentions and merges of
 * migration 0015, and the progress of the entity backfill. Every write is one transaction; driver errors become
 * PegasError (an unknown atom in a mention is NOT_FOUND through the foreign key).
 */
import type { TransactionSql } from "postgres";
import type {
  AtomMentions,
  AtomText,
  EntityCounts,
  EntityListFilter,
  EntityListRow,
  EntityMergeRecord,
  EntityMergeRequest,
  EntityRow,
  EntityScan,
  EntityStore,
  MentionRow,
  MentionsWritten,
} from "../../../ports/entities.ts";
import { invalidInput, PegasError } from "../../../errors.ts";
import type { Database } from "../database.ts";
import { guard } from "../errors.ts";
import { signalOutbox } from "../outbox/signal.ts";
import type { MergeEvidence } from "../../../domain/entities/resolve.ts";
import type { EntityKind, EntityMention } from "../../../domain/entities/types.ts";
import { listEntities } from "./list.ts";
import { mergeEntitiesTx, undoEntityMergeTx } from "./merge.ts";
import { applyAliasMergesTx } from "./resolve.ts";
import * as reads from "./reads.ts";
import { rootsOf, toEntity } from "./rows.ts";
import { enqueueOutbox } from "../knowledge/table-writes.ts";
import { writeMentionsTx } from "./write.ts";

const iso = (v: unknown): string | null => (v === null || v === undefined ? null : new Date(v as string).toISOString());

/** EntityStore implementation over a {@link Database}. */
export class SqlEntityStore implements EntityStore {
  constructor(readonly db: Database) {}

  private async write<T>(what: string, fn: (tx: TransactionSql<any>) => Promise<T>): Promise<T> {
    const out = (await guard(this.db, what, (sql) => sql.begin(fn))) as T;
    signalOutbox();
    return out;
  }

  writeMentions(batch: AtomMentions[]): Promise<MentionsWritten> {
    return this.write("write entity mentions", (tx) => writeMentionsTx(tx, batch));
  }

  entitiesByIds(ids: number[]): Promise<EntityRow[]> {
    return guard(this.db, "read entities", (sql) => reads.entitiesByIds(sql, ids));
  }

  listEntities(f: EntityListFilter, offset: number, limit: number): Promise<{ rows: EntityListRow[]; total: number }> {
    return guard(this.db, "list entities", (sql) => listEntities(sql, f, offset, limit));
  }

  entitiesByKeys(keys: string[]): Promise<EntityRow[]> {
    return guard(this.db, "look up entities by name", (sql) => reads.entitiesByKeys(sql, keys));
  }

  async rootOf(entityId: number): Promise<number> {
    const root = await guard(this.db, "resolve an entity", async (sql) =>
      (await rootsOf(sql, [entityId])).get(entityId),
    );
    if (root === undefined) throw unknownEntity(entityId);
    return root;
  }

  async mentionsOfEntity(entityId: number, opts: { limit?: number; afterId?: number } = {}): Promise<MentionRow[]> {
    return guard(this.db, `read the mentions of entity ${entityId}`, async (sql) => {
      if (!(await reads.entitiesByIds(sql, [entityId])).length) throw unknownEntity(entityId);
      return reads.mentionsOfEntity(sql, entityId, opts.limit ?? 100, opts.afterId ?? 0);
    });
  }

  mentionsOfAtoms(atomIds: number[]): Promise<MentionRow[]> {
    return guard(this.db, "read the mentions of atoms", (sql) => reads.mentionsOfAtoms(sql, atomIds));
  }

  addAlias(entityId: number, name: string, key: string): Promise<EntityRow> {
    if (!name?.trim() || !key?.trim()) throw invalidInput("an alias needs a name and a key");
    return this.write(`add an alias to entity ${entityId}`, async (tx) => {
      const [row] = await tx`
        UPDATE pm_entity SET aliases = aliases || ${name.trim().slice(0, 512)}::text,
               alias_keys = alias_keys || ${key.trim().slice(0, 512)}::text, updated_at = now()
         WHERE id = ${entityId} AND NOT (${key.trim().slice(0, 512)}::text = ANY(alias_keys)) RETURNING *`;
      const out = row ?? (await tx`SELECT * FROM pm_entity WHERE id = ${entityId}`)[0];
      if (!out) throw unknownEntity(entityId);
      if (row) await enqueueOutbox(tx, "entity", [entityId], "upsert");
      return toEntity(out);
    });
  }

  mergeEntities(req: EntityMergeRequest): Promise<EntityMergeRecord> {
    return this.write(`merge entity ${req.fromEntityId} into ${req.intoEntityId}`, (tx) => mergeEntitiesTx(tx, req));
  }

  undoEntityMerge(mergeId: number): Promise<EntityMergeRecord> {
    return this.write(`undo entity merge #${mergeId}`, (tx) => undoEntityMergeTx(tx, mergeId));
  }

  entityMerges(entityId?: number): Promise<EntityMergeRecord[]> {
    return guard(this.db, "read entity merges", (sql) => reads.entityMerges(sql, entityId));
  }

  entityCounts(): Promise<EntityCounts> {
    return guard(this.db, "count entities", (sql) => reads.entityCounts(sql));
  }

  atomsAfter(afterId: number, limit: number): Promise<AtomText[]> {
    return guard(this.db, "read atoms to extract entities from", (sql) => reads.atomsAfter(sql, afterId, limit));
  }

  scanState(name: string): Promise<EntityScan> {
    return guard(this.db, `read the progress of scan '${name}'`, async (sql) => {
      const [r] = await sql`SELECT * FROM pm_entity_scan WHERE name = ${name}`;
      return r
        ? { name, lastAtomId: Number(r.last_atom_id), atomsDone: Number(r.atoms_done), finishedAt: iso(r.finished_at) }
        : { name, lastAtomId: 0, atomsDone: 0, finishedAt: null };
    });
  }

  advanceScan(
    name: string,
    batch: AtomMentions[],
    lastAtomId: number,
    atoms: number,
    finished: boolean,
  ): Promise<MentionsWritten> {
    return this.write(`write scan '${name}'`, async (tx) => {
      const out = await writeMentionsTx(tx, batch);
      await tx`
        INSERT INTO pm_entity_scan (name, last_atom_id, atoms_done, finished_at)
        VALUES (${name}, ${lastAtomId}, ${atoms}, ${finished ? new Date() : null})
        ON CONFLICT (name) DO UPDATE SET last_atom_id = GREATEST(pm_entity_scan.last_atom_id, EXCLUDED.last_atom_id),
               atoms_done = pm_entity_scan.atoms_done + EXCLUDED.atoms_done, finished_at = EXCLUDED.finished_at,
               updated_at = now()`;
      return out;
    });
  }

  corpusMentions(): Promise<Array<{ docId: string; mentions: EntityMention[] }>> {
    return guard(this.db, "read the mentions of every atom", async (sql) => {
      const rows = await sql`
        SELECT COALESCE('doc:' || a.doc_id, 'atom:' || a.id) AS doc, m.span_start, m.span_end, m.surface, m.confidence,
               e.key, e.name, e.kind
          FROM pm_entity_mention m JOIN pm_entity e ON e.id = m.entity_id JOIN pm_atom a ON a.id = m.atom_id
         WHERE a.status <> 'retracted' ORDER BY 1, m.id`;
      const docs = new Map<string, EntityMention[]>();
      for (const r of rows) {
        const list = docs.get(String(r.doc)) ?? [];
        list.push({
          start: Number(r.span_start),
          end: Number(r.span_end),
          surface: String(r.surface),
          name: String(r.name),
          key: String(r.key),
          kind: r.kind as EntityKind,
          confidence: Number(r.confidence),
        });
        docs.set(String(r.doc), list);
      }
      return [...docs].map(([docId, mentions]) => ({ docId, mentions }));
    });
  }

  applyAliasMerges(merges: readonly MergeEvidence[], actor = "resolver"): Promise<number> {
    return this.write("apply alias merges", (tx) => applyAliasMergesTx(tx, merges, actor));
  }

  resetScan(name: string): Promise<void> {
    return guard(this.db, `restart scan '${name}'`, async (sql) => {
      await sql`DELETE FROM pm_entity_scan WHERE name = ${name}`;
    });
  }
}

function unknownEntity(id: number): PegasError {
  return new PegasError("NOT_FOUND", `no entity ${id}`, { hint: "find entities by name with memory_get" });
}
