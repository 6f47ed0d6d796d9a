/**
 * Entity vocabulary shared by every layer (issue 22): the kinds an entity has and the shape of one mention found
 * in a text. Extraction (domain/entities), storage (ports, adapters/sql) and reads (core) all speak these types.
 */

/** Entity kinds of the data model (DESIGN.md, "Entities and time"). */
export const ENTITY_KINDS = ["person", "organisation", "place", "project", "work", "software", "concept"] as const;
/** An entity kind. */
export type EntityKind = (typeof ENTITY_KINDS)[number];

/**
 * One mention of an entity in a text: `start`/`end` are UTF-16 offsets into the text the extractor was given
 * (`text.slice(start, end) === surface`); `name` is the canonical display form (nominative, without possessive
 * or case ending: «Андрею Ефимычу» → «Андрей Ефимыч», "Alice's" → "Alice"); `key` is the matching form of that
 * name (lower case, ё → е, inner spaces single), equal for every surface form of one name; `confidence` is in (0, 1].
 */
export interface EntityMention {
  start: number;
  end: number;
  surface: string;
  name: string;
  key: string;
  kind: EntityKind;
  confidence: number;
}

/**
 * An entity a language model named in a chunk (the LLM distiller's answer): its kind, its canonical name (nominative,
 * as complete as the chunk gives it) and `quote`, one form of it copied verbatim from the chunk. It becomes
 * {@link EntityMention}s of the chunk's atoms through domain/entities/named.ts.
 */
export interface NamedEntity {
  kind: EntityKind;
  name: string;
  quote: string;
}
