/**
 * Ranking corpus documents from ranked atoms, for the retrieval benchmark: a document's rank is that of its best
 * atom; an atom ranks every document it cites, in citation order; a stored document stands for every corpus entry
 * ingested into it (identical texts share one content-addressed document). Also the naive PostgreSQL baseline:
 * `ts_rank` over an OR of the query's lexemes.
 */
import type { Sql } from "postgres";
import type { Services } from "../../src/core/services.ts";

/** atom id → cited document ids (citation order), and stored document id → corpus ids (ingest order). */
export interface DocMaps {
  atomDocs: Map<number, number[]>;
  docCorpus: Map<number, string[]>;
}

/** The services' postgres.js client (the SQL store keeps its database as `db`). */
export function sqlOf(services: Services): Sql<any> {
  const db = (services.maintenance as unknown as { db?: { sql?: Sql<any> } }).db;
  if (!db?.sql) throw new Error("the store exposes no SQL client (expected SqlCanonicalStore.db.sql)");
  return db.sql;
}

/** Reads atom → documents from pm_citation, ordered as memory_search lists citations (by citation id). */
export async function atomDocuments(services: Services): Promise<Map<number, number[]>> {
  const rows = await sqlOf(
    services,
  )`SELECT atom_id, array_agg(doc_id ORDER BY id) AS docs FROM pm_citation GROUP BY atom_id`;
  return new Map(rows.map((r) => [Number(r.atom_id), (r.docs as Array<number | string>).map(Number)]));
}

/** The first `n` distinct corpus ids reached by walking ranked atoms (see module doc). */
export function rankDocuments(atomIds: number[], maps: DocMaps, n = 10): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  for (const atomId of atomIds) {
    for (const docId of maps.atomDocs.get(atomId) ?? []) {
      for (const cid of maps.docCorpus.get(docId) ?? []) {
        if (seen.has(cid)) continue;
        seen.add(cid);
        out.push(cid);
        if (out.length === n) return out;
      }
    }
  }
  return out;
}

/** The tsquery text OR-ing lexemes, each quoted ('' and \\ escaped). */
export function orQuery(lexemes: string[]): string {
  return [...new Set(lexemes)].map((l) => `'${l.replaceAll("\\", "\\\\").replaceAll("'", "''")}'`).join(" | ");
}

/**
 * Baseline ranking: atoms matching an OR of the query's lexemes (those the store's analyzer, `to_tsvector('pegas',
 * query)`, gives), ordered by `ts_rank` (normalization 0), best `limit`. The tsquery is the lexemes as they are
 * (`'a' | 'b'`::tsquery); with `restem` it is `to_tsquery('pegas', 'a' | 'b')`, which stems each stem again, and the
 * Russian Snowball stemmer is not idempotent (a second pass strips more), so that variant is weaker on Russian.
 */
export async function tsRankAtoms(services: Services, query: string, limit: number, restem = false): Promise<number[]> {
  const lexemes = (await services.searchReads.analyze(query)).map((l) => l.lexeme);
  if (lexemes.length === 0) return [];
  const sql = sqlOf(services);
  const tsquery = restem ? sql`to_tsquery('pegas', ${orQuery(lexemes)})` : sql`${orQuery(lexemes)}::tsquery`;
  const rows = await sql`
    SELECT a.id FROM pm_atom a, (SELECT ${tsquery} AS q) x
     WHERE a.search_tsv @@ x.q AND a.status <> 'retracted'
     ORDER BY ts_rank(a.search_tsv, x.q) DESC, a.id
     LIMIT ${limit}`;
  return rows.map((r) => Number(r.id));
}
