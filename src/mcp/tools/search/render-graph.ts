/**
 * Text content (tool.ts `render`) and concise structured content of memory_query_graph: nodes as lines with the
 * atom's claim or the symbol's name, edges as `src -kind-> dst`, counters as short lists.
 */
import { lines, oneLine } from "../../render.ts";

type Out = { [key: string]: any };

/** Characters of an atom's claim carried on its node. */
export const NODE_CLAIM_CHARS = 140;
/** Nodes of a neighbourhood by default (the tool's `limit`): keeps the answer under 4,000 tokens in both forms. */
export const DEFAULT_NODES = 25;
/** Edges listed by default (the edges between 25 nodes can be many more); detailed lists them all. */
export const EDGES_SHOWN = 50;

/** A node's props without what its id already says (atom_id, symbol_id, doc_id, entity_id) nor nulls. */
function shortProps(n: Out): Out {
  const p: Out = {};
  for (const [k, v] of Object.entries(n.props ?? {})) {
    if (v === null || k === "atom_id" || k === "symbol_id" || k === "doc_id" || k === "entity_id" || k === "repo")
      continue;
    p[k] = v;
  }
  return p;
}

/** memory_query_graph's concise content: nodes with short props, edges without keys, confidences and sources. */
export function conciseQueryGraph(out: Out): Out {
  if (out.mode === "counters") return out;
  const edges = out.edges as Out[];
  return {
    ...out,
    nodes: (out.nodes as Out[]).map((n) => ({ ...n, props: shortProps(n) })),
    edges: edges.slice(0, EDGES_SHOWN).map((e) => ({
      src: e.src,
      dst: e.dst,
      kind: e.kind,
      ...(e.inferred ? { inferred: true } : {}),
    })),
    ...(edges.length > EDGES_SHOWN ? { edges_total: edges.length } : {}),
  };
}

/**
 * One node as a line: `atom:12 · fact · verified — claim [1]`, `symbol:5 · HTMLParser.feed · method · a.py`,
 * `entity:3 · person · Андрей Ефимыч`.
 */
function nodeLine(n: Out): string {
  const p = n.props ?? {};
  const parts =
    n.label === "Atom"
      ? [p.type, p.status]
      : n.label === "CodeSymbol"
        ? [p.name, p.kind, p.path]
        : n.label === "Document"
          ? [p.uri]
          : n.label === "Entity"
            ? [p.kind, p.name]
            : [];
  const marks = parts.filter((x) => x !== null && x !== undefined && x !== "");
  const claim = n.claim ? ` — ${oneLine(n.claim, NODE_CLAIM_CHARS)}` : "";
  const dist = n.distance !== undefined ? ` [${n.distance}]` : "";
  return `- ${n.id}${marks.length ? ` · ${marks.join(" · ")}` : ""}${claim}${dist}`;
}

const edgeLine = (e: Out) => `- ${e.src} -${e.kind}-> ${e.dst}${e.inferred ? " (inferred)" : ""}`;

/** memory_query_graph's text. */
export function renderQueryGraph(out: Out, args: { depth?: number; direction?: string; limit?: number }): string {
  const degraded = out.degraded ? `(the graph engine is down; SQL answered: ${out.degraded})` : "";
  if (out.mode === "counters") {
    const c = out.counters;
    const nodes = Object.entries(c.nodes as Record<string, number>).map(([k, n]) => `${k} ${n}`);
    const edges = Object.entries(c.edges as Record<string, Out>).map(
      ([k, v]) => `${k} ${v.extracted}${v.inferred ? ` (+${v.inferred} inferred)` : ""}`,
    );
    return lines([
      `Graph nodes: ${nodes.join(", ") || "none"}.`,
      `Edges by kind: ${edges.join(", ") || "none"}.`,
      degraded,
      "Give `node` for a neighbourhood, or `from` and `to` for a path.",
    ]);
  }
  const nodes = out.nodes as Out[];
  const edges = out.edges as Out[];
  if (out.mode === "path") {
    if (!out.found)
      return lines([
        `No path from ${args.depth ? `within ${args.depth} hops` : "within the depth"} (direction ${args.direction ?? "out"}): try direction both, a larger depth or fewer kinds filters.`,
        degraded,
      ]);
    return lines([
      `Path of ${edges.length} hop(s):`,
      ...edges.map(edgeLine),
      "Nodes:",
      ...nodes.map(nodeLine),
      degraded,
    ]);
  }
  return lines([
    `Neighbourhood of ${out.root} (depth ${args.depth ?? 1}, ${args.direction ?? "both"} ways): ${nodes.length} node(s), ${edges.length} edge(s); [n] = hops.`,
    ...nodes.map(nodeLine),
    edges.length ? "Edges:" : "",
    ...edges.slice(0, EDGES_SHOWN).map(edgeLine),
    edges.length > EDGES_SHOWN
      ? `(${edges.length - EDGES_SHOWN} more edges: narrow with kinds or direction, or response_format "detailed" lists all)`
      : "",
    out.truncated
      ? `Cut at ${args.limit ?? nodes.length} nodes: narrow with kinds, direction or depth, or raise limit.`
      : "",
    degraded,
  ]);
}
