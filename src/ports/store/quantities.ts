/**
 * QuantityStore port (issue 24): the measurements stored beside atoms (pm_atom_quantity, migration 0019), read by a
 * filtered search ("cold start < 1.5 s") and written by `pegas-memory reindex quantities` for atoms stored before
 * quantities. New atoms get theirs in their own write (AtomWrites, ingest). Errors are PegasError
 * (STORE_UNAVAILABLE, MIGRATION_REQUIRED, CANCELLED), never a driver error.
 */
import type { AtomFilter } from "../../domain/atom.ts";
import type { Quantity } from "../../domain/quantity/extract.ts";

/** The measurements read in one atom's claim. */
export interface AtomQuantities {
  atomId: number;
  quantities: Quantity[];
}

/** A stored measurement. Values are in `canonicalUnit`; the span indexes the atom's claim (UTF-16). */
export interface QuantityRow {
  atomId: number;
  low: number;
  high: number;
  dimension: string;
  canonicalUnit: string;
  /** The unit as written ("ms", «мс» is "ms" too). */
  unit: string;
  subject: string;
  conditions: string[];
  sigDigits: number | null;
  plusMinus: number | null;
  approximate: boolean;
  quote: string;
  start: number;
  end: number;
  /** The atom's claim (filled by {@link QuantityStore.matching} only). */
  claim?: string;
}

/**
 * A value range in one canonical unit: stored measurements whose whole value range lies inside it match. A missing
 * bound is open; `lowOpen`/`highOpen` exclude the bound itself ("< 1.5 s").
 */
export interface QuantityRange {
  canonicalUnit: string;
  low?: number;
  high?: number;
  lowOpen?: boolean;
  highOpen?: boolean;
}

/** One atom of a scan: its claim and language. */
export interface ClaimText {
  id: number;
  claim: string;
  lang: string;
  /** True when the claim is not read: a chunk's passage (its sentences are atoms of their own), code, a table, a rule. */
  skip: boolean;
}

/** Reads and the backfill of stored measurements. */
export interface QuantityStore {
  /**
   * The measurements inside `range` of live atoms passing `filter` (never retracted ones), at most `limit`, by atom id.
   */
  matching(range: QuantityRange, filter: AtomFilter, limit: number): Promise<QuantityRow[]>;
  /** The stored measurements of the given atoms, in claim order. */
  quantitiesOfAtoms(atomIds: number[]): Promise<QuantityRow[]>;
  /** Non-retracted atoms with id above `afterId`, ascending, at most `limit`. */
  claimsAfter(afterId: number, limit: number): Promise<ClaimText[]>;
  /** Progress of the backfill named `name` (0 when never run). */
  scanState(name: string): Promise<{ lastAtomId: number; finished: boolean }>;
  /** Writes one page's measurements and the scan's progress in one transaction; returns the rows added. */
  advanceScan(name: string, batch: AtomQuantities[], lastAtomId: number, atoms: number, done: boolean): Promise<number>;
  /** Forgets the progress of scan `name` (a restart). */
  resetScan(name: string): Promise<void>;
}
