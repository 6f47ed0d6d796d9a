-- pegas-memory schema, version 18: freshness of URL sources (issue 24, item 2). `pegas-memory refresh` re-checks
-- the stored http(s) documents with conditional requests: the validators of the last fetch (ETag, Last-Modified) are
-- kept, with when the page was last checked, when it may be checked next (a failed check is retried later), how
-- many checks failed in a row and the last failure, and since when the page is gone (HTTP 404/410; the document and
-- its atoms are kept). Additive and idempotent.
ALTER TABLE pm_document ADD COLUMN IF NOT EXISTS http_etag text;
ALTER TABLE pm_document ADD COLUMN IF NOT EXISTS http_last_modified text;
ALTER TABLE pm_document ADD COLUMN IF NOT EXISTS checked_at timestamptz;
ALTER TABLE pm_document ADD COLUMN IF NOT EXISTS next_check_at timestamptz;
ALTER TABLE pm_document ADD COLUMN IF NOT EXISTS check_failures integer NOT NULL DEFAULT 0;
ALTER TABLE pm_document ADD COLUMN IF NOT EXISTS check_error text;
ALTER TABLE pm_document ADD COLUMN IF NOT EXISTS gone_at timestamptz;
-- The refresh picks the fetched URL documents still there, oldest check or fetch first.
CREATE INDEX IF NOT EXISTS pm_document_refresh_idx ON pm_document (GREATEST(checked_at, updated_at))
  WHERE status = 'active' AND gone_at IS NULL AND content_hash IS NOT NULL AND uri LIKE 'http%';
