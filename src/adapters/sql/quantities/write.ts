/**
 * Writing measurements beside atoms (pm_atom_quantity, migration 0019), inside the caller's transaction: one
 * multi-row insert per batch, idempotent by (atom, span), so a replayed write or a repeated backfill adds nothing.
 * {@link writeNewAtomQuantities} is the atom write path's call (atom-writes.ts): the measurements of every atom the
 * write created, read from its claim (domain/quantity/atom-quantities.ts); a chunk's passage is not read (its
 * sentences are atoms of their own), nor code, tables and rules.
 */
import type { TransactionSql } from "postgres";
import { claimQuantities } from "../../../domain/quantity/atom-quantities.ts";
import type { AtomQuantities } from "../../../ports/store/quantities.ts";

type Tx = TransactionSql<any>;

/** Atom types whose claims are read for measurements. */
const READ_TYPES: ReadonlySet<string> = new Set(["fact", "text", "definition"]);

/** Whether an atom's claim is read for measurements: a fact, text or definition that is no chunk passage. */
export function readsQuantities(type: string, metadata: Record<string, unknown> | undefined): boolean {
  return READ_TYPES.has(type) && metadata?.passage !== true;
}

/** Inserts the measurements of `batch` (skipping spans already stored); returns how many rows were added. */
export async function writeQuantitiesTx(tx: Tx, batch: AtomQuantities[]): Promise<number> {
  const rows = batch.flatMap((b) => b.quantities.map((q) => ({ atomId: b.atomId, q })));
  if (!rows.length) return 0;
  const col = <T>(f: (r: (typeof rows)[number]) => T) => rows.map(f);
  const lo = col(({ q }) => Math.min(q.canonicalLow, q.canonicalHigh));
  const hi = col(({ q }) => Math.max(q.canonicalLow, q.canonicalHigh));
  const inserted = await tx`
    INSERT INTO pm_atom_quantity (atom_id, low, high, dimension, canonical_unit, unit, subject, conditions, sig_digits,
                                  plus_minus, approximate, quote, span_start, span_end)
    SELECT a, l, h, d, cu, u, s, COALESCE(ARRAY(SELECT jsonb_array_elements_text(c::jsonb)), '{}'), sd, pm, ap::boolean, qt, ss, se
      FROM unnest(${col((r) => r.atomId)}::bigint[], ${lo}::float8[], ${hi}::float8[],
                  ${col(({ q }) => q.dimension.slice(0, 64))}::text[], ${col(({ q }) => q.canonicalUnit.slice(0, 32))}::text[],
                  ${col(({ q }) => q.unit.slice(0, 32))}::text[], ${col(({ q }) => q.subject)}::text[],
                  ${col(({ q }) => JSON.stringify(q.conditions))}::text[], ${col(({ q }) => q.precision.sigDigits)}::int2[],
                  ${col(({ q }) => q.precision.plusMinus)}::float8[], ${col(({ q }) => (q.precision.approximate ? "t" : "f"))}::text[],
                  ${col(({ q }) => q.quote)}::text[], ${col(({ q }) => q.start)}::int4[], ${col(({ q }) => q.end)}::int4[])
           AS x(a, l, h, d, cu, u, s, c, sd, pm, ap, qt, ss, se)
     WHERE cu <> '' AND u <> ''
    ON CONFLICT (atom_id, span_start, span_end) DO NOTHING
    RETURNING id`;
  return inserted.length;
}

/** An atom as the write path holds it. */
interface AtomForQuantities {
  type: string;
  claim: string;
  lang: string;
  metadata?: Record<string, unknown>;
}

/**
 * Reads and writes the measurements of the atoms a write created: `planned[i].atom` was stored as `ids[i]`, and only
 * ids in `created` are new (each read once, even when a plan repeats a text). Returns the rows added.
 */
export async function writeNewAtomQuantities(
  tx: Tx,
  planned: ReadonlyArray<{ atom: AtomForQuantities }>,
  ids: readonly number[],
  created: ReadonlySet<number>,
): Promise<number> {
  const done = new Set<number>();
  const batch: AtomQuantities[] = [];
  planned.forEach(({ atom: a }, i) => {
    const id = ids[i];
    if (id === undefined || !created.has(id) || done.has(id) || !readsQuantities(a.type, a.metadata)) return;
    done.add(id);
    const quantities = claimQuantities(a.claim, a.lang);
    if (quantities.length) batch.push({ atomId: id, quantities });
  });
  return batch.length ? writeQuantitiesTx(tx, batch) : 0;
}
