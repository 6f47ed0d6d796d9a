/**
 * Lexical symbol search: the query's identifier words (code-words.ts) against each symbol's weighted words, ranked
 * by where the query matched — the whole name (exact case 4, any case 3.5), the qualified name (3, or its last
 * segments 2.5), else every query word as written (`text`) before words found only through their stems (`stem`),
 * each by the words' weighted rank (name 1, qualified name 0.4, signature 0.2, docstring 0.05) — then documented
 * before undocumented, public before `_private`, shorter paths first. Words as written are prefixes of identifier
 * words; stems are every query word through the `pegas` configuration, as a prefix, against the stemmed name and
 * docstring words that migration 0012's pm_code_stems adds (Russian and English inflections, ё = е); both kinds live
 * in search_tsv under one GIN index. When that finds fewer than asked, trigram similarity of the name or qualified
 * name (pg_trgm, threshold 0.3) adds the rest (typos).
 */
import type { Sql } from "postgres";
import type { CodeSearchHit, CodeSearchQuery } from "../../ports/code-store.ts";
import { SYMBOL_COLUMNS, symbolOfRow } from "./code-text.ts";
import { sanitizeText } from "../../domain/text.ts";
import { symbolTsqueryLiteral } from "./code-words.ts";

function filters(sql: Sql<any>, q: CodeSearchQuery) {
  return sql`${q.repo !== undefined ? sql`AND s.repo = ${q.repo}` : sql``}
             ${q.kind?.length ? sql`AND s.kind = ANY(${q.kind}::text[])` : sql``}
             ${q.language?.length ? sql`AND s.language = ANY(${q.language}::text[])` : sql``}`;
}

/**
 * The query's stems as prefixes, all required: each word through the `pegas` configuration (stop words dropped),
 * matched as a prefix of a stored stem, because Snowball stems one verb's forms apart (вычислить → вычисл,
 * вычисляет → вычисля). An empty tsquery (only stop words) matches nothing.
 */
function stemQuery(sql: Sql<any>, text: string) {
  // chr(39) is the quote of a tsquery lexeme; a lexeme holding a quote or a backslash (chr(92)) is left out.
  return sql`(SELECT array_to_string(array(
             SELECT chr(39) || l || chr(39) || ':*' FROM unnest(tsvector_to_array(to_tsvector('pegas', ${text}::text))) AS l
              WHERE strpos(l, chr(39)) = 0 AND strpos(l, chr(92)) = 0), ' & ')::tsquery)`;
}

async function wordHits(sql: Sql<any>, q: CodeSearchQuery, text: string, tsq: string): Promise<CodeSearchHit[]> {
  const lower = text.toLowerCase();
  const rows = await sql`
    SELECT ${sql.unsafe(SYMBOL_COLUMNS)}, t.tier, x.exact,
           ts_rank('{0.05, 0.2, 0.4, 1.0}'::float4[], s.search_tsv, CASE WHEN x.exact THEN ${tsq}::tsquery ELSE ${stemQuery(sql, text)} END) AS rank
      FROM pm_code_symbol s
      CROSS JOIN LATERAL (SELECT CASE WHEN s.name = ${text} THEN 4 WHEN lower(s.name) = ${lower} THEN 3.5
                                      WHEN lower(s.qualified_name) = ${lower} THEN 3
                                      WHEN right(lower(s.qualified_name), ${[...lower].length + 1}) = ${"." + lower} THEN 2.5
                                      ELSE 0 END AS tier) t
      CROSS JOIN LATERAL (SELECT s.search_tsv @@ ${tsq}::tsquery AS exact) x
     WHERE s.search_tsv @@ (${tsq}::tsquery || ${stemQuery(sql, text)}) ${filters(sql, q)}
     ORDER BY t.tier DESC, x.exact DESC, rank DESC, (s.docstring IS NULL), (left(s.name, 1) = '_'), length(s.path), s.path COLLATE "C", s.line_start
     LIMIT ${q.limit}`;
  return rows.map((r) => {
    const tier = Number(r.tier);
    const exact = r.exact === true;
    return {
      ...symbolOfRow(r),
      score: Number((tier + (exact ? 0.5 : 0) + 0.499 * Math.min(1, Number(r.rank))).toFixed(4)),
      match: tier >= 3.5 ? "name" : tier >= 2.5 ? "qualified_name" : exact ? "text" : "stem",
    };
  });
}

async function trigramHits(sql: Sql<any>, q: CodeSearchQuery, text: string, exclude: number[], limit: number): Promise<CodeSearchHit[]> {
  const rows = await sql`
    SELECT ${sql.unsafe(SYMBOL_COLUMNS)}, greatest(similarity(s.name, ${text}), similarity(s.qualified_name, ${text})) AS sim
      FROM pm_code_symbol s
     WHERE (s.name % ${text} OR s.qualified_name % ${text}) AND NOT (s.id = ANY(${exclude}::bigint[])) ${filters(sql, q)}
     ORDER BY sim DESC, length(s.path), s.path COLLATE "C", s.line_start
     LIMIT ${limit}`;
  return rows.map((r) => ({ ...symbolOfRow(r), score: Number((Number(r.sim) / 2).toFixed(4)), match: "trigram" as const }));
}

/**
 * Runs a search (see CodeStore.searchSymbols); the query is cut to 500 characters, made storable (NUL removed, a
 * lone surrogate replaced: PostgreSQL refuses both) and trimmed.
 */
export async function searchSymbols(sql: Sql<any>, q: CodeSearchQuery): Promise<CodeSearchHit[]> {
  const text = sanitizeText(q.query.slice(0, 500)).text.trim();
  if (!text) return [];
  const tsq = symbolTsqueryLiteral(text);
  const hits = tsq ? await wordHits(sql, q, text, tsq) : [];
  if (hits.length >= q.limit) return hits;
  const more = await trigramHits(sql, q, text, hits.map((h) => h.id), q.limit - hits.length);
  return [...hits, ...more];
}
