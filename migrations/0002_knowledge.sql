-- pegas-memory schema, version 2: the knowledge layer (issue 4). Additive and idempotent.

-- Every status change of an atom: who changed it, why, on which evidence; a revert is itself a change that
-- points at the change it undoes (`reverts`), and the undone change gets `reverted_at`.
CREATE TABLE IF NOT EXISTS pm_atom_status_change (
  id            bigserial PRIMARY KEY,
  atom_id       bigint NOT NULL REFERENCES pm_atom(id) ON DELETE CASCADE,
  from_status   text NOT NULL,
  to_status     text NOT NULL,
  reason        text NOT NULL,
  evidence      jsonb NOT NULL DEFAULT '[]'::jsonb,  -- atom ids (numbers) that support the change
  actor         text NOT NULL DEFAULT 'verify',      -- verify | dedup | ingest | agent | revert
  reverts       bigint REFERENCES pm_atom_status_change(id) ON DELETE SET NULL,
  reverted_at   timestamptz,
  created_at    timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX IF NOT EXISTS pm_atom_status_change_atom_idx ON pm_atom_status_change (atom_id, id);

-- A near-duplicate merge: `absorbed_atom_id` (kept as a `stale` row, so the merge can be undone) was found to say
-- the same as `kept_atom_id`; `citation_id` is the citation copied onto the kept atom by the merge.
CREATE TABLE IF NOT EXISTS pm_atom_merge (
  id               bigserial PRIMARY KEY,
  kept_atom_id     bigint NOT NULL REFERENCES pm_atom(id) ON DELETE CASCADE,
  absorbed_atom_id bigint NOT NULL REFERENCES pm_atom(id) ON DELETE CASCADE,
  citation_id      bigint REFERENCES pm_citation(id) ON DELETE SET NULL,
  cosine           real,
  model            text,
  reason           text NOT NULL,
  undone_at        timestamptz,
  created_at       timestamptz NOT NULL DEFAULT now(),
  CHECK (kept_atom_id <> absorbed_atom_id)
);
CREATE INDEX IF NOT EXISTS pm_atom_merge_kept_idx ON pm_atom_merge (kept_atom_id);
CREATE INDEX IF NOT EXISTS pm_atom_merge_absorbed_idx ON pm_atom_merge (absorbed_atom_id);

-- Chunks whose distillation failed (an LLM answer truncated, off-schema, or an error): nothing of them was stored
-- as atoms; `pegas-memory distill --retry` tries them again.
CREATE TABLE IF NOT EXISTS pm_distill_quarantine (
  id            bigserial PRIMARY KEY,
  doc_id        bigint NOT NULL REFERENCES pm_document(id) ON DELETE CASCADE,
  chunk_id      bigint REFERENCES pm_chunk(id) ON DELETE CASCADE,
  doc_version   integer NOT NULL,
  chunk_ord     integer NOT NULL,
  distiller     text NOT NULL,
  reason        text NOT NULL,
  detail        text,                                -- an excerpt of the last answer, for diagnosis
  attempts      integer NOT NULL DEFAULT 1,
  resolved_at   timestamptz,
  created_at    timestamptz NOT NULL DEFAULT now(),
  updated_at    timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX IF NOT EXISTS pm_distill_quarantine_open_idx ON pm_distill_quarantine (id) WHERE resolved_at IS NULL;

CREATE INDEX IF NOT EXISTS pm_episodic_trace_session_idx ON pm_episodic_trace (session_id, created_at);
CREATE INDEX IF NOT EXISTS pm_episodic_trace_created_idx ON pm_episodic_trace (created_at);
