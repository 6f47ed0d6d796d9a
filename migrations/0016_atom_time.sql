-- pegas-memory schema, version 16: time on two axes (issue 22). `observed_at` is when the atom's source said it (a
-- document's date, a message's time the client gave, a page's fetch time); `event_start`/`event_end` are when what it
-- says happened or held, as its text dates it ("on 3 March 2024", «в прошлом году» resolved against observed_at):
-- the half-open UTC interval [event_start, event_end), whose precision `event_granularity` names (a weekend is two
-- days of granularity day; an instant has event_end = event_start). All nullable: most text says nothing dated.
-- Additive, idempotent; an import of an older export gains the empty columns.
ALTER TABLE pm_atom ADD COLUMN IF NOT EXISTS observed_at timestamptz;
ALTER TABLE pm_atom ADD COLUMN IF NOT EXISTS event_start timestamptz;
ALTER TABLE pm_atom ADD COLUMN IF NOT EXISTS event_end timestamptz;
ALTER TABLE pm_atom ADD COLUMN IF NOT EXISTS event_granularity text
  CHECK (event_granularity IN ('instant', 'day', 'week', 'month', 'year'));
DO $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_constraint WHERE conname = 'pm_atom_event_time_check'
                 AND conrelid = 'pm_atom'::regclass) THEN
    ALTER TABLE pm_atom ADD CONSTRAINT pm_atom_event_time_check CHECK (
      (event_start IS NULL AND event_end IS NULL AND event_granularity IS NULL)
      OR (event_start IS NOT NULL AND event_end IS NOT NULL AND event_granularity IS NOT NULL
          AND event_end >= event_start));
  END IF;
END $$;
-- known_at reads ("what did the memory know then") and supersession's newer-by-observation order scan by
-- observed_at; valid_at reads and "when" questions by event time. Partial: undated atoms are never looked up here.
CREATE INDEX IF NOT EXISTS pm_atom_observed_idx ON pm_atom (observed_at) WHERE observed_at IS NOT NULL;
CREATE INDEX IF NOT EXISTS pm_atom_event_idx ON pm_atom (event_start, event_end) WHERE event_start IS NOT NULL;
