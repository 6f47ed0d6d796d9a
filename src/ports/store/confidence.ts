/**
 * ConfidenceReads port (issue 24 item 3): what is stored about atoms that bears on their confidence — stated prior,
 * stored (verification-raised) confidence, evidence documents with their authority and freshness, whether
 * memory_verify checked them, live contradictions, supersessions, inferred links, age. Read-only; domain/confidence
 * turns the facts into a confidence with its reasons. Errors are PegasError (STORE_UNAVAILABLE), never a driver error.
 */
import type { ConfidenceFacts } from "../../domain/confidence/model.ts";

/** Reads of the confidence facts of atoms. */
export interface ConfidenceReads {
  /** The facts of each atom of `ids` that exists (at most 1000 ids), keyed by id; `now` dates the ages. */
  confidenceFacts(ids: readonly number[], now?: Date): Promise<Map<number, ConfidenceFacts>>;
}
