/**
 * CurationWrites port: what the agent curates by hand — links it asserts or removes (memory_link, with truth
 * maintenance of what inference derived from them) and atoms or documents it forgets or restores (memory_forget).
 * Each is one transaction with its outbox rows. Errors are PegasError (STORE_UNAVAILABLE, MIGRATION_REQUIRED,
 * INVALID_INPUT, NOT_FOUND), never a driver error.
 */
import type { StatusChangeRecord } from "./verification.ts";

/** An endpoint of memory_link: an atom or a code symbol, by row id. */
export interface LinkEndpoint {
  kind: "atom" | "symbol";
  id: number;
}

/** A relation the agent asserts: `kind` a single token, `confidence` in 0..1. */
export interface LinkRequest {
  src: LinkEndpoint;
  dst: LinkEndpoint;
  kind: string;
  confidence: number;
}

/** The stored link: its row, the table that holds it, whether it is new, and its source and confidence now. */
export interface LinkApplied {
  linkId: number;
  table: "pm_atom_link" | "pm_atom_symbol_link" | "pm_code_dependency";
  created: boolean;
  /** `agent`, or the source of the edge that already existed (`extraction`, `verification`, `inference`). */
  source: string;
  confidence: number;
}

/** What memory_link with `remove` asks: the link `src -kind-> dst` (the endpoints and kind it was stored with). */
export interface UnlinkRequest {
  src: LinkEndpoint;
  dst: LinkEndpoint;
  kind: string;
}

/**
 * A removed link (its row, table, source and confidence before it went) and what truth maintenance did: inferred
 * edges whose recorded justification used it were deleted, cascading; those another justification still holds were
 * stored again (new rows).
 */
export interface UnlinkApplied {
  linkId: number;
  table: LinkApplied["table"];
  /** `agent`, or for an atom → atom link `extraction`, `dedup` or a verifier's name (see {@link CurationWrites.unlink}). */
  source: string;
  confidence: number;
  /** Inferred edges gone with it (deleted and not held by another justification). */
  inferredRetracted: number;
  /** Inferred edges that depended on it but another justification still holds (stored again, new ids). */
  inferredRederived: number;
}

/**
 * What memory_forget asks: atoms, one document, or what one root entity is mentioned in (its atoms, and the documents
 * all of whose atoms mention it), forgotten or (undo) restored, with the reason recorded.
 */
export type ForgetRequest = ({ atomIds: number[] } | { docId: number } | { entityId: number }) & {
  reason: string;
  undo: boolean;
};

/** What a forget (or its undo) changed. */
export interface ForgetOutcome {
  /** The recorded status changes, one per atom changed (actor `forget`, or `forget-undo`). */
  changes: StatusChangeRecord[];
  /** Atoms left as they were: already retracted (forget) or not retracted by a forget (undo). */
  unchanged: number[];
  /** Links queued to the outbox: withdrawn from the projections (or restored on undo). */
  links: number;
  /** For a document: how many atoms it has. */
  atoms?: number;
  /** For an entity: the documents retracted with its atoms (restored on undo), ascending. */
  documents?: number[];
  /** Research gaps open again because the atoms that answered them were retracted. */
  gapsReopened?: number[];
}

/** Links and forgetting, as the agent asks for them. */
export interface CurationWrites {
  /** Stores a relation the agent asserts, with its outbox row. NOT_FOUND (endpoint), INVALID_INPUT (retracted atom, symbol → atom). */
  link(req: LinkRequest): Promise<LinkApplied>;
  /**
   * Removes the link `src -kind-> dst` in one transaction: the row, its outbox `delete` row (the projections drop the
   * edge), and what memory_infer derived from it unless another justification holds it. Removable: the agent's links
   * (any table) and atom → atom links of extraction, dedup or verification. NOT_FOUND (no such link, with a hint);
   * INVALID_INPUT for an inferred link (its premises or rule go instead), a link the code store made (it would come
   * back on the next memory_store_code) and symbol → atom.
   */
  unlink(req: UnlinkRequest): Promise<UnlinkApplied>;
  /** Retracts (or restores) atoms, a document's or an entity's atoms, recording who/why/when; outbox rows for atoms and links. NOT_FOUND. */
  forget(req: ForgetRequest): Promise<ForgetOutcome>;
}
