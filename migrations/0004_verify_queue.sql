-- pegas-memory schema, version 4: when each atom was last verified, so that memory_verify without arguments works
-- through the candidates it has not checked yet (then the longest unchecked) instead of the same oldest ones.
CREATE TABLE IF NOT EXISTS pm_atom_check (
  atom_id     bigint PRIMARY KEY REFERENCES pm_atom(id) ON DELETE CASCADE,
  judge       text NOT NULL,
  checked_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX IF NOT EXISTS pm_atom_check_at_idx ON pm_atom_check (checked_at);
