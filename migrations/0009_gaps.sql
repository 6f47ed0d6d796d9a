-- Research gaps (issue 7, item 6): the search-miss log and the keys that find near-duplicate gaps and misses.
-- Additive and idempotent, like every migration.

-- A search whose best hit covered too little of the query (or that found nothing): the query as given, its
-- normalized key (the sorted unique lexemes of the `pegas` text search configuration, so "в субботу" and
-- "суббота" share a key; the folded text when the query has no lexeme), the best hit's score (the share of the
-- query's lexemes it contains, 0..1; 0 when there was no hit) and when it happened.
CREATE TABLE IF NOT EXISTS pm_search_miss (
  id          bigserial PRIMARY KEY,
  query       text NOT NULL,
  query_key   text NOT NULL,
  best_score  real NOT NULL DEFAULT 0 CHECK (best_score >= 0 AND best_score <= 1),
  hits        integer NOT NULL DEFAULT 0,
  created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX IF NOT EXISTS pm_search_miss_key_idx ON pm_search_miss (query_key, created_at);

-- The same key for a gap's question: a repeated miss already covered by a gap is no longer suggested.
ALTER TABLE pm_research_gap ADD COLUMN IF NOT EXISTS question_key text;
UPDATE pm_research_gap
   SET question_key = COALESCE(NULLIF(array_to_string(tsvector_to_array(to_tsvector('pegas', question)), ' '), ''), lower(question))
 WHERE question_key IS NULL;
CREATE INDEX IF NOT EXISTS pm_research_gap_key_idx ON pm_research_gap (question_key);
CREATE INDEX IF NOT EXISTS pm_research_gap_order_idx ON pm_research_gap (status, priority DESC, created_at);
