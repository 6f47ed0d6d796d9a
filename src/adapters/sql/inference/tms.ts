/**
 * Truth maintenance of inferred edges: a justification-based TMS (Doyle, "A Truth Maintenance System", Artificial
 * Intelligence 12, 1979) kept in SQL, with the delete-and-rederive scheme of incremental view maintenance (Gupta,
 * Mumick & Subrahmanian, "Maintaining Views Incrementally", SIGMOD 1993). Every derived edge records ONE
 * justification — its rule and premise edges — in its `justification` column and in `pm_inference_premise`.
 *
 * Call {@link retractUnsupported} INSIDE the transaction that removes or changes premise edges (deleted rows,
 * links of an atom that became retracted or stale, dependency targets that changed):
 * 1. over-delete: every inferred edge whose recorded justification names a gone premise is deleted, then every
 *    inferred edge justified by one of those, and so on (cascading, derived from derived); an inferred edge that is
 *    itself named among `premises` and still exists is deleted too (its endpoint changed);
 * 2. re-derive: each deleted edge that an applied rule with its kind as head — not only the recorded one — still
 *    derives from premises that are live now, inferred ones included, is stored again (a new row, new id) with that
 *    justification.
 * Deleted rows get outbox `delete` rows, re-derived ones `upsert` rows. The caller's transaction makes it atomic.
 *
 * memory_forget (atom retraction) calls {@link retractForAtoms} after setting the atoms' status; the code store calls
 * {@link retractAfterCodeClear} from code-write.ts.
 */
import type { TransactionSql } from "postgres";
import type { ChainRule } from "../../../domain/inference/rules.ts";
import { fixpoint, loadRelation, seedDelta } from "./eval.ts";
import { ENTITY_CASE } from "./write.ts";
import type { InferLimits } from "../../../ports/store/inference.ts";

type Tx = TransactionSql<any>;

/** An edge of the pm_edge relation: its table and row id. */
export interface EdgeRef {
  origin: "pm_atom_link" | "pm_code_dependency" | "pm_atom_symbol_link";
  id: number;
}

/** What a maintenance step did. */
export interface TmsOutcome {
  /** Inferred edges deleted (over-deletion). */
  retracted: number;
  /** Of those, re-stored because another justification holds them. */
  rederived: number;
}

const NONE: TmsOutcome = { retracted: 0, rederived: 0 };

/** The rules memory_infer applied whose atom is neither retracted nor stale. */
export async function appliedRules(tx: Tx): Promise<ChainRule[]> {
  const rows = await tx`
    SELECT r.rule_atom_id, r.body, r.head FROM pm_inference_rule r JOIN pm_atom a ON a.id = r.rule_atom_id
     WHERE a.status NOT IN ('retracted', 'stale') ORDER BY r.rule_atom_id`;
  return rows.map((r) => ({ ruleAtomId: Number(r.rule_atom_id), body: r.body as string[], head: String(r.head) }));
}

const kindsOf = (rules: ChainRule[]) => [...new Set(rules.flatMap((r) => [...r.body, r.head]))];

/**
 * Retracts the inferred edges that lost their support because `premises` were removed or changed, cascading, and
 * re-derives those another justification still holds (see the module comment). Runs inside the caller's `tx`. Cost:
 * one query when nothing was ever inferred; else the inference lock (transaction-scoped advisory lock, shared with
 * memory_infer) and an indexed lookup of the premise index; when something was derived from `premises`, also a scan
 * of the edges of the applied rules' kinds for the re-derivation.
 * @param premises edges gone or changed, by table and id (duplicates and unknown ids are fine).
 * @param opts.rederive false: over-delete only.
 * @returns how many inferred edges were deleted and how many of them re-derived.
 * @throws the driver's errors (the caller maps them and rolls back).
 */
export async function retractUnsupported(
  tx: Tx,
  premises: EdgeRef[],
  opts: { rederive?: boolean } = {},
): Promise<TmsOutcome> {
  if (!premises.length) return NONE;
  const [any] = await tx`SELECT EXISTS (SELECT 1 FROM pm_inference_premise) AS yes`;
  if (!any.yes) return NONE;
  // Serialized with memory_infer runs, so a run never stores an edge derived from a premise deleted meanwhile.
  await tx`SELECT pg_advisory_xact_lock(hashtextextended('pm_inference', 0))`;
  const origins = premises.map((p) => p.origin);
  const ids = premises.map((p) => p.id);
  const gone = await tx`
    WITH RECURSIVE gone(origin, id) AS (
      SELECT o, i FROM unnest(${origins}::text[], ${ids}::bigint[]) AS x(o, i)
      UNION
      SELECT p.derived_origin, p.derived_id FROM pm_inference_premise p JOIN gone g ON p.premise_origin = g.origin AND p.premise_id = g.id)
    SELECT origin, id FROM gone`;
  const by = (t: string) => gone.filter((g) => g.origin === t).map((g) => Number(g.id));
  const deleted = [
    ...(await tx`DELETE FROM pm_atom_link WHERE id = ANY(${by("pm_atom_link")}::bigint[]) AND inferred
                 RETURNING 'pm_atom_link' AS tbl, id, 'atom:' || src_atom_id AS src, 'atom:' || dst_atom_id AS dst, kind, justification->>'rule' AS rule`),
    ...(await tx`DELETE FROM pm_atom_symbol_link WHERE id = ANY(${by("pm_atom_symbol_link")}::bigint[]) AND inferred
                 RETURNING 'pm_atom_symbol_link' AS tbl, id, 'atom:' || atom_id AS src, 'symbol:' || symbol_id AS dst, kind, justification->>'rule' AS rule`),
    ...(await tx`DELETE FROM pm_code_dependency WHERE id = ANY(${by("pm_code_dependency")}::bigint[]) AND inferred
                 RETURNING 'pm_code_dependency' AS tbl, id, COALESCE('symbol:' || src_symbol_id, 'module:' || src_module) AS src,
                           COALESCE('symbol:' || dst_symbol_id, 'name:' || dst_name) AS dst, kind, justification->>'rule' AS rule`),
  ];
  if (!deleted.length) return NONE;
  const tbls = deleted.map((d) => String(d.tbl));
  const dids = deleted.map((d) => Number(d.id));
  await tx`DELETE FROM pm_inference_premise p USING unnest(${tbls}::text[], ${dids}::bigint[]) AS x(o, i)
            WHERE p.derived_origin = x.o AND p.derived_id = x.i`;
  await tx.unsafe(
    `INSERT INTO pm_outbox (entity_type, entity_id, op)
                   SELECT ${ENTITY_CASE("o")}, i::text, 'delete' FROM unnest($1::text[], $2::bigint[]) AS x(o, i)`,
    [tbls, dids],
  );
  if (opts.rederive === false) return { retracted: deleted.length, rederived: 0 };
  return { retracted: deleted.length, rederived: await rederive(tx, deleted) };
}

/** Re-stores the deleted edges that a justification over the live edges still supports; returns how many. */
async function rederive(tx: Tx, deleted: Array<Record<string, unknown>>): Promise<number> {
  const rules = await appliedRules(tx);
  // Any applied rule with the edge's kind as head may hold it, not only the recorded one (which may be the rule
  // atom just forgotten): a round stores one justification per edge, the others are found again here.
  const heads = new Set(rules.map((r) => r.head));
  const targets = deleted.filter((d) => heads.has(String(d.kind)) && !String(d.src).startsWith("name:"));
  if (!targets.length) return 0;
  const used = rules.filter((x) => targets.some((t) => String(t.kind) === x.head));
  // Every re-derivation is a path of at most the longest body from a target's source: only that neighbourhood is read.
  await loadRelation(tx, kindsOf(rules), {
    nodes: targets.map((t) => String(t.src)),
    hops: Math.max(...used.map((x) => x.body.length)),
  });
  await tx`INSERT INTO pm_inf_t (src, dst, kind, rule)
           SELECT * FROM unnest(${targets.map((t) => String(t.src))}::text[], ${targets.map((t) => String(t.dst))}::text[],
                                ${targets.map((t) => String(t.kind))}::text[], ${targets.map((t) => Number(t.rule))}::bigint[])`;
  const limits: InferLimits = { maxIterations: targets.length + 1, maxNewEdges: targets.length };
  const r = await fixpoint(tx, used, { mode: "targets", limits });
  return r.rules.reduce((n, x) => n + x.edgesAdded, 0);
}

/**
 * The sweep memory_infer runs first (a safety net for writers that changed premises without calling the TMS):
 * every premise edge recorded in pm_inference_premise that no longer exists, or whose atom endpoint is retracted or
 * stale, is treated as gone ({@link retractUnsupported}: over-delete, then re-derive). Inside `tx`; one scan of the
 * premise index joined to the edge tables.
 */
export async function retractStalePremises(tx: Tx): Promise<TmsOutcome> {
  const rows = await tx`
    SELECT DISTINCT p.premise_origin AS origin, p.premise_id AS id FROM pm_inference_premise p
      LEFT JOIN pm_atom_link l ON p.premise_origin = 'pm_atom_link' AND l.id = p.premise_id
      LEFT JOIN pm_atom la ON la.id = l.src_atom_id LEFT JOIN pm_atom lb ON lb.id = l.dst_atom_id
      LEFT JOIN pm_atom_symbol_link s ON p.premise_origin = 'pm_atom_symbol_link' AND s.id = p.premise_id
      LEFT JOIN pm_atom sa ON sa.id = s.atom_id
      LEFT JOIN pm_code_dependency d ON p.premise_origin = 'pm_code_dependency' AND d.id = p.premise_id
     WHERE CASE p.premise_origin
             WHEN 'pm_atom_link' THEN l.id IS NULL OR la.status IN ('retracted', 'stale') OR lb.status IN ('retracted', 'stale')
             WHEN 'pm_atom_symbol_link' THEN s.id IS NULL OR sa.status IN ('retracted', 'stale')
             ELSE d.id IS NULL END`;
  return retractUnsupported(
    tx,
    rows.map((r) => ({ origin: r.origin as EdgeRef["origin"], id: Number(r.id) })),
  );
}

/**
 * Retracts what depended on the links of atoms that became retracted or stale (memory_forget, a merge): every
 * atom link and atom–symbol link touching `atomIds` is treated as gone; inferred edges justified by a rule held by
 * one of these atoms go too. Call it in the transaction that changed the atoms' status.
 * @returns as {@link retractUnsupported}.
 */
export async function retractForAtoms(tx: Tx, atomIds: number[]): Promise<TmsOutcome> {
  if (!atomIds.length) return NONE;
  const rows = await tx`
    SELECT 'pm_atom_link' AS origin, id FROM pm_atom_link WHERE src_atom_id = ANY(${atomIds}::bigint[])
    UNION ALL SELECT 'pm_atom_link', id FROM pm_atom_link WHERE dst_atom_id = ANY(${atomIds}::bigint[])
    UNION ALL SELECT 'pm_atom_symbol_link', id FROM pm_atom_symbol_link WHERE atom_id = ANY(${atomIds}::bigint[])
    UNION ALL SELECT derived_origin, derived_id FROM pm_inference_premise WHERE rule_atom_id = ANY(${atomIds}::bigint[])`;
  return retractUnsupported(
    tx,
    rows.map((r) => ({ origin: r.origin as EdgeRef["origin"], id: Number(r.id) })),
  );
}

/**
 * The code store's hook (code-write.ts, after clearing files): the files' dependencies and atom–symbol links were
 * deleted and other files' dependencies on their symbols lost their target, so whatever was derived from them is
 * retracted unless another justification holds it. Edges through the files' NEW rows are derived after the
 * resolution pass by {@link propagateFromNodes} (see infer-store.ts, inferringCodeStore).
 */
export function retractAfterCodeClear(
  tx: Tx,
  cleared: { dependencies: number[]; unresolved: number[]; links: number[] },
): Promise<TmsOutcome> {
  return retractUnsupported(tx, [
    ...cleared.dependencies.map((id) => ({ origin: "pm_code_dependency" as const, id })),
    ...cleared.unresolved.map((id) => ({ origin: "pm_code_dependency" as const, id })),
    ...cleared.links.map((id) => ({ origin: "pm_atom_symbol_link" as const, id })),
  ]);
}

/**
 * Incremental insertion: applies the applied rules semi-naively with Δ = the live edges touching `nodes` (typed node
 * ids, e.g. the symbols of files just stored), so derivations through new or changed edges are made. Inside `tx`.
 * @returns edges derived and rounds run. @throws PegasError LIMIT_EXCEEDED when `limits` are hit (roll back).
 */
export async function propagateFromNodes(
  tx: Tx,
  nodes: string[],
  limits: InferLimits,
): Promise<{ added: number; iterations: number }> {
  if (!nodes.length) return { added: 0, iterations: 0 };
  const rules = await appliedRules(tx);
  if (!rules.length) return { added: 0, iterations: 0 };
  await loadRelation(tx, kindsOf(rules));
  if (!(await seedDelta(tx, nodes))) return { added: 0, iterations: 0 };
  const r = await fixpoint(tx, rules, { mode: "delta", limits });
  return { added: r.rules.reduce((n, x) => n + x.edgesAdded, 0), iterations: r.iterations };
}

export { kindsOf };
