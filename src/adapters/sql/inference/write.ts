/**
 * Stores one round of derived edges (`pm_inf_n`, see infer-eval.ts) in the table that matches their endpoints'
 * node types, set-based, inside the caller's transaction:
 * - atom → atom: pm_atom_link; atom → symbol: pm_atom_symbol_link;
 * - symbol or module → symbol or name: pm_code_dependency (repository of the first premise, no path: the edge was
 *   written by no file; `dst_name` is the target symbol's qualified name, or the name);
 * - any other pair (symbol → atom, atom → name, … → module) fits no table: counted as skipped, never stored.
 * Each stored edge gets `inferred = true`, `source = 'inference'`, `justification = {rule, premises: [{origin, id}]}`,
 * its rows in pm_inference_premise, and an outbox `upsert` row (entity atom_link, atom_symbol_link or
 * code_dependency), so the graph projection follows like for any edge.
 */
import type { TransactionSql } from "postgres";

type Tx = TransactionSql<any>;

/** Outbox entity type of each edge table. */
export const EDGE_ENTITY: Readonly<Record<string, string>> = {
  pm_atom_link: "atom_link",
  pm_atom_symbol_link: "atom_symbol_link",
  pm_code_dependency: "code_dependency",
};

/** SQL: the outbox entity of an edge table name in column `col`. */
export const ENTITY_CASE = (col: string) =>
  `CASE ${col} WHEN 'pm_atom_link' THEN 'atom_link' WHEN 'pm_atom_symbol_link' THEN 'atom_symbol_link' ELSE 'code_dependency' END`;

/** SQL: the edge table that holds a derived edge between typed node ids (NULL: none can). */
export const TABLE_OF = (src: string, dst: string, repo: string) => `CASE
  WHEN ${src} LIKE 'atom:%' AND ${dst} LIKE 'atom:%' THEN 'pm_atom_link'
  WHEN ${src} LIKE 'atom:%' AND ${dst} LIKE 'symbol:%' THEN 'pm_atom_symbol_link'
  WHEN (${src} LIKE 'symbol:%' OR ${src} LIKE 'module:%') AND (${dst} LIKE 'symbol:%' OR ${dst} LIKE 'name:%') AND ${repo} IS NOT NULL
    THEN 'pm_code_dependency' END`;

/** SQL: a new row id of that table, drawn from its own sequence (ids are known before the insert, so nothing is joined back). */
export const NEXT_ID = (tbl: string) => `CASE ${tbl} WHEN 'pm_atom_link' THEN nextval('pm_atom_link_id_seq'::regclass)
  WHEN 'pm_atom_symbol_link' THEN nextval('pm_atom_symbol_link_id_seq'::regclass)
  WHEN 'pm_code_dependency' THEN nextval('pm_code_dependency_id_seq'::regclass) END`;

const JUSTIFICATION = `jsonb_build_object('rule', c.rule, 'premises',
  (SELECT jsonb_agg(jsonb_build_object('origin', u.o, 'id', u.i) ORDER BY u.n) FROM unnest(c.porig, c.pids) WITH ORDINALITY AS u(o, i, n)))`;

/** Per-rule counts of a stored round. */
export interface RoundStored {
  rule: number;
  added: number;
  skipped: number;
}

/**
 * Stores `pm_inf_n` (see the module comment; its `tbl` and `oid` were chosen when it was filled), clears `oid` of rows
 * not stored (a concurrent writer stored the same atom link first; a target symbol went), and adds the rows to
 * `pm_inf_e` (stored ones as live premises, the others only to block deriving them again). Returns per-rule counts.
 */
export async function storeRound(tx: Tx): Promise<RoundStored[]> {
  const planned = new Map(
    (await tx.unsafe("SELECT tbl, count(*)::int AS n FROM pm_inf_n WHERE tbl IS NOT NULL GROUP BY tbl")).map((r) => [
      String(r.tbl),
      Number(r.n),
    ]),
  );
  const stored = new Map<string, number>();
  if (planned.has("pm_atom_link")) {
    stored.set(
      "pm_atom_link",
      (
        await tx.unsafe(`
      INSERT INTO pm_atom_link (id, src_atom_id, dst_atom_id, kind, confidence, source, inferred, justification)
      SELECT c.oid, substr(c.src, 6)::bigint, substr(c.dst, 6)::bigint, c.kind, least(1, greatest(0, c.conf)), 'inference', true, ${JUSTIFICATION}
        FROM pm_inf_n c WHERE c.tbl = 'pm_atom_link'
      ON CONFLICT (src_atom_id, dst_atom_id, kind) DO NOTHING`)
      ).count,
    );
  }
  if (planned.has("pm_atom_symbol_link")) {
    stored.set(
      "pm_atom_symbol_link",
      (
        await tx.unsafe(`
      INSERT INTO pm_atom_symbol_link (id, atom_id, symbol_id, kind, confidence, source, inferred, justification)
      SELECT c.oid, substr(c.src, 6)::bigint, substr(c.dst, 8)::bigint, c.kind, least(1, greatest(0, c.conf)), 'inference', true, ${JUSTIFICATION}
        FROM pm_inf_n c WHERE c.tbl = 'pm_atom_symbol_link'
      ON CONFLICT (atom_id, symbol_id, kind) DO NOTHING`)
      ).count,
    );
  }
  if (planned.has("pm_code_dependency")) {
    stored.set(
      "pm_code_dependency",
      (
        await tx.unsafe(`
      INSERT INTO pm_code_dependency (id, repo, src_symbol_id, src_module, dst_symbol_id, dst_name, kind, confidence, source, inferred, justification)
      SELECT c.oid, c.repo,
             CASE WHEN c.src LIKE 'symbol:%' THEN substr(c.src, 8)::bigint END,
             CASE WHEN c.src LIKE 'module:%' THEN substr(c.src, 8) END,
             CASE WHEN c.dst LIKE 'symbol:%' THEN substr(c.dst, 8)::bigint END,
             CASE WHEN c.dst LIKE 'name:%' THEN substr(c.dst, 6) ELSE s.qualified_name END,
             c.kind, least(1, greatest(0, c.conf)), 'inference', true, ${JUSTIFICATION}
        FROM pm_inf_n c
        LEFT JOIN pm_code_symbol s ON s.id = (CASE WHEN c.dst LIKE 'symbol:%' THEN substr(c.dst, 8)::bigint END) -- never casts a name
       WHERE c.tbl = 'pm_code_dependency' AND (c.dst LIKE 'name:%' OR s.id IS NOT NULL)`)
      ).count,
    );
  }
  for (const [tbl, n] of planned) {
    if ((stored.get(tbl) ?? 0) < n)
      await tx.unsafe(
        `UPDATE pm_inf_n c SET oid = NULL WHERE c.tbl = $1 AND NOT EXISTS (SELECT 1 FROM ${tbl} t WHERE t.id = c.oid)`,
        [tbl],
      );
  }
  await tx.unsafe(`
    INSERT INTO pm_inference_premise (derived_origin, derived_id, premise_origin, premise_id, rule_atom_id)
    SELECT c.tbl, c.oid, u.o, u.i, c.rule FROM pm_inf_n c, unnest(c.porig, c.pids) AS u(o, i)
     WHERE c.oid IS NOT NULL
    ON CONFLICT DO NOTHING`);
  await tx.unsafe(
    `INSERT INTO pm_outbox (entity_type, entity_id, op) SELECT ${ENTITY_CASE("tbl")}, oid::text, 'upsert' FROM pm_inf_n WHERE oid IS NOT NULL ORDER BY oid`,
  );
  await tx.unsafe(`
    INSERT INTO pm_inf_e (src, dst, kind, origin, oid, repo, conf, live)
    SELECT src, dst, kind, coalesce(tbl, 'skipped'), oid, repo, conf, oid IS NOT NULL FROM pm_inf_n`);
  await tx.unsafe("ANALYZE pm_inf_e"); // the relation grew: the next round's joins are planned on its new size
  const rows = await tx.unsafe(`
    SELECT rule, count(*) FILTER (WHERE oid IS NOT NULL)::int AS added, count(*) FILTER (WHERE tbl IS NULL)::int AS skipped
      FROM pm_inf_n GROUP BY rule`);
  return rows.map((r) => ({ rule: Number(r.rule), added: Number(r.added), skipped: Number(r.skipped) }));
}
