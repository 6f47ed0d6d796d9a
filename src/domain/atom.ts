/** Atom vocabulary shared by every layer: types, statuses and search filters. */

/** Atom types of the data model. */
export const ATOM_TYPES = ["text", "definition", "logical_rule", "code", "table", "fact"] as const;
/** An atom type. */
export type AtomType = (typeof ATOM_TYPES)[number];

/**
 * Atom statuses; `retracted` is a tombstone that search and context never show; `superseded` is kept, replaced by a
 * newer statement of the same property (shown only when asked for, or at a `valid_at`/`known_at` time).
 */
export const ATOM_STATUSES = ["candidate", "verified", "stale", "contested", "retracted", "superseded"] as const;
/** An atom status. */
export type AtomStatus = (typeof ATOM_STATUSES)[number];

/** Statuses a search may ask for (never `retracted`). */
export const SEARCHABLE_STATUSES = ATOM_STATUSES.filter((s) => s !== "retracted") as Exclude<AtomStatus, "retracted">[];

/** A search filter; an absent field does not filter. Retracted atoms are always excluded. */
export interface AtomFilter {
  types?: AtomType[];
  status?: AtomStatus[];
  docIds?: number[];
}
