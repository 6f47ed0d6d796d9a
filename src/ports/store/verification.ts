/**
 * VerificationStore port (issue 4 item 4): what memory_verify reads of an atom and its evidence, the writes of one
 * verification step (status changes, `contradicts` links, confidence raises, all in one transaction with outbox
 * rows), and the recorded status history that a revert reads. Errors are PegasError (STORE_UNAVAILABLE,
 * MIGRATION_REQUIRED, INVALID_INPUT, NOT_FOUND), never a driver error.
 */
import type { AtomStatus, AtomType } from "../../domain/atom.ts";
import type { DocumentKind } from "../../domain/locator.ts";

/** Which atoms one verification run takes; at most one of `atomId`, `docId`; neither = `candidate` atoms, oldest first. */
export interface VerificationSelection {
  atomId?: number;
  docId?: number;
  /** Most atoms returned (1..1000). */
  limit: number;
}

/** Ids to verify, in order, and how many atoms the selection holds in all (≥ ids.length). */
export interface VerificationTargets {
  ids: number[];
  total: number;
}

/** A document that is evidence for an atom (an active document that cites it, or its own document). */
export interface EvidenceSource {
  docId: number;
  uri: string;
  kind: DocumentKind;
  /** Prior trust of the document in [0, 1] (pm_document.authority). */
  authority: number;
}

/** An atom as verification reads it. */
export interface VerifySubject {
  id: number;
  type: AtomType;
  claim: string;
  content: string;
  lang: string;
  status: AtomStatus;
  /** Current confidence in [0, 1]. */
  confidence: number;
  /**
   * Confidence before any cross-confirmation raised it (kept in the atom's metadata as `confidence_prior` by the
   * first raise), so that verifying again on the same evidence gives the same confidence instead of compounding.
   */
  prior: number;
  docId: number | null;
  /** Its evidence documents, each once, by document id. */
  sources: EvidenceSource[];
  /** Atoms a merge with which was undone: someone said they differ, so they are never called duplicates again. */
  keptApart: number[];
  /** Atoms whose contradiction with this one was reverted: never called contradicting again. */
  notContradicting: number[];
}

/** One status change to apply; applied only if the atom's status is still `from` when the transaction runs. */
export interface StatusChangeInput {
  atomId: number;
  from: AtomStatus;
  to: AtomStatus;
  /** Why, in English (shown in the history). */
  reason: string;
  /** Atom ids that support the change. */
  evidence: number[];
}

/** Everything one verification step writes, in one transaction. */
export interface VerificationWrite {
  /** `verify` (or another actor name of pm_atom_status_change). */
  actor: string;
  changes: StatusChangeInput[];
  /** Links to add (kind `contradicts`, source `verify`); skipped when the pair is already linked with that kind either way. */
  links: Array<{ src: number; dst: number; kind: string; confidence: number }>;
  /** New confidences; applied only where higher than the stored one (never lowered); the first raise keeps the old value as the prior. */
  confidence: Array<{ atomId: number; value: number }>;
  /** The atom that was checked and by which judge: moves it to the back of the default queue. */
  checked?: { atomId: number; judge: string };
}

/** A recorded status change (pm_atom_status_change); times are ISO 8601 UTC. */
export interface StatusChangeRecord {
  id: number;
  atom_id: number;
  from_status: AtomStatus;
  to_status: AtomStatus;
  reason: string;
  evidence: number[];
  actor: string;
  /** The change this one undoes, when it is a revert. */
  reverts: number | null;
  /** When this change was undone, if it was. */
  reverted_at: string | null;
  created_at: string;
}

/** What a verification step wrote. */
export interface VerificationApplied {
  changes: StatusChangeRecord[];
  /** Changes not applied because the atom's status had changed since it was read (a concurrent writer). */
  skipped: Array<{ atomId: number; expected: AtomStatus; actual: AtomStatus | null }>;
  linksAdded: number;
  /** Atoms whose confidence went up. */
  confidenceRaised: number[];
}

/** Outcome of a revert: the new change (actor `revert`) and the original, now carrying `reverted_at`. */
export interface RevertApplied {
  revert: StatusChangeRecord;
  original: StatusChangeRecord;
}

/** Verification reads and writes, and the status history. */
export interface VerificationStore {
  /** Atom ids to verify: the atom, the document's atoms, or `candidate` atoms oldest first. NOT_FOUND for an unknown atom or document. */
  verificationTargets(sel: VerificationSelection): Promise<VerificationTargets>;
  /** Atoms with their evidence documents, in the order of `ids` (missing ids are skipped). */
  verificationSubjects(ids: number[]): Promise<VerifySubject[]>;
  /** Applies one verification step (status changes recorded, links, confidence raises, outbox rows) in one transaction. */
  applyVerification(write: VerificationWrite): Promise<VerificationApplied>;
  /** Reverts a recorded status change. NOT_FOUND; INVALID_INPUT when already reverted or the atom's status changed since. */
  revertStatusChange(changeId: number): Promise<RevertApplied>;
  /** An atom's recorded status changes, newest first, at most `limit`. NOT_FOUND for an unknown atom. */
  statusHistory(atomId: number, limit: number): Promise<StatusChangeRecord[]>;
}
