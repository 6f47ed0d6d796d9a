/**
 * Lexical symbol search: the query's identifier words (code-words.ts) against each symbol's weighted words, ranked
 * by where the query matched — for a dotted query (`html.parser.HTMLParser.feed`) the module-qualified name ending
 * in the whole query (tier 5, match `qualified_name`); the whole name (exact case 4, any case 3.5); the qualified
 * name (3, or its last segments 2.5); else every query word as written (`text`) before words found only through
 * their stems (`stem`). Text matches are ordered by the name's own words — exactly the query's words (`store code`
 * → storeCode), then every query word whole in the name (StoreCodeInput), then the rest (prefixes, other fields) —
 * and then, like stem matches, by the words' weighted rank (name 1, qualified name 0.4, signature 0.2, docstring
 * 0.05); then documented before undocumented, public before `_private`, shorter paths first. Words as written are
 * prefixes of identifier words; stems are every query word through the `pegas` configuration, as a prefix, against
 * the stemmed name and docstring words that migration 0012's pm_code_stems adds (Russian and English inflections,
 * ё = е); both kinds live in search_tsv under one GIN index. When that finds fewer than asked, trigram similarity of
 * the name or qualified name (pg_trgm, threshold 0.3) adds the rest (typos).
 */
import type { Sql } from "postgres";
import type { CodeSearchHit, CodeSearchQuery } from "../../../ports/store/code-store.ts";
import { SYMBOL_COLUMNS, symbolOfRow } from "./text.ts";
import { sanitizeText } from "../../../domain/text.ts";
import { repoNotFound } from "./graph.ts";
import { nameWordQueries, symbolTsqueryLiteral } from "./words.ts";

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

/** A query naming a qualified path: two identifiers joined by `.` or `::` (`html.parser.HTMLParser.feed`, `io::Read`). */
const DOTTED = /[\p{L}\p{N}_$](?:\.|::)[\p{L}\p{N}_$]/u;

/** A qualified name with `::`, `/` and `#` as `.`, lower-cased (TypeScript's lower, as the SQL below is compared). */
const dotNormal = (t: string) => t.toLowerCase().replace(/::|[/#]/g, ".");

/**
 * Tier 5 for a dotted query: the whole query is the symbol's module-qualified name (`<module>.<qualified name>`, a
 * file's module symbol its module name; `::`, `/`, `#` read as `.`, any case) or a dot-bounded suffix of it. Null
 * for a query without a dot (the name tiers cover it).
 */
function dottedTier(sql: Sql<any>, text: string) {
  if (!DOTTED.test(text)) return null;
  const q = dotNormal(text);
  return sql`(SELECT CASE WHEN f.fq = ${q} OR right(f.fq, ${[...q].length + 1}) = ${`.${q}`} THEN 5 ELSE 0 END
                FROM (SELECT lower(replace(translate(CASE WHEN s.metadata @> '{"file": true}'::jsonb THEN s.qualified_name
                        ELSE coalesce((SELECT m.qualified_name FROM pm_code_symbol m
                                        WHERE m.repo = s.repo AND m.path = s.path AND m.metadata @> '{"file": true}'::jsonb LIMIT 1) || '.', '')
                             || s.qualified_name END, '/#', '..'), '::', '.')) AS fq) f)`;
}

/**
 * How the name's own words meet the query's (code-words.ts nameWordQueries): 2 when they are exactly the query's
 * words in order (`store code` → storeCode, store_code), 1 when the name holds every query word whole
 * (StoreCodeInput, CodeStore), else 0 (prefixes, other fields).
 */
function nameWords(sql: Sql<any>, text: string) {
  const w = nameWordQueries(text);
  if (!w.all) return sql`0`;
  const exact = w.phrase === null ? sql`true` : sql`s.search_tsv @@ ${w.phrase}::tsquery`;
  return sql`CASE WHEN lower(translate(s.name, '_$', '')) = ${w.joined} AND ${exact} THEN 2
                  WHEN s.search_tsv @@ ${w.all}::tsquery THEN 1 ELSE 0 END`;
}

async function wordHits(sql: Sql<any>, q: CodeSearchQuery, text: string, tsq: string): Promise<CodeSearchHit[]> {
  const lower = text.toLowerCase();
  const dotted = dottedTier(sql, text);
  // A dotted query's last segment as a name (index-backed) adds the symbols its module-qualified name ends with,
  // even when the module's words are nowhere in the symbol's own (`code-query.codeGraph`).
  const last = dotted
    ? (text
        .split(/\.|::|[/#]/)
        .filter(Boolean)
        .at(-1) ?? null)
    : null;
  const words = sql`s.search_tsv @@ (${tsq}::tsquery || ${stemQuery(sql, text)})`;
  const rows = await sql`
    SELECT ${sql.unsafe(SYMBOL_COLUMNS)}, t.tier, x.exact, CASE WHEN x.exact AND t.tier = 0 THEN ${nameWords(sql, text)} ELSE 0 END AS words,
           ts_rank('{0.05, 0.2, 0.4, 1.0}'::float4[], s.search_tsv, CASE WHEN x.exact THEN ${tsq}::tsquery ELSE ${stemQuery(sql, text)} END) AS rank
      FROM pm_code_symbol s
      CROSS JOIN LATERAL (SELECT CASE WHEN ${dotted ?? sql`0`} = 5 THEN 5
                                      WHEN s.name = ${text} THEN 4 WHEN lower(s.name) = ${lower} THEN 3.5
                                      WHEN lower(s.qualified_name) = ${lower} THEN 3
                                      WHEN right(lower(s.qualified_name), ${[...lower].length + 1}) = ${`.${lower}`} THEN 2.5
                                      ELSE 0 END AS tier) t
      CROSS JOIN LATERAL (SELECT s.search_tsv @@ ${tsq}::tsquery AS exact) x
     WHERE ${last === null ? words : sql`(${words} OR s.name = ${last}) AND (t.tier = 5 OR ${words})`} ${filters(sql, q)}
     ORDER BY t.tier DESC, x.exact DESC, words DESC, rank DESC, (s.docstring IS NULL), (left(s.name, 1) = '_'), length(s.path), s.path COLLATE "C", s.line_start
     LIMIT ${q.limit}`;
  return rows.map((r) => {
    const tier = Number(r.tier);
    const exact = r.exact === true;
    const words = Number(r.words);
    return {
      ...symbolOfRow(r),
      score: Number((tier + (exact ? 0.5 + 0.5 * words : 0) + 0.499 * Math.min(1, Number(r.rank))).toFixed(4)),
      match:
        tier >= 5 ? "qualified_name" : tier >= 3.5 ? "name" : tier >= 2.5 ? "qualified_name" : exact ? "text" : "stem",
    };
  });
}

async function trigramHits(
  sql: Sql<any>,
  q: CodeSearchQuery,
  text: string,
  exclude: number[],
  limit: number,
): Promise<CodeSearchHit[]> {
  const rows = await sql`
    SELECT ${sql.unsafe(SYMBOL_COLUMNS)}, greatest(similarity(s.name, ${text}), similarity(s.qualified_name, ${text})) AS sim
      FROM pm_code_symbol s
     WHERE (s.name % ${text} OR s.qualified_name % ${text}) AND NOT (s.id = ANY(${exclude}::bigint[])) ${filters(sql, q)}
     ORDER BY sim DESC, length(s.path), s.path COLLATE "C", s.line_start
     LIMIT ${limit}`;
  return rows.map((r) => ({
    ...symbolOfRow(r),
    score: Number((Number(r.sim) / 2).toFixed(4)),
    match: "trigram" as const,
  }));
}

/**
 * Runs a search (see CodeStore.searchSymbols); the query is cut to 500 characters, made storable (NUL removed, a
 * lone surrogate replaced: PostgreSQL refuses both) and trimmed. @throws PegasError NOT_FOUND when `q.repo` is
 * given and no file of it is stored (checked only when nothing matched).
 */
export async function searchSymbols(sql: Sql<any>, q: CodeSearchQuery): Promise<CodeSearchHit[]> {
  const text = sanitizeText(q.query.slice(0, 500)).text.trim();
  const tsq = text ? symbolTsqueryLiteral(text) : null;
  const hits = tsq ? await wordHits(sql, q, text, tsq) : [];
  const more =
    !text || hits.length >= q.limit
      ? []
      : await trigramHits(
          sql,
          q,
          text,
          hits.map((h) => h.id),
          q.limit - hits.length,
        );
  if (!hits.length && !more.length && q.repo !== undefined) {
    const [stored] = await sql`SELECT EXISTS (SELECT 1 FROM pm_code_file WHERE repo = ${q.repo}) AS yes`;
    if (!stored.yes) throw await repoNotFound(sql, q.repo);
  }
  return [...hits, ...more];
}
