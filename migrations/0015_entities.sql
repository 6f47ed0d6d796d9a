-- pegas-memory schema, version 15: entities (issue 22) — the people, organisations, places, projects, works, software
-- and concepts atoms are about, each mention tying an atom to an entity with its span, and audited, reversible merges
-- of entities. Additive and idempotent.

-- One entity per matching key (the extractor's key: lower case, ё → е, single inner spaces), so two writers that
-- meet one new name make one entity (the unique key decides). `aliases` are further display names and `alias_keys`
-- their keys, in the same order; a mention whose key is some entity's alias key resolves to it when only one entity
-- (after merges) has it. A merge sets `merged_into` and moves nothing, so undoing it is exact: reads follow
-- `merged_into` to the root. Deferred, so an import may load a row before the entity it is merged into.
CREATE TABLE IF NOT EXISTS pm_entity (
  id          bigserial PRIMARY KEY,
  kind        text NOT NULL
              CHECK (kind IN ('person', 'organisation', 'place', 'project', 'work', 'software', 'concept')),
  name        text NOT NULL CHECK (length(name) BETWEEN 1 AND 512),
  key         text NOT NULL CHECK (length(key) BETWEEN 1 AND 512),
  aliases     text[] NOT NULL DEFAULT '{}',
  alias_keys  text[] NOT NULL DEFAULT '{}',
  merged_into bigint REFERENCES pm_entity(id) ON DELETE SET NULL DEFERRABLE INITIALLY DEFERRED,
  created_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now(),
  CHECK (merged_into IS NULL OR merged_into <> id),
  CHECK (cardinality(aliases) = cardinality(alias_keys))
);
CREATE UNIQUE INDEX IF NOT EXISTS pm_entity_key_key ON pm_entity (key);
CREATE INDEX IF NOT EXISTS pm_entity_alias_keys_idx ON pm_entity USING gin (alias_keys);
CREATE INDEX IF NOT EXISTS pm_entity_merged_into_idx ON pm_entity (merged_into) WHERE merged_into IS NOT NULL;

-- One row per occurrence of an entity in an atom: `field` says which text the UTF-16 span [span_start, span_end)
-- indexes (the claim, or the content). A retracted atom keeps its mentions (retraction is a tombstone that can be
-- undone, as for atoms' links): reads leave them out; deleting the atom deletes them.
CREATE TABLE IF NOT EXISTS pm_entity_mention (
  id          bigserial PRIMARY KEY,
  entity_id   bigint NOT NULL REFERENCES pm_entity(id) ON DELETE CASCADE,
  atom_id     bigint NOT NULL REFERENCES pm_atom(id) ON DELETE CASCADE,
  field       text NOT NULL CHECK (field IN ('claim', 'content')),
  span_start  integer NOT NULL CHECK (span_start >= 0),
  span_end    integer NOT NULL,
  surface     text NOT NULL,
  confidence  real NOT NULL CHECK (confidence > 0 AND confidence <= 1),
  created_at  timestamptz NOT NULL DEFAULT now(),
  CHECK (span_end > span_start)
);
-- One mention per span: re-extracting an atom (the backfill, a replayed write) adds nothing.
CREATE UNIQUE INDEX IF NOT EXISTS pm_entity_mention_span_key ON pm_entity_mention (atom_id, field, span_start, span_end);
CREATE INDEX IF NOT EXISTS pm_entity_mention_entity_idx ON pm_entity_mention (entity_id, atom_id);

-- Audit of entity merges: `from` was found to be `into` (alias evidence, an agent's call). Undoing sets undone_at and
-- clears the entity's merged_into; the row stays. At most one merge in force per merged entity.
CREATE TABLE IF NOT EXISTS pm_entity_merge (
  id              bigserial PRIMARY KEY,
  from_entity_id  bigint NOT NULL REFERENCES pm_entity(id) ON DELETE CASCADE,
  into_entity_id  bigint NOT NULL REFERENCES pm_entity(id) ON DELETE CASCADE,
  reason          text NOT NULL,
  evidence        jsonb NOT NULL DEFAULT '{}'::jsonb,
  actor           text NOT NULL DEFAULT 'resolver',
  created_at      timestamptz NOT NULL DEFAULT now(),
  undone_at       timestamptz,
  CHECK (from_entity_id <> into_entity_id)
);
CREATE UNIQUE INDEX IF NOT EXISTS pm_entity_merge_in_force_key ON pm_entity_merge (from_entity_id) WHERE undone_at IS NULL;
CREATE INDEX IF NOT EXISTS pm_entity_merge_into_idx ON pm_entity_merge (into_entity_id);

-- Progress of `pegas-memory reindex entities` over the atoms that existed before entities (or before a better
-- extractor): the last atom id done, so an interrupted run resumes where it stopped.
CREATE TABLE IF NOT EXISTS pm_entity_scan (
  name         text PRIMARY KEY,
  last_atom_id bigint NOT NULL DEFAULT 0,
  atoms_done   bigint NOT NULL DEFAULT 0,
  finished_at  timestamptz,
  updated_at   timestamptz NOT NULL DEFAULT now()
);
