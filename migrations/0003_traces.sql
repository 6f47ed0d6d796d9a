-- pegas-memory schema, version 3: episodic traces (issue 4, item 6). Additive and idempotent.

-- A key chosen by the writer for each memory_trace_add call: the store may run a write again after the connection
-- to the database was lost (the embedded host changed), and the key makes that second run find the first row
-- instead of storing the trace twice. NULL for rows written before this migration (NULLs never conflict).
ALTER TABLE pm_episodic_trace ADD COLUMN IF NOT EXISTS request_key uuid;
CREATE UNIQUE INDEX IF NOT EXISTS pm_episodic_trace_request_key_idx ON pm_episodic_trace (request_key);

-- The trigram fallback of memory_trace_search (word similarity, `<%`) when full-text search finds nothing.
CREATE INDEX IF NOT EXISTS pm_episodic_trace_content_trgm_idx ON pm_episodic_trace USING gin (content gin_trgm_ops);
