/**
 * memory_code_graph over the code store and the graph projection: the dependency subgraph around a symbol (from
 * services.graph: Memgraph when configured, else SQL), for a file also every dependency its symbols write; or,
 * without a symbol, a repository overview.
 */
import { PegasError, invalidInput } from "../../errors.ts";
import { type CodeEdgeRow, STANDARD_EDGE_KINDS } from "../../ports/store/code-store.ts";
import type { Direction, GraphEdge, ReachedNode } from "../../ports/projections/graph-store.ts";
import { type CodeReads, repoKey, type SymbolView, symbolView } from "./query.ts";

/** Most dependencies of a file shown beside its subgraph (keeps the result well below the 1 MiB result cap). */
export const FILE_EDGES = 300;

/** memory_code_graph input. */
export interface CodeGraphInput {
  repo: string;
  symbol?: string;
  depth?: number;
  kinds?: string[];
  direction?: Direction;
  limit?: number;
}

/** A node of the code graph view: a symbol (with its location), an unresolved name, a module, an atom or a document. */
export interface CodeGraphNode {
  id: string;
  label: string;
  name: string | null;
  distance: number | null;
  symbol?: SymbolView;
}

/** An edge of the code graph view; `line` is the 1-based line of a dependency's site, null for other edges. */
export interface CodeGraphEdge {
  key: string;
  src: string;
  dst: string;
  kind: string;
  confidence: number;
  inferred: boolean;
  line: number | null;
}

/** What a file writes, as lines: `line: from → target (resolved location or "unresolved")`. */
export interface FileDependencyView {
  line: number | null;
  kind: string;
  from: string;
  target: string;
  resolved: string | null;
}

function fileView(e: CodeEdgeRow): FileDependencyView {
  return {
    line: e.line,
    kind: e.kind,
    from: e.srcQualifiedName,
    target: e.dstName,
    resolved: e.dstPath === null ? null : `${e.dstPath}:${e.dstQualifiedName}`,
  };
}

/** Adds a file's own dependencies (its symbols' edges) to the node and edge lists. */
function addFileEdges(edges: CodeEdgeRow[], nodes: Map<string, CodeGraphNode>, out: Map<string, CodeGraphEdge>): void {
  for (const e of edges) {
    const src = `symbol:${e.srcSymbolId}`;
    const dst = e.dstSymbolId === null ? `name:${e.dstName}` : `symbol:${e.dstSymbolId}`;
    for (const id of [src, dst])
      if (!nodes.has(id))
        nodes.set(id, {
          id,
          label: id.startsWith("name:") ? "Name" : "CodeSymbol",
          name: id.startsWith("name:") ? e.dstName : null,
          distance: null,
        });
    const key = `pm_code_dependency:${e.id}`;
    if (!out.has(key))
      out.set(key, { key, src, dst, kind: e.kind, confidence: e.confidence, inferred: false, line: e.line });
  }
}

function nodeOf(n: ReachedNode): CodeGraphNode {
  const name = n.props.name ?? n.props.uri ?? null;
  return { id: n.id, label: n.label, name: name === null ? null : String(name), distance: n.distance };
}

const edgeOf = (e: GraphEdge): CodeGraphEdge => ({
  key: e.key,
  src: e.src,
  dst: e.dst,
  kind: e.kind,
  confidence: e.confidence,
  inferred: e.inferred,
  line: null,
});

const DEPENDENCY_KEY = /^pm_code_dependency:(\d+)$/;

/** Sets each dependency edge's `line` from the store (the graph projection does not carry it). */
async function addLines(s: CodeReads, edges: Map<string, CodeGraphEdge>): Promise<void> {
  const ids = [...edges.values()]
    .filter((e) => e.line === null)
    .map((e) => DEPENDENCY_KEY.exec(e.key)?.[1])
    .filter((x) => x !== undefined)
    .map(Number);
  const lines = await s.code.dependencyLines(ids);
  for (const e of edges.values()) {
    const id = DEPENDENCY_KEY.exec(e.key)?.[1];
    if (e.line === null && id !== undefined) e.line = lines.get(Number(id)) ?? null;
  }
}

/**
 * Refuses edge kinds no edge of the repository's graph has (a typo such as `import` would give an empty graph).
 * @throws PegasError INVALID_INPUT naming the unknown kinds and the valid ones
 */
async function checkKinds(s: CodeReads, repo: string, kinds: string[] | undefined): Promise<void> {
  if (!kinds?.length) return;
  const unknown = await s.code.unknownEdgeKinds(repo, kinds);
  if (!unknown.length) return;
  const valid = [...STANDARD_EDGE_KINDS, ...(await s.code.repoEdgeKinds(repo))];
  throw invalidInput(
    `unknown edge kind(s) ${unknown.map((k) => `'${k.slice(0, 64)}'`).join(", ")} in repo '${repo}'`,
    `use ${valid.join(", ")} (or a kind memory_link or memory_infer stored in this repository's graph)`,
  );
}

/**
 * The subgraph around a symbol (every edge with its `line`; `overloads` when the root is the first of several
 * declarations of one overloaded symbol), or the repository overview. @throws PegasError INVALID_INPUT (depth,
 * limit, a kind no edge of the repository has, `kinds` without a symbol — the overview is not filtered by kind —, an
 * ambiguous symbol: the message lists candidates as symbol:<id>),
 * NOT_FOUND (repo or symbol), INDEX_UNAVAILABLE only when no fallback answers.
 */
export async function codeGraph(s: CodeReads, input: CodeGraphInput): Promise<Record<string, unknown>> {
  const t0 = performance.now();
  const repo = repoKey(input.repo ?? "");
  if (!repo) throw invalidInput("repo is empty", "give the repo name or path memory_store_code reported");
  if (input.symbol === undefined || !input.symbol.trim()) {
    if (input.kinds?.length) {
      throw invalidInput(
        `kinds filter a symbol's subgraph; the repository overview (no symbol) is not filtered by edge kind`,
        "omit kinds for the overview, or give a symbol (symbol:<id>, a qualified name or a file path) to filter its subgraph",
      );
    }
    const summary = await s.code.repoSummary(repo, { top: input.limit ?? 20, edges: 500 });
    const mostDependedOn = summary.mostDependedOn.map((m) => ({
      symbol: symbolView(m.symbol),
      dependents: m.dependents,
    }));
    return { repo, root: null, summary: { ...summary, mostDependedOn }, took_ms: Math.round(performance.now() - t0) };
  }
  // A file may be named by its absolute path when the repository is keyed by its root.
  const ref = input.symbol.startsWith(`${repo}/`) ? input.symbol.slice(repo.length + 1) : input.symbol;
  const root = await s.code.findSymbol(ref, repo);
  if (!root) await s.code.repoSummary(repo, { top: 0, edges: 0 }); // NOT_FOUND naming the stored repos when repo is wrong
  if (!root) {
    throw new PegasError("NOT_FOUND", `no symbol '${input.symbol.slice(0, 200)}' in repo '${repo}'`, {
      hint: "pass symbol:<id>, a qualified name (HTMLParser.feed) or a file path; memory_search_code finds them",
    });
  }
  await checkKinds(s, repo, input.kinds);
  const limit = input.limit ?? 100;
  const sub = await s.graph.neighbours({
    node: `symbol:${root.id}`,
    depth: input.depth,
    kinds: input.kinds,
    direction: input.direction ?? "both",
    limit,
  });
  const nodes = new Map(sub.nodes.map((n) => [n.id, nodeOf(n)]));
  const edges = new Map(sub.edges.map((e) => [e.key, edgeOf(e)]));
  const file = root.file ? await s.code.fileEdges(repo, root.path, input.kinds, FILE_EDGES) : null;
  if (file) addFileEdges(file.edges, nodes, edges);
  await addLines(s, edges);
  const ids = [...nodes.keys()].filter((id) => id.startsWith("symbol:")).map((id) => Number(id.slice(7)));
  for (const sym of await s.code.symbolsByIds(ids)) {
    const n = nodes.get(`symbol:${sym.id}`)!;
    n.name = sym.qualifiedName;
    n.symbol = symbolView(sym);
  }
  // Atoms beside code (a code atom `defines` its symbol; the agent's facts linked to it): named by their claim.
  const atomIds = [...nodes.keys()].filter((id) => id.startsWith("atom:")).map((id) => Number(id.slice(5)));
  for (const a of atomIds.length ? await s.atomReads.atomsByIds(atomIds, 0) : [])
    nodes.get(`atom:${a.id}`)!.name = a.claim.slice(0, 300);
  return {
    repo,
    root: symbolView(root),
    ...(root.overloads > 1 ? { overloads: root.overloads } : {}),
    graph: s.graph.name,
    ...(sub.degraded ? { degraded: sub.degraded } : {}),
    nodes: [...nodes.values()],
    edges: [...edges.values()],
    truncated: sub.truncated || Boolean(file?.truncated),
    file: file ? { dependencies: file.edges.map(fileView), truncated: file.truncated } : null,
    took_ms: Math.round(performance.now() - t0),
  };
}
