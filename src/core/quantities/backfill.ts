/**
 * `pegas-memory reindex quantities`: reads the measurements of every non-retracted atom a store holds from before
 * quantities (migration 0019), or again after the reader improved, page by page in atom id order, with the reader
 * new atoms get in their own write (domain/quantity/atom-quantities.ts). Each page's rows and the scan's progress
 * are written in one transaction, so an interrupted run resumes after its last page and a repeated one adds nothing
 * (rows are unique by atom and span). The pattern of core/entities/backfill.ts.
 */
import { claimQuantities } from "../../domain/quantity/atom-quantities.ts";
import { PegasError } from "../../errors.ts";
import type { AtomQuantities, QuantityStore } from "../../ports/store/quantities.ts";

/** The scan's name in pm_entity_scan. */
export const QUANTITY_SCAN = "quantities";
/** Atoms per page (one transaction each). */
export const QUANTITY_PAGE = 500;

/** Options of a backfill: restart from the first atom, stop after `maxAtoms`, page size, cancel, progress. */
export interface QuantityBackfillOptions {
  restart?: boolean;
  maxAtoms?: number;
  pageSize?: number;
  signal?: AbortSignal;
  onProgress?: (p: { atoms: number; lastAtomId: number }) => void;
}

/** What a run did: atoms read, rows added, where it started and stopped, whether the store is done. */
export interface QuantityBackfillResult {
  atoms: number;
  quantitiesAdded: number;
  resumedAfter: number;
  lastAtomId: number;
  finished: boolean;
}

/**
 * Runs (or resumes) the quantity backfill over `store`.
 * @throws PegasError CANCELLED when `signal` aborts (pages written so far stay; the next run resumes after them);
 *   STORE_UNAVAILABLE, MIGRATION_REQUIRED from the store.
 */
export async function backfillQuantities(
  store: QuantityStore,
  opts: QuantityBackfillOptions = {},
): Promise<QuantityBackfillResult> {
  if (opts.restart) await store.resetScan(QUANTITY_SCAN);
  const page = Math.max(1, Math.min(opts.pageSize ?? QUANTITY_PAGE, 5000));
  const max = opts.maxAtoms ?? Number.POSITIVE_INFINITY;
  const state = await store.scanState(QUANTITY_SCAN);
  const out: QuantityBackfillResult = {
    atoms: 0,
    quantitiesAdded: 0,
    resumedAfter: state.lastAtomId,
    lastAtomId: state.lastAtomId,
    finished: false,
  };
  while (!out.finished && out.atoms < max) {
    if (opts.signal?.aborted)
      throw new PegasError("CANCELLED", `quantity backfill cancelled after atom ${out.lastAtomId}`, {
        hint: "run `pegas-memory reindex quantities` again to resume",
      });
    const want = Math.min(page, max - out.atoms);
    const atoms = await store.claimsAfter(out.lastAtomId, want);
    const batch: AtomQuantities[] = [];
    for (const a of atoms) {
      const quantities = a.skip ? [] : claimQuantities(a.claim, a.lang);
      if (quantities.length) batch.push({ atomId: a.id, quantities });
    }
    const last = atoms.at(-1)?.id ?? out.lastAtomId;
    out.finished = atoms.length < want;
    out.quantitiesAdded += await store.advanceScan(QUANTITY_SCAN, batch, last, atoms.length, out.finished);
    out.atoms += atoms.length;
    out.lastAtomId = last;
    opts.onProgress?.({ atoms: out.atoms, lastAtomId: last });
  }
  return out;
}
