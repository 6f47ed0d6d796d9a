/**
 * Memgraph adapter: the external graph projection over Bolt (neo4j-driver 6, Cypher in Memgraph's dialect). It is a
 * {@link ProjectionSink} fed by the outbox worker (atoms, documents, symbols and edges as in model.ts) and a
 * {@link GraphStore} answering the same reads as the SQL adapter with the same results (the GraphStore contract).
 * PostgreSQL stays the source of truth: everything here can be dropped (`reset`) and rebuilt from it.
 */
import type { ManagedTransaction } from "neo4j-driver";
import { PegasError } from "../../errors.ts";
import type {
  GraphCounters,
  GraphPath,
  GraphStore,
  NeighbourQuery,
  NodeLabel,
  PathQuery,
  ReachedNode,
  Subgraph,
} from "../../ports/projections/graph-store.ts";
import type { ProjectionChange, ProjectionCounts, ProjectionSink } from "../../ports/projections/projection-sink.ts";
import {
  formatNodeId,
  validateNeighbourQuery,
  validatePathQuery,
  type ValidNeighbourQuery,
} from "../../ports/projections/graph-ids.ts";
import { boltInt, toSafeNumber } from "./bolt-values.ts";
import { MemgraphClient, type Statement } from "./client.ts";
import { codePointCompare, endpointKey, keyOf, toGraphEdge, toGraphNode } from "./model.ts";
import { liveNode, rows, shortestPathIn } from "./paths.ts";
import { COUNTER_STATEMENTS, COUNTS_STATEMENT, inducedEdgesStatement, reachStatement } from "./reads.ts";
import { ensureSchema } from "./schema.ts";
import { planApply, sweepStatements } from "./writes.ts";

/** Options: Bolt URL (bolt://, bolt+s://, neo4j://, memgraph://), credentials, timeout in ms. */
export interface MemgraphGraphOptions {
  url: string;
  user?: string;
  password?: string;
  /**
   * Bound of connecting, of waiting for a pooled connection and of the driver's retry window, in ms (default
   * {@link MEMGRAPH_DEFAULT_TIMEOUT_MS}); every call settles within 3 × this.
   */
  timeoutMs?: number;
}

/** Default timeout, ms. */
export const MEMGRAPH_DEFAULT_TIMEOUT_MS = 10_000;
/** Relationships, then nodes, deleted per transaction by {@link MemgraphGraph.reset}. */
export const RESET_BATCH = 10_000;

const LABELS = new Set<string>(["Atom", "CodeSymbol", "Document", "Entity", "Module", "Name"]);

/**
 * The Memgraph graph projection and reader; name "memgraph"; projects atoms, documents, symbols and edges.
 * Errors: PegasError INVALID_INPUT (bad query or change), NOT_FOUND (unknown node), INDEX_UNAVAILABLE (Memgraph
 * unreachable, timed out, refusing), as in src/ports/projections/graph-store.ts and projection-sink.ts.
 */
export class MemgraphGraph implements GraphStore, ProjectionSink {
  readonly name = "memgraph";
  readonly entities: ReadonlySet<ProjectionChange["entity"]> = new Set([
    "atom",
    "document",
    "symbol",
    "entity",
    "edge",
  ] as const);
  private readonly client: MemgraphClient;

  /** Creates the driver (no connection yet). @throws PegasError INVALID_INPUT for a bad URL or timeout. */
  constructor(opts: MemgraphGraphOptions) {
    const timeoutMs = opts.timeoutMs ?? MEMGRAPH_DEFAULT_TIMEOUT_MS;
    if (!Number.isSafeInteger(timeoutMs) || timeoutMs < 1) {
      throw new PegasError(
        "INVALID_INPUT",
        `Memgraph timeout ${String(opts.timeoutMs)} is not a positive number of ms`,
      );
    }
    this.client = new MemgraphClient({ url: opts.url, user: opts.user, password: opts.password, timeoutMs });
  }

  /** The Bolt URL as configured. */
  get url(): string {
    return this.client.url;
  }

  /** Creates indexes and uniqueness constraints on the keys, idempotently (see schema.ts). */
  async prepare(): Promise<void> {
    await ensureSchema(this.client);
  }

  /**
   * Applies resolved changes in one write transaction (see writes.ts); idempotent and order-insensitive within the
   * batch. @throws PegasError INVALID_INPUT for a change that does not fit, before anything is written.
   */
  async apply(changes: ProjectionChange[]): Promise<void> {
    if (changes.length === 0) return;
    const plan = planApply(changes);
    await this.client.write("apply", async (tx) => {
      const ends: string[] = [];
      for (const st of plan.upserts) await run(tx, st);
      if (plan.removal) for (const r of await rows(tx, plan.removal)) ends.push(String(r.src), String(r.dst));
      for (const st of plan.edges) await run(tx, st);
      if (plan.symbolEnds) for (const r of await rows(tx, plan.symbolEnds)) ends.push(String(r.id));
      for (const st of plan.deletes) await run(tx, st);
      for (const st of sweepStatements(ends)) await run(tx, st);
    });
  }

  /** Deletes every relationship, then every node, {@link RESET_BATCH} per transaction; then prepares again. */
  async reset(): Promise<void> {
    const batches: Statement[] = [
      {
        text: "MATCH ()-[e]->()\nWITH e LIMIT $batch\nDELETE e\nRETURN count(*) AS deleted",
        params: { batch: boltInt(RESET_BATCH) },
      },
      {
        text: "MATCH (n)\nWITH n LIMIT $batch\nDETACH DELETE n\nRETURN count(*) AS deleted",
        params: { batch: boltInt(RESET_BATCH) },
      },
    ];
    for (const st of batches) {
      for (;;) {
        const deleted = await this.client.write("reset", async (tx) =>
          toSafeNumber((await rows(tx, st))[0]?.deleted ?? 0, "deleted"),
        );
        if (deleted < RESET_BATCH) break;
      }
    }
    await this.prepare();
  }

  /** Atoms, documents, symbols, entities and edges held. */
  async counts(): Promise<ProjectionCounts> {
    const found = await this.client.read("counts", (tx) => rows(tx, COUNTS_STATEMENT));
    const out: ProjectionCounts = { atom: 0, document: 0, symbol: 0, entity: 0, edge: 0 };
    for (const r of found)
      out[r.entity as ProjectionChange["entity"]] = toSafeNumber(r.count, `${String(r.entity)} count`);
    return out;
  }

  /** Closes the driver and its connections. */
  async close(): Promise<void> {
    await this.client.close();
  }

  /** The neighbourhood of a node (see GraphStore.neighbours). */
  async neighbours(q: NeighbourQuery): Promise<Subgraph> {
    const v = validateNeighbourQuery(q);
    return this.client.read("neighbours", (tx) => neighbourhood(tx, v));
  }

  /** One shortest path, or null (see GraphStore.shortestPath and paths.ts). */
  async shortestPath(q: PathQuery): Promise<GraphPath | null> {
    const v = validatePathQuery(q);
    return this.client.read("shortestPath", (tx) => shortestPathIn(tx, v));
  }

  /** Nodes by label (labels without nodes left out) and edges by kind, extracted and inferred. */
  async counters(): Promise<GraphCounters> {
    const [labelRows, kindRows] = await this.client.read("counters", async (tx) => [
      await rows(tx, COUNTER_STATEMENTS[0]),
      await rows(tx, COUNTER_STATEMENTS[1]),
    ]);
    const nodes: GraphCounters["nodes"] = {};
    for (const r of labelRows) {
      const label = (r.labels as string[]).find((l) => LABELS.has(l)) as NodeLabel | undefined;
      if (label) nodes[label] = (nodes[label] ?? 0) + toSafeNumber(r.count, `${label} count`);
    }
    const edges: GraphCounters["edges"] = {};
    for (const r of kindRows) {
      const e = (edges[String(r.kind)] ??= { extracted: 0, inferred: 0 });
      e[r.inferred === true ? "inferred" : "extracted"] += toSafeNumber(r.count, `${String(r.kind)} count`);
    }
    return { nodes, edges };
  }
}

async function run(tx: ManagedTransaction, st: Statement): Promise<void> {
  await tx.run(st.text, st.params);
}

/** The root, the nodes reached (ordered, cut at the limit) and the induced edges ordered by key. */
async function neighbourhood(tx: ManagedTransaction, v: ValidNeighbourQuery): Promise<Subgraph> {
  const root = keyOf(v.parsed);
  const rootNode: ReachedNode = { ...(await liveNode(tx, root)), distance: 0 };
  const reached = (await rows(tx, reachStatement(root, v.direction, v.depth, v, v.limit)))
    .map((r) => ({
      ...toGraphNode(r.id, r.labels, r.props as Record<string, unknown>),
      distance: toSafeNumber(r.distance, "a BFS distance"),
    }))
    .sort((a, b) => a.distance - b.distance || codePointCompare(a.id, b.id));
  const nodes = [rootNode, ...reached.slice(0, v.limit - 1)];
  const induced = inducedEdgesStatement(
    nodes.map((n) => endpointKey(n.id)),
    v,
  );
  const edges = induced ? (await rows(tx, induced)).map((r) => toGraphEdge(r.edge as Record<string, unknown>)) : [];
  edges.sort((a, b) => codePointCompare(a.key, b.key));
  return { root: formatNodeId(v.parsed), nodes, edges, truncated: reached.length > v.limit - 1 };
}
