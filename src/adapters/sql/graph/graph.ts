/**
 * The embedded GraphStore: graph reads answered by recursive SQL over the canonical edge tables (atom links,
 * atom–symbol links, code dependencies, entity mentions after merges: sql.ts), on PostgreSQL and PGlite alike. Traversal is breadth-first, one frontier
 * per recursion step: each step looks up the edges of the frontier's nodes by index and keeps only nodes not seen
 * before, so cycles end and every node is expanded once, at its least distance. Each call reads one snapshot
 * (a read-only REPEATABLE READ transaction), so nodes and edges agree under concurrent writes.
 */
import type { Row, Sql } from "postgres";
import type {
  GraphCounters,
  GraphEdge,
  GraphNode,
  GraphPath,
  GraphStore,
  NeighbourQuery,
  NodeLabel,
  PathQuery,
  ReachedNode,
  Subgraph,
} from "../../../ports/projections/graph-store.ts";
import type { Database, SqlLike } from "../database.ts";
import { mapSqlError } from "../errors.ts";
import {
  formatNodeId,
  nodeNotFound,
  validateNeighbourQuery,
  validatePathQuery,
  type ValidNeighbourQuery,
} from "../../../ports/projections/graph-ids.ts";
import { shortestPathRows } from "./path.ts";
import { edgeOfRow, liveNodeSql, mentionPairsSql, nodePropsColumnsSql, nodePropsJoinSql, stepSql } from "./sql.ts";

/** Recursive-SQL GraphStore over a canonical {@link Database}. Errors: see src/ports/projections/graph-store.ts. */
export class SqlGraphStore implements GraphStore {
  /** Adapter name for stats and errors. */
  readonly name = "sql";

  /** @param db the canonical database (migrated); queries run through `db.run`. */
  constructor(private readonly db: Database) {}

  /** The neighbourhood of a node (see GraphStore.neighbours). @throws PegasError INVALID_INPUT, NOT_FOUND, STORE_UNAVAILABLE */
  async neighbours(q: NeighbourQuery): Promise<Subgraph> {
    const v = validateNeighbourQuery(q);
    return this.read("read a graph neighbourhood", async (tx) => {
      const rows = await reachedRows(tx, v);
      if (rows.length === 0) throw nodeNotFound(v.node);
      const nodes: ReachedNode[] = rows.slice(0, v.limit).map((r) => ({ ...toNode(r), distance: Number(r.depth) }));
      const edges = await inducedEdges(
        tx,
        nodes.map((n) => n.id),
        v,
      );
      return { root: formatNodeId(v.parsed), nodes, edges, truncated: rows.length > v.limit };
    });
  }

  /** One shortest path, or null (see GraphStore.shortestPath). @throws PegasError INVALID_INPUT, NOT_FOUND, STORE_UNAVAILABLE */
  async shortestPath(q: PathQuery): Promise<GraphPath | null> {
    const v = validatePathQuery(q);
    return this.read("find a graph path", async (tx) => {
      const [live] = await tx`SELECT ${liveNodeSql(tx, v.from)} AS from_live, ${liveNodeSql(tx, v.to)} AS to_live`;
      if (!live.from_live) throw nodeNotFound(formatNodeId(v.from));
      if (!live.to_live) throw nodeNotFound(formatNodeId(v.to));
      const rows = await shortestPathRows(tx, v);
      if (rows.length === 0) return null;
      return { nodes: rows.map(toNode), edges: rows.filter((r) => r.key !== null).map(toEdge) };
    });
  }

  /** Nodes by label (labels without nodes left out) and live edges by kind. @throws PegasError STORE_UNAVAILABLE */
  async counters(): Promise<GraphCounters> {
    return this.read("count the graph", async (tx) => {
      const labels = await tx`
        SELECT 'Atom' AS label, count(*) AS n FROM pm_atom WHERE status <> 'retracted'
        UNION ALL SELECT 'Document', count(*) FROM pm_document WHERE status = 'active'
        UNION ALL SELECT 'CodeSymbol', count(*) FROM pm_code_symbol
        UNION ALL SELECT 'Entity', count(*) FROM pm_entity WHERE merged_into IS NULL
        UNION ALL SELECT 'Module', count(DISTINCT src_module) FROM pm_code_dependency WHERE src_symbol_id IS NULL
        UNION ALL SELECT 'Name', count(DISTINCT dst_name) FROM pm_code_dependency WHERE dst_symbol_id IS NULL`;
      // Retracted atoms are few: anti-joins against them beat joining every link to both of its atoms.
      const kinds = await tx`
        WITH dead AS MATERIALIZED (SELECT id FROM pm_atom WHERE status = 'retracted')
        SELECT kind, count(*) FILTER (WHERE NOT inferred) AS extracted, count(*) FILTER (WHERE inferred) AS inferred
          FROM (SELECT l.kind, l.inferred FROM pm_atom_link l
                 WHERE NOT EXISTS (SELECT 1 FROM dead WHERE dead.id = l.src_atom_id)
                   AND NOT EXISTS (SELECT 1 FROM dead WHERE dead.id = l.dst_atom_id)
                UNION ALL
                SELECT l.kind, l.inferred FROM pm_atom_symbol_link l WHERE NOT EXISTS (SELECT 1 FROM dead WHERE dead.id = l.atom_id)
                UNION ALL
                SELECT kind, inferred FROM pm_code_dependency
                UNION ALL
                SELECT 'mentions', false FROM ${mentionPairsSql(tx)} m) e
         GROUP BY kind ORDER BY kind COLLATE "C"`;
      const nodes: GraphCounters["nodes"] = {};
      for (const r of labels) if (Number(r.n) > 0) nodes[r.label as NodeLabel] = Number(r.n);
      const edges: GraphCounters["edges"] = {};
      for (const r of kinds) edges[String(r.kind)] = { extracted: Number(r.extracted), inferred: Number(r.inferred) };
      return { nodes, edges };
    });
  }

  /** Runs `fn` in one read-only snapshot; driver errors become PegasError (`what` names the operation). */
  private async read<T>(what: string, fn: (tx: SqlLike) => Promise<T>): Promise<T> {
    try {
      return await this.db.run(
        (sql: Sql<any>) =>
          sql.begin("isolation level repeatable read read only", async (tx) => {
            // The planner's guesses for recursive queries are large enough to trigger JIT compilation, which costs
            // seconds for a query that runs in milliseconds.
            await tx`SET LOCAL jit = off`;
            return fn(tx);
          }) as Promise<T>,
      );
    } catch (err) {
      throw mapSqlError(err, what);
    }
  }
}

/**
 * The nodes within `v.depth` of the root, closest first then by id in code-point order, at most `limit + 1` (one
 * more than asked tells truncation). The search stops early once more than `limit` nodes are seen: nodes found later
 * are farther and would be cut anyway. No row when the root is not a live node.
 */
async function reachedRows(tx: SqlLike, v: ValidNeighbourQuery): Promise<readonly Row[]> {
  const root = formatNodeId(v.parsed);
  const step = stepSql(tx, tx`b.frontier`, v.direction, v);
  return tx`
    WITH RECURSIVE bfs(depth, frontier, seen) AS (
      SELECT 0, ARRAY[${root}::text], ARRAY[${root}::text] WHERE ${liveNodeSql(tx, v.parsed)}
      UNION ALL
      SELECT b.depth + 1, nx.f, b.seen || nx.f
        FROM bfs b CROSS JOIN LATERAL (
          SELECT array_agg(x.n) AS f FROM (SELECT e.n FROM ${step} e EXCEPT SELECT unnest(b.seen)) x) nx
       WHERE b.depth < ${v.depth} AND cardinality(b.seen) <= ${v.limit} AND nx.f IS NOT NULL
    ), reached AS (
      SELECT u.id, b.depth FROM bfs b CROSS JOIN LATERAL unnest(b.frontier) AS u(id)
       ORDER BY b.depth, u.id COLLATE "C" LIMIT ${v.limit + 1}
    )
    SELECT r.id, r.depth, ${nodePropsColumnsSql(tx)} FROM reached r ${nodePropsJoinSql(tx)}
     ORDER BY r.depth, r.id COLLATE "C"`;
}

/** Every edge the filters allow between two of `ids` (found from its source), ordered by key in code-point order. */
async function inducedEdges(tx: SqlLike, ids: string[], v: ValidNeighbourQuery): Promise<GraphEdge[]> {
  const rows = await tx`
    SELECT e.key, e.src, e.dst, e.kind, e.confidence, e.inferred, e.source
      FROM ${stepSql(tx, tx`${ids}::text[]`, "out", v)} e
     WHERE e.n IN (SELECT unnest(${ids}::text[]))
     ORDER BY e.key COLLATE "C"`;
  return rows.map(toEdge);
}

const LABELS: Record<string, NodeLabel> = {
  atom: "Atom",
  symbol: "CodeSymbol",
  doc: "Document",
  entity: "Entity",
  module: "Module",
  name: "Name",
};

/** A node from a row carrying `id` and the columns of {@link nodePropsColumnsSql}. */
function toNode(r: Row): GraphNode {
  const id = String(r.id);
  const label = LABELS[String(r.p_t)];
  switch (label) {
    case "Atom":
      return { id, label, props: { atom_id: Number(r.p_nm), type: r.a_type, status: r.a_status } };
    case "CodeSymbol":
      return {
        id,
        label,
        props: { symbol_id: Number(r.p_nm), repo: r.s_repo, path: r.s_path, name: r.s_name, kind: r.s_kind },
      };
    case "Document":
      return { id, label, props: { doc_id: Number(r.p_nm), uri: r.d_uri } };
    case "Entity":
      return { id, label, props: { entity_id: Number(r.p_nm), kind: r.e_kind, name: r.e_name } };
    default:
      return { id, label, props: { name: String(r.p_nm) } };
  }
}

/** An edge from a step row. */
function toEdge(r: Row): GraphEdge {
  return { key: String(r.key), ...edgeOfRow(r) };
}
