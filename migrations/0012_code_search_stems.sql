-- pegas-memory schema, version 12: stemmed words for code search, so that a symbol's natural-language words match
-- in any inflection, Russian as well as English ("сумма чисел" finds "Вычисляет сумму всех чисел", "суббота" finds
-- "в субботу", "Елка" finds "Ёлка", "decoding" finds "Decode a JSON document"). Idempotent.
--
-- search_tsv (version 7) holds the identifier-aware words as written (built in TypeScript, matched as prefixes);
-- search_stem holds the same fields' words through the `pegas` configuration (Russian Snowball for Cyrillic, which
-- folds ё to е; English Snowball for ASCII): the name and qualified name with `_`, `.`, `::`-like separators and
-- lower→upper case boundaries turned into spaces (weight B), and the docstring (weight D). A generated column, so
-- every writer and every existing row get it from the same expression.
ALTER TABLE pm_code_symbol ADD COLUMN IF NOT EXISTS search_stem tsvector GENERATED ALWAYS AS (
  setweight(to_tsvector('pegas'::regconfig,
    regexp_replace(translate(name || ' ' || qualified_name, '_.:/$#<>()[]', '            '),
                   '([[:lower:][:digit:]])([[:upper:]])', '\1 \2', 'g')), 'B')
  || setweight(to_tsvector('pegas'::regconfig, coalesce(docstring, '')), 'D')
) STORED;
CREATE INDEX IF NOT EXISTS pm_code_symbol_stem_idx ON pm_code_symbol USING gin (search_stem);
