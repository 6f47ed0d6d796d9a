/**
 * Semi-naive evaluation of chain rules in SQL, inside the caller's transaction (Bancilhon & Ramakrishnan 1986;
 * Ullman, "Principles of Database and Knowledge-Base Systems", vol. I, §3.5): each round joins only the edges new
 * in the previous round (Δ) with the whole relation, so a derivation is found in the round after its last premise
 * appeared, and the run stops at the first round that derives nothing (the fixpoint; a finite set of nodes bounds
 * it, so cycles terminate).
 *
 * Working tables (temporary, dropped at commit): `pm_inf_e` the relation restricted to the rules' kinds (a `live`
 * edge may be a premise: both atom endpoints neither retracted nor stale; every edge blocks re-deriving itself),
 * `pm_inf_d` the Δ, `pm_inf_n` one round's new edges. Storing them is infer-write.ts.
 *
 * Semantics: a rule is applied exactly as written (Datalog). On a cycle A→B→C→A a transitive rule therefore derives
 * every pair, self-loops A→A, B→B, C→C included, and stops. A derived edge's confidence is the product of its
 * premises' confidences.
 */
import type { TransactionSql } from "postgres";
import type { ChainRule } from "../../../domain/inference/rules.ts";
import { PegasError } from "../../../errors.ts";
import type { InferLimits, RuleOutcome } from "../../../ports/store/inference.ts";
import { NEXT_ID, storeRound, TABLE_OF } from "./write.ts";

type Tx = TransactionSql<any>;

/** Atom statuses whose links are no premises. */
const DEAD = "('retracted', 'stale')";

/** The edges of the three tables as pm_inf_e rows, filtered by `where` ($1 = kinds; `a`, `sa`, `d` aliases). */
function edgesSql(where: { atomLink: string; atomSymbol: string; dependency: string }): string {
  return `
    SELECT 'atom:' || l.src_atom_id AS src, 'atom:' || l.dst_atom_id AS dst, l.kind, 'pm_atom_link'::text AS origin, l.id AS oid,
           NULL::text AS repo, l.confidence::float8 AS conf, (sa.status NOT IN ${DEAD} AND da.status NOT IN ${DEAD}) AS live
      FROM pm_atom_link l JOIN pm_atom sa ON sa.id = l.src_atom_id JOIN pm_atom da ON da.id = l.dst_atom_id
     WHERE l.kind = ANY($1::text[]) ${where.atomLink}
    UNION ALL
    SELECT 'atom:' || l.atom_id, 'symbol:' || l.symbol_id, l.kind, 'pm_atom_symbol_link', l.id, NULL, l.confidence, a.status NOT IN ${DEAD}
      FROM pm_atom_symbol_link l JOIN pm_atom a ON a.id = l.atom_id
     WHERE l.kind = ANY($1::text[]) ${where.atomSymbol}
    UNION ALL
    SELECT COALESCE('symbol:' || d.src_symbol_id, 'module:' || d.src_module), COALESCE('symbol:' || d.dst_symbol_id, 'name:' || d.dst_name),
           d.kind, 'pm_code_dependency', d.id, d.repo, d.confidence, true
      FROM pm_code_dependency d
     WHERE d.kind = ANY($1::text[]) ${where.dependency}`;
}

const NO_FILTER = { atomLink: "", atomSymbol: "", dependency: "" };

/**
 * Loads `pm_inf_e` (and creates the other working tables) with every edge of `kinds` — one scan of the edges of
 * those kinds — or, given `from`, only the edges on paths of at most `from.hops` edges leaving `from.nodes`
 * (enough to re-derive heads whose source is one of those nodes: a few indexed lookups per hop).
 */
export async function loadRelation(tx: Tx, kinds: string[], from?: { nodes: string[]; hops: number }): Promise<void> {
  await tx.unsafe("DROP TABLE IF EXISTS pm_inf_e, pm_inf_d, pm_inf_n, pm_inf_t");
  if (!from) await tx.unsafe(`CREATE TEMP TABLE pm_inf_e ON COMMIT DROP AS ${edgesSql(NO_FILTER)}`, [kinds]);
  else {
    await tx.unsafe(`CREATE TEMP TABLE pm_inf_e ON COMMIT DROP AS ${edgesSql(NO_FILTER)} LIMIT 0`, [kinds]);
    await loadNeighbourhood(tx, kinds, from.nodes, from.hops);
  }
  await tx.unsafe("CREATE INDEX ON pm_inf_e (src, kind)");
  await tx.unsafe("CREATE INDEX ON pm_inf_e (dst, src, kind)");
  await tx.unsafe("ANALYZE pm_inf_e");
  await tx.unsafe(
    "CREATE TEMP TABLE pm_inf_d (src text, dst text, kind text, origin text, oid bigint, repo text, conf float8) ON COMMIT DROP",
  );
  await tx.unsafe(`CREATE TEMP TABLE pm_inf_n (src text, dst text, kind text, rule bigint, porig text[], pids bigint[], repo text,
                     conf float8, tbl text, oid bigint) ON COMMIT DROP`);
  await tx.unsafe("CREATE INDEX ON pm_inf_n (src, dst, kind)");
  await tx.unsafe("CREATE TEMP TABLE pm_inf_t (src text, dst text, kind text, rule bigint) ON COMMIT DROP");
}

/** Adds to `pm_inf_e` the edges of `kinds` on paths of at most `hops` edges leaving `nodes` (typed node ids). */
async function loadNeighbourhood(tx: Tx, kinds: string[], nodes: string[], hops: number): Promise<void> {
  const seen = new Set<string>();
  let front = [...new Set(nodes)];
  for (let hop = 0; hop < hops && front.length; hop++) {
    for (const n of front) seen.add(n);
    const ids = (prefix: string) => front.filter((n) => n.startsWith(prefix)).map((n) => n.slice(prefix.length));
    const rows = await tx.unsafe(
      `INSERT INTO pm_inf_e ${edgesSql({
        atomLink: "AND l.src_atom_id = ANY($2::bigint[])",
        atomSymbol: "AND l.atom_id = ANY($2::bigint[])",
        dependency:
          "AND (d.src_symbol_id = ANY($3::bigint[]) OR (d.src_symbol_id IS NULL AND d.src_module = ANY($4::text[])))",
      })} RETURNING dst`,
      [kinds, ids("atom:"), ids("symbol:"), ids("module:")],
    );
    front = [...new Set(rows.map((r) => String(r.dst)))].filter((n) => !seen.has(n));
  }
}

/** Seeds Δ with every live edge (a full run) or with the live edges touching `nodes` (typed node ids). */
export async function seedDelta(tx: Tx, nodes?: string[]): Promise<number> {
  await tx.unsafe("TRUNCATE pm_inf_d");
  const where = nodes ? "AND (src = ANY($1::text[]) OR dst = ANY($1::text[]))" : "";
  const r = await tx.unsafe(
    `INSERT INTO pm_inf_d SELECT src, dst, kind, origin, oid, repo, conf FROM pm_inf_e WHERE live ${where}`,
    nodes ? [nodes] : [],
  );
  await tx.unsafe("ANALYZE pm_inf_d");
  return r.count;
}

/**
 * SQL of a rule's derivations. `delta` = i puts Δ at step i (0-based) and the relation elsewhere; -1 takes the
 * relation everywhere; `targets` restricts heads to `pm_inf_t` rows of the rule's head kind (re-derivation).
 */
function chainSql(rule: ChainRule, delta: number, targets: boolean): string {
  const n = rule.body.length;
  const from: string[] = [];
  const where: string[] = [];
  for (let i = 0; i < n; i++) {
    const table = i === delta ? "pm_inf_d" : "pm_inf_e";
    from.push(i === 0 ? `${table} e0` : `JOIN ${table} e${i} ON e${i}.src = e${i - 1}.dst`);
    where.push(`e${i}.kind = '${rule.body[i]}'`); // kinds are checked single tokens (domain/inference/rules.ts)
    if (i !== delta) where.push(`e${i}.live`);
  }
  if (targets) {
    from.unshift(`pm_inf_t t JOIN`);
    from[1] = `${from[1]} ON e0.src = t.src`;
    where.push(`t.kind = '${rule.head}' AND e${n - 1}.dst = t.dst`); // any rule of the head holds a target
  }
  const col = (c: string) => `ARRAY[${rule.body.map((_, i) => `e${i}.${c}`).join(", ")}]`;
  const conf = rule.body.map((_, i) => `e${i}.conf`).join(" * ");
  return `SELECT e0.src, e${n - 1}.dst, ${col("origin")} AS porig, ${col("oid")} AS pids, e0.repo, ${conf} AS conf
            FROM ${from.join(" ")} WHERE ${where.join(" AND ")}`;
}

/** Finds one round's new edges of `rules` into `pm_inf_n` (one justification per edge); returns how many. */
async function deriveRound(tx: Tx, rules: ChainRule[], mode: "full" | "delta" | "targets"): Promise<number> {
  await tx.unsafe("TRUNCATE pm_inf_n");
  for (const rule of rules) {
    const terms =
      mode === "delta" ? rule.body.map((_, i) => chainSql(rule, i, false)) : [chainSql(rule, -1, mode === "targets")];
    await tx.unsafe(`
      INSERT INTO pm_inf_n (src, dst, kind, rule, porig, pids, repo, conf, tbl, oid)
      SELECT y.*, ${NEXT_ID("y.tbl")} FROM (
        SELECT DISTINCT ON (x.src, x.dst) x.src, x.dst, '${rule.head}', ${rule.ruleAtomId}, x.porig, x.pids, x.repo, x.conf,
               ${TABLE_OF("x.src", "x.dst", "x.repo")} AS tbl
          FROM (${terms.join(" UNION ALL ")}) x
         WHERE NOT EXISTS (SELECT 1 FROM pm_inf_e e WHERE e.dst = x.dst AND e.src = x.src AND e.kind = '${rule.head}')
           AND NOT EXISTS (SELECT 1 FROM pm_inf_n o WHERE o.src = x.src AND o.dst = x.dst AND o.kind = '${rule.head}')
         ORDER BY x.src, x.dst, x.conf DESC) y`);
  }
  const [r] = await tx.unsafe("SELECT count(*)::int AS n FROM pm_inf_n");
  return Number(r.n);
}

/** Options of {@link fixpoint}. */
export interface FixpointOptions {
  /**
   * full: Δ is the whole relation; delta: Δ was seeded by {@link seedDelta}; targets: re-derive `pm_inf_t` heads
   * only (the TMS passes every applied rule whose head is a target's kind: inference-tms.ts `rederive`).
   */
  mode: "full" | "delta" | "targets";
  limits: InferLimits;
  signal?: AbortSignal;
  /** Called after each round that stored edges: the round and the edges stored so far. */
  onRound?: (round: number, edgesSoFar: number) => void;
}

/**
 * Evaluates `rules` together to the fixpoint: derive a round, store it (infer-write.ts: tables, justifications,
 * premise index, outbox), make its stored edges the next Δ, until a round derives nothing. Returns per-rule counts
 * and the rounds run.
 * @throws PegasError LIMIT_EXCEEDED (more rounds or edges than `limits` allow; the caller's transaction must roll
 * back), CANCELLED.
 */
export async function fixpoint(
  tx: Tx,
  rules: ChainRule[],
  opts: FixpointOptions,
): Promise<{ rules: RuleOutcome[]; iterations: number }> {
  const out = new Map(
    rules.map((r) => [r.ruleAtomId, { ruleAtomId: r.ruleAtomId, edgesAdded: 0, iterations: 0, skipped: 0 }]),
  );
  let total = 0;
  let round = 0;
  let mode = opts.mode;
  for (;;) {
    round++;
    if (opts.signal?.aborted)
      throw new PegasError("CANCELLED", `inference cancelled in round ${round}; nothing of this run was kept`);
    const found = await deriveRound(tx, rules, mode);
    if (!found) return { rules: [...out.values()], iterations: round };
    if (round > opts.limits.maxIterations) {
      throw new PegasError(
        "LIMIT_EXCEEDED",
        `inference did not reach a fixpoint within max_iterations = ${opts.limits.maxIterations} rounds; nothing of this run was kept`,
        {
          hint: "raise max_iterations (--max-iterations on the command line), or run fewer rules (rule_ids)",
        },
      );
    }
    if (total + found > opts.limits.maxNewEdges) {
      throw new PegasError(
        "LIMIT_EXCEEDED",
        `inference would derive more than max_new_edges = ${opts.limits.maxNewEdges} edges (${total + found} by round ${round}); nothing of this run was kept`,
        {
          hint: "raise max_new_edges (--max-new-edges on the command line), or run fewer rules (rule_ids)",
        },
      );
    }
    const stored = await storeRound(tx);
    for (const s of stored) {
      const o = out.get(s.rule)!;
      o.edgesAdded += s.added;
      o.skipped += s.skipped;
      if (s.added) o.iterations = round;
      total += s.added;
    }
    opts.onRound?.(round, total);
    if (mode === "targets")
      await tx.unsafe(
        "DELETE FROM pm_inf_t t USING pm_inf_n n WHERE n.oid IS NOT NULL AND t.src = n.src AND t.dst = n.dst AND t.kind = n.kind",
      );
    else {
      mode = "delta";
      await tx.unsafe("TRUNCATE pm_inf_d");
      await tx.unsafe(
        "INSERT INTO pm_inf_d SELECT src, dst, kind, tbl, oid, repo, conf FROM pm_inf_n WHERE oid IS NOT NULL",
      );
      await tx.unsafe("ANALYZE pm_inf_d");
    }
  }
}
