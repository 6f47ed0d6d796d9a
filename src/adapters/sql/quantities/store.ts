/**
 * The QuantityStore over SQL (PostgreSQL and PGlite alike, through {@link Database}): range reads of
 * pm_atom_quantity for a filtered search, and the pages of `pegas-memory reindex quantities`, whose progress lives in
 * pm_entity_scan (a scan table by name, shared with the entity backfill). Every write is one transaction.
 */
import type { AtomFilter } from "../../../domain/atom.ts";
import type {
  AtomQuantities,
  ClaimText,
  QuantityRange,
  QuantityRow,
  QuantityStore,
} from "../../../ports/store/quantities.ts";
import type { Database } from "../database.ts";
import { guard } from "../errors.ts";
import { readsQuantities, writeQuantitiesTx } from "./write.ts";

const num = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));

/** A pm_atom_quantity row (joined to nothing) as the port's shape. */
function toRow(r: Record<string, unknown>): QuantityRow {
  return {
    atomId: Number(r.atom_id),
    low: Number(r.low),
    high: Number(r.high),
    dimension: String(r.dimension),
    canonicalUnit: String(r.canonical_unit),
    unit: String(r.unit),
    subject: String(r.subject),
    conditions: (r.conditions as string[] | null) ?? [],
    sigDigits: num(r.sig_digits),
    plusMinus: num(r.plus_minus),
    approximate: Boolean(r.approximate),
    quote: String(r.quote),
    start: Number(r.span_start),
    end: Number(r.span_end),
    ...(r.claim === undefined ? {} : { claim: String(r.claim) }),
  };
}

/** QuantityStore implementation over a {@link Database}. */
export class SqlQuantityStore implements QuantityStore {
  constructor(readonly db: Database) {}

  matching(range: QuantityRange, filter: AtomFilter, limit: number): Promise<QuantityRow[]> {
    const lo = range.low ?? null;
    const hi = range.high ?? null;
    return guard(this.db, `read measurements in ${range.canonicalUnit}`, async (sql) => {
      const rows = await sql`
        SELECT q.*, a.claim FROM pm_atom_quantity q JOIN pm_atom a ON a.id = q.atom_id
         WHERE q.canonical_unit = ${range.canonicalUnit} AND a.status <> 'retracted'
           AND (${lo}::float8 IS NULL OR (CASE WHEN ${range.lowOpen ?? false} THEN q.low > ${lo} ELSE q.low >= ${lo} END))
           AND (${hi}::float8 IS NULL OR (CASE WHEN ${range.highOpen ?? false} THEN q.high < ${hi} ELSE q.high <= ${hi} END))
           AND (${filter.types ?? null}::text[] IS NULL OR a.type = ANY(${filter.types ?? null}::text[]))
           AND (${filter.status ?? null}::text[] IS NULL OR a.status = ANY(${filter.status ?? null}::text[]))
           AND (${filter.docIds ?? null}::bigint[] IS NULL OR a.doc_id = ANY(${filter.docIds ?? null}::bigint[]))
         ORDER BY q.atom_id, q.span_start LIMIT ${limit}`;
      return rows.map(toRow);
    });
  }

  quantitiesOfAtoms(atomIds: number[]): Promise<QuantityRow[]> {
    if (!atomIds.length) return Promise.resolve([]);
    return guard(this.db, "read the measurements of atoms", async (sql) => {
      const rows = await sql`
        SELECT * FROM pm_atom_quantity WHERE atom_id = ANY(${atomIds}::bigint[]) ORDER BY atom_id, span_start`;
      return rows.map(toRow);
    });
  }

  claimsAfter(afterId: number, limit: number): Promise<ClaimText[]> {
    return guard(this.db, "read atoms to read measurements from", async (sql) => {
      const rows = await sql`
        SELECT id, type, claim, lang, metadata FROM pm_atom
         WHERE id > ${afterId} AND status <> 'retracted' ORDER BY id LIMIT ${limit}`;
      return rows.map((r) => ({
        id: Number(r.id),
        claim: String(r.claim),
        lang: String(r.lang),
        skip: !readsQuantities(String(r.type), (r.metadata ?? {}) as Record<string, unknown>),
      }));
    });
  }

  scanState(name: string): Promise<{ lastAtomId: number; finished: boolean }> {
    return guard(this.db, `read the progress of scan '${name}'`, async (sql) => {
      const [r] = await sql`SELECT last_atom_id, finished_at FROM pm_entity_scan WHERE name = ${name}`;
      return { lastAtomId: r ? Number(r.last_atom_id) : 0, finished: Boolean(r?.finished_at) };
    });
  }

  advanceScan(
    name: string,
    batch: AtomQuantities[],
    lastAtomId: number,
    atoms: number,
    done: boolean,
  ): Promise<number> {
    return guard(this.db, `write scan '${name}'`, (sql) =>
      sql.begin(async (tx) => {
        const added = await writeQuantitiesTx(tx, batch);
        await tx`
          INSERT INTO pm_entity_scan (name, last_atom_id, atoms_done, finished_at)
          VALUES (${name}, ${lastAtomId}, ${atoms}, ${done ? new Date() : null})
          ON CONFLICT (name) DO UPDATE SET last_atom_id = GREATEST(pm_entity_scan.last_atom_id, EXCLUDED.last_atom_id),
                 atoms_done = pm_entity_scan.atoms_done + EXCLUDED.atoms_done, finished_at = EXCLUDED.finished_at,
                 updated_at = now()`;
        return added;
      }),
    ) as Promise<number>;
  }

  resetScan(name: string): Promise<void> {
    return guard(this.db, `restart scan '${name}'`, async (sql) => {
      await sql`DELETE FROM pm_entity_scan WHERE name = ${name}`;
    });
  }
}
