/**
 * SupersessionStore port (issue 22): the atoms a supersession is decided on, recording one (the older atom
 * `superseded`, a `supersedes` link from the newer, an audited status change that memory_verify's revert undoes), and
 * the time filters of reads: `valid_at` (what was true then) and `known_at` (what the memory knew then).
 */

/** An atom as supersession reads it; times are ISO 8601 UTC (null when unknown). */
export interface SupersessionSubject {
  id: number;
  type: string;
  content: string;
  /** True for a chunk's whole passage (metadata.passage); one of several sentences takes no part in supersession. */
  passage: boolean;
  status: string;
  observedAt: string | null;
  eventStart: string | null;
  createdAt: string;
  /** Atoms a recorded supersession between this one and them was undone with: never decided again. */
  keptApart: number[];
}

/** One supersession to record: `olderId` is superseded by `newerId`. */
export interface SupersessionWrite {
  newerId: number;
  olderId: number;
  reason: string;
}

/** One recorded supersession: the status change of the older atom (revert it to undo) and the link. */
export interface SupersessionApplied {
  newerId: number;
  olderId: number;
  changeId: number;
  linkId: number;
}

/** The time of a read: either or both (ISO 8601 UTC instants). */
export interface AsOf {
  /** What was true then: valid from the atom's event time (else observed, else stored) until its superseder's. */
  validAt?: string;
  /** What the memory knew then: stored by then, and then neither superseded, retracted nor stale. */
  knownAt?: string;
}

/** Supersession reads and writes (same database as the canonical store). */
export interface SupersessionStore {
  /** Atoms by id (missing ids skipped), in the order of `ids`. */
  supersessionSubjects(ids: number[]): Promise<SupersessionSubject[]>;
  /**
   * Records the supersessions in ONE transaction; one whose older atom is no longer candidate, verified or contested
   * (or whose newer atom is retracted, stale or superseded), or between two atoms a supersession of which was undone,
   * is skipped. A `contradicts` link between the two goes.
   */
  applySupersessions(writes: SupersessionWrite[]): Promise<SupersessionApplied[]>;
  /** The ids among `ids` that pass the time filter, in the order of `ids`. */
  filterAsOf(ids: number[], asOf: AsOf): Promise<number[]>;
  /** For each atom id: the live atoms that superseded it (for a read that shows a superseded atom). */
  supersededBy(ids: number[]): Promise<Map<number, number[]>>;
}
