-- Files whose dependency targets still need the resolution pass: set when a file is (re)written, cleared when the
-- pass has examined it, so a run interrupted before or during resolution is finished by the next run.
ALTER TABLE pm_code_file ADD COLUMN IF NOT EXISTS resolve_pending boolean NOT NULL DEFAULT false;
CREATE INDEX IF NOT EXISTS pm_code_file_resolve_pending_idx ON pm_code_file (repo) WHERE resolve_pending;
