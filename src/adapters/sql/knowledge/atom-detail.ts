/**
 * memory_get's reads beyond the atom itself: its links out and in (`pm_atom_link`, with the other atom's claim,
 * type and status) and its links to code symbols (`pm_atom_symbol_link`, with the symbol's repo, path:line and
 * qualified name), newest first, whether a merge absorbed it, and the atoms it superseded or was superseded by
 * (`supersedes` links, a superseder retracted since left out).
 */
import type { Sql } from "postgres";
import type { AtomLinks } from "../../../ports/store/atom-reads.ts";

/** Longest claim of a linked atom returned (characters). */
const CLAIM_CHARS = 300;

/** The links of `atomId`, at most `limit` per direction and for symbols after skipping `offset` of each, with totals. */
export async function atomLinks(sql: Sql<any>, atomId: number, limit: number, offset = 0): Promise<AtomLinks> {
  const link = (dir: "out" | "in") => {
    const [self, other] = dir === "out" ? ["src_atom_id", "dst_atom_id"] : ["dst_atom_id", "src_atom_id"];
    return sql`
      SELECT l.id, l.kind, l.confidence, l.source, l.inferred, l.created_at, o.id AS atom_id, left(o.claim, ${CLAIM_CHARS}) AS claim,
             o.type, o.status
        FROM pm_atom_link l JOIN pm_atom o ON o.id = l.${sql(other)}
       WHERE l.${sql(self)} = ${atomId}
       ORDER BY l.id DESC LIMIT ${limit} OFFSET ${offset}`;
  };
  const [out, inbound, symbols, merged, [totals], supersession] = await Promise.all([
    link("out"),
    link("in"),
    sql`
      SELECT l.id, l.kind, l.confidence, l.source, l.inferred, l.created_at, s.id AS symbol_id, s.repo, s.path, s.line_start,
             s.qualified_name, s.kind AS symbol_kind
        FROM pm_atom_symbol_link l JOIN pm_code_symbol s ON s.id = l.symbol_id
       WHERE l.atom_id = ${atomId}
       ORDER BY l.id DESC LIMIT ${limit} OFFSET ${offset}`,
    sql`SELECT id, kept_atom_id FROM pm_atom_merge WHERE absorbed_atom_id = ${atomId} AND undone_at IS NULL ORDER BY id DESC LIMIT 1`,
    // Totals apart from the pages: a page past the end still knows how many links there are.
    sql`SELECT (SELECT count(*) FROM pm_atom_link WHERE src_atom_id = ${atomId}) AS out_total,
               (SELECT count(*) FROM pm_atom_link WHERE dst_atom_id = ${atomId}) AS in_total,
               (SELECT count(*) FROM pm_atom_symbol_link WHERE atom_id = ${atomId}) AS symbols_total`,
    sql`SELECT ARRAY(SELECT l.src_atom_id FROM pm_atom_link l JOIN pm_atom b ON b.id = l.src_atom_id
                      WHERE l.kind = 'supersedes' AND l.dst_atom_id = ${atomId} AND b.status <> 'retracted'
                      ORDER BY l.id LIMIT ${limit}) AS by,
               ARRAY(SELECT l.dst_atom_id FROM pm_atom_link l
                      WHERE l.kind = 'supersedes' AND l.src_atom_id = ${atomId} ORDER BY l.id LIMIT ${limit}) AS of`,
  ]);
  const base = (r: Record<string, unknown>) => ({
    link_id: Number(r.id),
    kind: String(r.kind),
    confidence: Number(r.confidence),
    source: String(r.source),
    inferred: Boolean(r.inferred),
    created_at: new Date(r.created_at as string).toISOString(),
  });
  const atoms = (rows: Record<string, unknown>[]) =>
    rows.map((r) => ({
      ...base(r),
      atom_id: Number(r.atom_id),
      claim: String(r.claim),
      type: String(r.type),
      status: String(r.status),
    }));
  return {
    out: atoms(out),
    outTotal: Number(totals.out_total),
    in: atoms(inbound),
    inTotal: Number(totals.in_total),
    symbols: symbols.map((r) => ({
      ...base(r),
      symbol_id: Number(r.symbol_id),
      repo: String(r.repo),
      path: String(r.path),
      line: Number(r.line_start),
      qualified_name: String(r.qualified_name),
      symbol_kind: String(r.symbol_kind),
    })),
    symbolsTotal: Number(totals.symbols_total),
    mergedInto: merged.length ? { mergeId: Number(merged[0].id), atomId: Number(merged[0].kept_atom_id) } : null,
    supersededBy: (supersession[0].by as unknown[]).map(Number),
    supersedes: (supersession[0].of as unknown[]).map(Number),
  };
}
