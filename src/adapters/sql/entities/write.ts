/**
 * Writing mentions inside a caller's transaction (ingest, memory_store, the backfill): each mention's key resolves to
 * the entity holding that key, else to the one root entity holding it as an alias (a key several roots hold as an
 * alias is ambiguous: it gets an entity of its own, a candidate for a later merge, rather than a guess), else to a new
 * entity. Entities are created by the unique key with ON CONFLICT, so concurrent writers of one new name meet on one
 * row; mention rows are unique by span, so a replay adds nothing. Outbox rows `entity` and `entity_mention` feed the
 * external graph.
 */
import type { TransactionSql } from "postgres";
import { ENTITY_KINDS, type EntityMention } from "../../../domain/entities/types.ts";
import { invalidInput } from "../../../errors.ts";
import type { AtomMentions, MentionsWritten } from "../../../ports/entities.ts";
import { enqueueOutbox } from "../knowledge/table-writes.ts";
import { rootsOf } from "./rows.ts";

type Tx = TransactionSql<any>;

const BATCH = 1000;
const MAX_NAME = 512;
const KINDS: ReadonlySet<string> = new Set(ENTITY_KINDS);

/** @throws PegasError INVALID_INPUT naming the atom and the fault. */
function check(atomId: number, m: EntityMention): void {
  const where = `mention '${String(m.surface).slice(0, 40)}' of atom ${atomId}`;
  if (!KINDS.has(m.kind)) throw invalidInput(`${where}: unknown entity kind '${m.kind}'`, ENTITY_KINDS.join(", "));
  if (!Number.isInteger(m.start) || !Number.isInteger(m.end) || m.start < 0 || m.end <= m.start)
    throw invalidInput(`${where}: span [${m.start}, ${m.end}) is not a non-empty range of offsets`);
  if (!m.key?.trim() || !m.name?.trim() || !m.surface) throw invalidInput(`${where}: empty name, key or surface`);
  if (!(m.confidence > 0 && m.confidence <= 1))
    throw invalidInput(`${where}: confidence ${m.confidence} not in (0, 1]`);
}

/** The first, most confident (name, kind) seen for each key. */
function namesByKey(batch: AtomMentions[]): Map<string, EntityMention> {
  const out = new Map<string, EntityMention>();
  for (const b of batch)
    for (const m of b.mentions) {
      check(b.atomId, m);
      const seen = out.get(m.key);
      if (!seen || m.confidence > seen.confidence) out.set(m.key, m);
    }
  return out;
}

/** Keys that only one root holds as an alias, as key → the entity holding it. */
async function byAlias(tx: Tx, keys: string[]): Promise<Map<string, number>> {
  if (!keys.length) return new Map();
  const rows = await tx`SELECT id, alias_keys FROM pm_entity WHERE alias_keys && ${keys}::text[]`;
  const roots = await rootsOf(
    tx,
    rows.map((r) => Number(r.id)),
  );
  const holders = new Map<string, Map<number, number>>(); // key → root → holder
  const wanted = new Set(keys);
  for (const r of rows)
    for (const k of r.alias_keys as string[]) {
      if (!wanted.has(k)) continue;
      const m = holders.get(k) ?? new Map<number, number>();
      m.set(roots.get(Number(r.id)) ?? Number(r.id), Number(r.id));
      holders.set(k, m);
    }
  const out = new Map<string, number>();
  for (const [k, m] of holders) if (m.size === 1) out.set(k, [...m.values()][0]);
  return out;
}

/** Entity id for every key of `names`, creating the missing ones; returns the ids created too. */
async function resolveKeys(
  tx: Tx,
  names: Map<string, EntityMention>,
): Promise<{ ids: Map<string, number>; created: number[] }> {
  const keys = [...names.keys()];
  const ids = new Map<string, number>();
  const found = await tx`SELECT id, key FROM pm_entity WHERE key = ANY(${keys}::text[])`;
  for (const r of found) ids.set(String(r.key), Number(r.id));
  // A vaguer kind gives way to a definite one ("concept" is the extractor's fallback).
  const definite = keys.filter((k) => ids.has(k) && names.get(k)!.kind !== "concept");
  if (definite.length)
    await tx`UPDATE pm_entity e SET kind = x.kind, updated_at = now()
               FROM unnest(${definite}::text[], ${definite.map((k) => names.get(k)!.kind)}::text[]) AS x(key, kind)
              WHERE e.key = x.key AND e.kind = 'concept'`;
  for (const [k, id] of await byAlias(
    tx,
    keys.filter((k) => !ids.has(k)),
  ))
    ids.set(k, id);
  const missing = keys.filter((k) => !ids.has(k));
  const created: number[] = [];
  if (missing.length) {
    const m = missing.map((k) => names.get(k)!);
    const rows = await tx`
      INSERT INTO pm_entity (kind, name, key)
      SELECT * FROM unnest(${m.map((x) => x.kind)}::text[], ${m.map((x) => x.name)}::text[],
                           ${missing}::text[])
      ON CONFLICT (key) DO NOTHING RETURNING id, key`;
    for (const r of rows) {
      ids.set(String(r.key), Number(r.id));
      created.push(Number(r.id));
    }
    const raced = missing.filter((k) => !ids.has(k));
    if (raced.length)
      for (const r of await tx`SELECT id, key FROM pm_entity WHERE key = ANY(${raced}::text[])`)
        ids.set(String(r.key), Number(r.id));
  }
  return { ids, created };
}

/** The mention rows of `batch` (entity, atom, field, mention), {@link BATCH} at a time, made as they are written. */
function* mentionRows(
  batch: readonly AtomMentions[],
  ids: ReadonlyMap<string, number>,
): Generator<Array<{ e: number; a: number; f: string; m: EntityMention }>> {
  let part: Array<{ e: number; a: number; f: string; m: EntityMention }> = [];
  for (const b of batch)
    for (const m of b.mentions) {
      part.push({ e: ids.get(m.key)!, a: b.atomId, f: b.field, m });
      if (part.length === BATCH) {
        yield part;
        part = [];
      }
    }
  if (part.length) yield part;
}

/**
 * Resolves and writes the mentions of `batch` inside `tx` (see the module comment).
 * @throws PegasError INVALID_INPUT for a malformed mention; a foreign-key failure for an unknown atom (mapped by the caller).
 */
export async function writeMentionsTx(tx: Tx, given: AtomMentions[]): Promise<MentionsWritten> {
  // A copy only where a name is too long: an ingest of a 20 MB log passes 800,000 mentions, and copies of each
  // (and of each row below, made all at once) were most of its peak memory.
  const batch = given.map((b) =>
    b.mentions.every((m) => !(m.key?.length > MAX_NAME) && !(m.name?.length > MAX_NAME))
      ? b
      : {
          ...b,
          mentions: b.mentions.map((m) => ({ ...m, key: m.key?.slice(0, MAX_NAME), name: m.name?.slice(0, MAX_NAME) })),
        },
  );
  const names = namesByKey(batch);
  if (!names.size) return { entitiesCreated: 0, mentionsAdded: 0 };
  const { ids, created } = await resolveKeys(tx, names);
  const added: number[] = [];
  for (const p of mentionRows(batch, ids)) {
    const out = await tx`
      INSERT INTO pm_entity_mention (entity_id, atom_id, field, span_start, span_end, surface, confidence)
      SELECT * FROM unnest(${p.map((r) => r.e)}::bigint[], ${p.map((r) => r.a)}::bigint[], ${p.map((r) => r.f)}::text[],
                           ${p.map((r) => r.m.start)}::int[], ${p.map((r) => r.m.end)}::int[],
                           ${p.map((r) => r.m.surface)}::text[], ${p.map((r) => r.m.confidence)}::real[])
      ON CONFLICT (atom_id, field, span_start, span_end) DO NOTHING RETURNING id`;
    for (const r of out) added.push(Number(r.id));
  }
  await enqueueOutbox(tx, "entity", created, "upsert");
  await enqueueOutbox(tx, "entity_mention", added, "upsert");
  return { entitiesCreated: created.length, mentionsAdded: added.length };
}
