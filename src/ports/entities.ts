/**
 * EntityStore port (issue 22): entities (pm_entity), their mentions in atoms (pm_entity_mention) and audited,
 * reversible merges (pm_entity_merge), migration 0015. An entity merged into another keeps its rows; reads follow
 * `mergedInto` to the root, so an undo restores exactly what was. Mentions of retracted atoms are kept but never read.
 * Errors are PegasError (INVALID_INPUT, NOT_FOUND, STORE_UNAVAILABLE, MIGRATION_REQUIRED), never a driver error;
 * every write is one transaction.
 */
import type { MergeEvidence } from "../domain/entities/resolve.ts";
import type { EntityKind, EntityMention } from "../domain/entities/types.ts";

/** Which text of an atom a mention's span indexes. */
export type MentionField = "claim" | "content";

/** An entity as stored; `mergedInto` is the entity it was merged into (null for a root). Times are ISO 8601. */
export interface EntityRow {
  id: number;
  kind: EntityKind;
  name: string;
  key: string;
  /** Further display names, with their keys in the same order. */
  aliases: string[];
  aliasKeys: string[];
  mergedInto: number | null;
  createdAt: string;
  updatedAt: string;
}

/** One stored mention: `entityId` is the entity it was written to, `rootId` that entity's root after merges. */
export interface MentionRow {
  id: number;
  entityId: number;
  rootId: number;
  atomId: number;
  field: MentionField;
  /** UTF-16 offsets into the atom's `field` text: `text.slice(start, end) === surface`. */
  start: number;
  end: number;
  surface: string;
  confidence: number;
}

/** The mentions found in one text of one atom, as the extractor gave them. */
export interface AtomMentions {
  atomId: number;
  field: MentionField;
  mentions: EntityMention[];
}

/** What a mention write did. */
export interface MentionsWritten {
  entitiesCreated: number;
  mentionsAdded: number;
}

/** A merge as recorded: `fromEntityId` was merged into `intoEntityId`; `undoneAt` null while in force. */
export interface EntityMergeRecord {
  id: number;
  fromEntityId: number;
  intoEntityId: number;
  reason: string;
  evidence: Record<string, unknown>;
  actor: string;
  createdAt: string;
  undoneAt: string | null;
}

/** A merge request: `evidence` is what justified it (shared mentions, an alias, the agent's word). */
export interface EntityMergeRequest {
  fromEntityId: number;
  intoEntityId: number;
  reason: string;
  evidence?: Record<string, unknown>;
  /** `resolver` (automatic alias resolution), `agent`, `cli`. */
  actor?: string;
}

/** Counts of the entity tables: roots and merged entities, live mentions (atom not retracted), merges in force. */
export interface EntityCounts {
  entities: number;
  merged: number;
  mentions: number;
  merges: number;
}

/** A non-retracted atom's texts, for extraction (the backfill). */
export interface AtomText {
  id: number;
  claim: string;
  content: string;
  lang: string;
}

/** Progress of a named scan over the atoms (the backfill): last atom id done, atoms done, when it finished. */
export interface EntityScan {
  name: string;
  lastAtomId: number;
  atomsDone: number;
  finishedAt: string | null;
}

/** A root entity as a list shows it: the row, its live mentions and the atoms they are in (merged entities included). */
export interface EntityListRow extends EntityRow {
  mentions: number;
  atoms: number;
}

/**
 * Which root entities a list holds: `keys` match the key or an alias key as a substring (`contains`) or whole
 * (`exact`: a name's inflected forms); `kind` one kind. Without `contains`/`exact` every root is listed.
 */
export interface EntityListFilter {
  contains?: string;
  exact?: string[];
  kind?: EntityKind;
}

/** The entity tables of the canonical store. */
export interface EntityStore {
  /**
   * A page of root entities matching `filter`, the most-mentioned first (then by name and id), with the total that
   * match. `limit` 1..200.
   */
  listEntities(
    filter: EntityListFilter,
    offset: number,
    limit: number,
  ): Promise<{ rows: EntityListRow[]; total: number }>;
  /**
   * Resolves each mention to an entity by key (then by an alias key held by exactly one root), creating the entity
   * when none has it, and writes one mention row per span (an existing span is kept). One transaction.
   * @throws PegasError INVALID_INPUT for an unknown kind, an empty key or name, an empty or inverted span, a
   *   confidence outside (0, 1]; NOT_FOUND for an unknown atom. Nothing is written then.
   */
  writeMentions(batch: AtomMentions[]): Promise<MentionsWritten>;
  /** Entities by id (merged ones too), in the order asked; unknown ids are left out. */
  entitiesByIds(ids: number[]): Promise<EntityRow[]>;
  /** The root entities whose key or one of whose alias keys is among `keys` (several when a name is ambiguous). */
  entitiesByKeys(keys: string[]): Promise<EntityRow[]>;
  /** The root an entity resolves to after merges (itself when not merged). @throws PegasError NOT_FOUND. */
  rootOf(entityId: number): Promise<number>;
  /**
   * Mentions of an entity and of every entity merged into it, atoms not retracted, by mention id after `afterId`.
   * @throws PegasError NOT_FOUND for an unknown entity.
   */
  mentionsOfEntity(entityId: number, opts?: { limit?: number; afterId?: number }): Promise<MentionRow[]>;
  /** Mentions in the given atoms (retracted atoms give none), by atom then field then span. */
  mentionsOfAtoms(atomIds: number[]): Promise<MentionRow[]>;
  /**
   * Adds a display name (with its key) to an entity's aliases; an alias already there is kept once.
   * @throws PegasError NOT_FOUND for an unknown entity; INVALID_INPUT for an empty name or key.
   */
  addAlias(entityId: number, name: string, key: string): Promise<EntityRow>;
  /**
   * Merges one root entity into another (the target's root), recording why. Nothing moves: reads follow the merge.
   * @throws PegasError NOT_FOUND for an unknown entity; INVALID_INPUT for a merge into itself, of an entity already
   *   merged, or one that would close a cycle.
   */
  mergeEntities(req: EntityMergeRequest): Promise<EntityMergeRecord>;
  /** Undoes a merge in force. @throws PegasError NOT_FOUND for an unknown merge; INVALID_INPUT when already undone. */
  undoEntityMerge(mergeId: number): Promise<EntityMergeRecord>;
  /** Merges that involve an entity (either side), newest first; every merge when `entityId` is omitted. */
  entityMerges(entityId?: number): Promise<EntityMergeRecord[]>;
  /** Counts of the entity tables. */
  entityCounts(): Promise<EntityCounts>;
  /** Up to `limit` non-retracted atoms with id > `afterId`, ascending, for extraction. */
  atomsAfter(afterId: number, limit: number): Promise<AtomText[]>;
  /** A named scan's progress (a fresh one when it never ran). */
  scanState(name: string): Promise<EntityScan>;
  /**
   * Writes a page of mentions and moves a scan past `lastAtomId`, in one transaction, so that an interrupted scan
   * resumes after the last page written; `finished` stamps its end.
   */
  advanceScan(
    name: string,
    batch: AtomMentions[],
    lastAtomId: number,
    atoms: number,
    finished: boolean,
  ): Promise<MentionsWritten>;
  /** Restarts a named scan from the first atom. */
  resetScan(name: string): Promise<void>;
  /**
   * Every mention of a non-retracted atom as the resolver reads it, grouped by document (`doc:<id>`, or `atom:<id>`
   * for an atom without one): its span and surface, and its entity's key, name and kind.
   */
  corpusMentions(): Promise<Array<{ docId: string; mentions: EntityMention[] }>>;
  /**
   * Applies the resolver's alias merges (alias key → target key), each audited with its rule and evidence; skips a
   * merge whose entities are missing, whose alias is already merged, or that was made before and undone. One
   * transaction; returns how many merges were made.
   */
  applyAliasMerges(merges: readonly MergeEvidence[], actor?: string): Promise<number>;
}
