-- pegas-memory schema, version 13: a document's title as words of every atom it holds, for lexical search. A
-- sentence atom rarely repeats its document's title, yet the title says what the sentence is about; the in-process
-- BM25 index adds these words to each atom of a stored document (the title field of BM25F, Robertson, Zaragoza &
-- Taylor 2004, folded into one field as Anserini's "flat" BEIR indexes fold title and text). Only a title the source
-- or the caller gave counts: one made up from the text's first line or sentence (metadata.title_from_text) would
-- only repeat some of the text's words in every atom. A generated column: computed once per document, by the same
-- `pegas` configuration as pm_atom.search_tsv, and recomputed by PostgreSQL when a title changes; export skips it
-- and import recomputes it. Idempotent.
ALTER TABLE pm_document
  ADD COLUMN IF NOT EXISTS title_tsv tsvector
  GENERATED ALWAYS AS (CASE WHEN metadata ? 'title_from_text' THEN ''::tsvector
                            ELSE to_tsvector('pegas'::regconfig, coalesce(title, '')) END) STORED;
