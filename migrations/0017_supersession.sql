-- pegas-memory schema, version 17: supersession (issue 22). A newer statement of the same exclusive property of the
-- same subject (a job, an address, a version, a status) supersedes the older one: the older atom is kept with status
-- `superseded`, linked from the newer one by a `supersedes` row of pm_atom_link, and the change is recorded in
-- pm_atom_status_change (actor `supersede`), so that memory_verify's revert undoes it (the link goes with it).
-- Additive and idempotent: the status check is widened once; rerunning finds it widened and does nothing.
DO $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_constraint WHERE conname = 'pm_atom_status_check' AND conrelid = 'pm_atom'::regclass
                 AND pg_get_constraintdef(oid) LIKE '%superseded%') THEN
    ALTER TABLE pm_atom DROP CONSTRAINT IF EXISTS pm_atom_status_check;
    ALTER TABLE pm_atom ADD CONSTRAINT pm_atom_status_check
      CHECK (status IN ('candidate', 'verified', 'stale', 'contested', 'retracted', 'superseded'));
  END IF;
END $$;
-- valid_at reads look up, for each atom, the atoms that supersede it (dst → src over kind `supersedes`); known_at
-- reads take an atom's status at a time from its recorded changes (pm_atom_status_change_atom_idx serves them).
CREATE INDEX IF NOT EXISTS pm_atom_link_supersedes_idx ON pm_atom_link (dst_atom_id, src_atom_id) WHERE kind = 'supersedes';
