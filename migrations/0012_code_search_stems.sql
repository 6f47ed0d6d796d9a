-- pegas-memory schema, version 12: stemmed words for code search, so that a symbol's natural-language words match
-- in any inflection, Russian as well as English ("сумма чисел" finds "Вычисляет сумму всех чисел", "суббота" finds
-- "в субботу", "Елка" finds "Ёлка", "decoding" finds "Decode a JSON document"). Idempotent.
--
-- search_tsv (version 7) holds the identifier-aware words as written, built in TypeScript. To it are added the same
-- symbol's words through the `pegas` configuration (Russian Snowball for Cyrillic, which folds ё to е; English
-- Snowball for ASCII): the name and qualified name with separators (`_ . : / $ # < > ( ) [ ]`) and lower→upper case
-- boundaries turned into spaces (weight B), and the docstring (weight D). One function, used by the writer
-- (code-write.ts) and by the backfill below, so both give the same vector; one GIN index serves both kinds of words.
CREATE OR REPLACE FUNCTION pm_code_stems(name text, qualified_name text, docstring text) RETURNS tsvector
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT setweight(to_tsvector('pegas'::regconfig,
           regexp_replace(translate(name || ' ' || qualified_name, '_.:/$#<>()[]', '            '),
                          '([[:lower:][:digit:]])([[:upper:]])', '\1 \2', 'g')), 'B')
         || setweight(to_tsvector('pegas'::regconfig, coalesce(docstring, '')), 'D')
$$;

-- Rows written before this version get their stems; a row whose vector already holds every stem lexeme is left
-- alone, so running this again changes nothing.
UPDATE pm_code_symbol
   SET search_tsv = coalesce(search_tsv, ''::tsvector) || pm_code_stems(name, qualified_name, docstring)
 WHERE NOT (tsvector_to_array(coalesce(search_tsv, ''::tsvector)) @> tsvector_to_array(pm_code_stems(name, qualified_name, docstring)));
