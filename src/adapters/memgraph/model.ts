/**
 * The graph model in Memgraph and its mapping to the GraphStore port. Nodes: `:Atom {atom_id, type, status}`,
 * `:CodeSymbol {symbol_id, repo, path, name, kind}`, `:Document {doc_id, uri, title, kind}`,
 * `:Entity {entity_id, kind, name, key}` (root entities only: one merged into another is no node), `:Module {name}`
 * and `:Name {name}` (dependency ends that are no symbol); every node also holds `id`, its typed node id. Each label
 * has one stable key property, which every MERGE and lookup uses (never Memgraph's internal ids). Edges: atom links,
 * atom–symbol links and entity mentions (kind `mentions`, atom → root entity, one per atom and root) are `:RELATES`,
 * code dependencies a type named by their kind in upper case (`:CALLS`); all carry `{key, kind, confidence,
 * inferred, source}`, `key` being `<origin table>:<row id>`.
 */
import type { Integer } from "neo4j-driver";
import { PegasError } from "../../errors.ts";
import type { GraphEdge, GraphNode, NodeLabel } from "../../ports/projections/graph-store.ts";
import { formatNodeId, KIND_PATTERN, parseNodeId, type ParsedNodeId } from "../../ports/projections/graph-ids.ts";
import { boltInt, toSafeNumber } from "./bolt-values.ts";

/** How a node is found: its label, key property and key value (Integer for row ids, string for names). */
export interface NodeKey {
  label: NodeLabel;
  prop: "atom_id" | "symbol_id" | "doc_id" | "entity_id" | "name";
  key: Integer | string;
  /** The typed node id. */
  id: string;
}

const BY_KIND = {
  atom: { label: "Atom", prop: "atom_id" },
  symbol: { label: "CodeSymbol", prop: "symbol_id" },
  doc: { label: "Document", prop: "doc_id" },
  entity: { label: "Entity", prop: "entity_id" },
  module: { label: "Module", prop: "name" },
  name: { label: "Name", prop: "name" },
} as const;

/** Node labels with their key property, for index and constraint statements. */
export const NODE_KEYS: ReadonlyArray<{ label: NodeLabel; prop: NodeKey["prop"] }> = Object.values(BY_KIND);

/** The relationship type of atom links and atom–symbol links. */
export const RELATES = "RELATES";

/** The key of a parsed (validated) node id. */
export function keyOf(p: ParsedNodeId): NodeKey {
  const { label, prop } = BY_KIND[p.kind];
  return { label, prop, key: "id" in p ? boltInt(p.id) : p.name, id: formatNodeId(p) };
}

const BIG_ROW_ID = /^(atom|symbol|doc|entity):([1-9][0-9]{15,18})$/;

/**
 * The key of an edge end as the projection hands it over: like {@link parseNodeId}, but a row id may exceed 2^53
 * (up to 2^63 − 1, PostgreSQL's bigint); it goes to Memgraph exactly, as an Integer parsed from the string.
 * @throws PegasError INVALID_INPUT for a malformed id.
 */
export function endpointKey(id: string): NodeKey {
  const big = typeof id === "string" ? BIG_ROW_ID.exec(id) : null;
  if (big && !Number.isSafeInteger(Number(big[2]))) {
    const { label, prop } = BY_KIND[big[1] as "atom" | "symbol" | "doc" | "entity"];
    return { label, prop, key: boltInt(big[2], `row id of '${id}'`), id };
  }
  return keyOf(parseNodeId(id));
}

/**
 * The relationship type of an edge: `RELATES` for atom links and atom–symbol links, the kind in upper case for code
 * dependencies (a validated token, so it is safe as a literal). @throws PegasError INVALID_INPUT for a bad key or kind.
 */
export function relTypeOf(key: string, kind: string): string {
  if (typeof key !== "string" || !/^[a-z][a-z0-9_]{0,62}:[1-9][0-9]{0,18}$/.test(key)) {
    throw new PegasError("INVALID_INPUT", `edge key '${String(key)}' is not '<origin table>:<row id>'`, {
      hint: "e.g. pm_atom_link:12",
    });
  }
  if (typeof kind !== "string" || !KIND_PATTERN.test(kind)) {
    throw new PegasError("INVALID_INPUT", `edge ${key} has the bad kind ${JSON.stringify(kind)}`, {
      hint: "a kind is a lowercase token such as 'calls'",
    });
  }
  return key.startsWith("pm_code_dependency:") ? kind.toUpperCase() : RELATES;
}

const LABELS = new Set<string>(["Atom", "CodeSymbol", "Document", "Entity", "Module", "Name"]);

const str = (v: unknown): string | null => (v === null || v === undefined ? null : String(v));

/** The typed id a node returned, checked against its label. @throws PegasError INDEX_UNAVAILABLE when it does not fit. */
function checkedId(id: unknown, label: NodeLabel | undefined): string {
  let key: NodeKey | null = null;
  try {
    key = typeof id === "string" ? endpointKey(id) : null;
  } catch {
    key = null;
  }
  if (key && key.label === label) return key.id;
  throw new PegasError(
    "INDEX_UNAVAILABLE",
    `Memgraph returned a node with id ${JSON.stringify(id) ?? String(id)} and label ${String(label)}, which do not fit`,
    {
      hint: "another application writes to this Memgraph database, or the projection is damaged; give pegas-memory its own database, then rebuild",
    },
  );
}

/** A port node from returned `id`, `labels` and `props` (the props the SQL adapter returns, nothing more). */
export function toGraphNode(id: unknown, labels: unknown, props: Record<string, unknown>): GraphNode {
  const label = (Array.isArray(labels) ? labels : []).find((l) => LABELS.has(String(l))) as NodeLabel | undefined;
  const nodeId = checkedId(id, label);
  switch (label) {
    case "Atom":
      return {
        id: nodeId,
        label,
        props: {
          atom_id: toSafeNumber(props.atom_id, `atom_id of ${nodeId}`),
          type: str(props.type),
          status: str(props.status),
        },
      };
    case "CodeSymbol":
      return {
        id: nodeId,
        label,
        props: {
          symbol_id: toSafeNumber(props.symbol_id, `symbol_id of ${nodeId}`),
          repo: str(props.repo),
          path: str(props.path),
          name: str(props.name),
          kind: str(props.kind),
        },
      };
    case "Document":
      return {
        id: nodeId,
        label,
        props: { doc_id: toSafeNumber(props.doc_id, `doc_id of ${nodeId}`), uri: str(props.uri) },
      };
    case "Entity":
      return {
        id: nodeId,
        label,
        props: {
          entity_id: toSafeNumber(props.entity_id, `entity_id of ${nodeId}`),
          kind: str(props.kind),
          name: str(props.name),
        },
      };
    case "Module":
    case "Name":
      return { id: nodeId, label, props: { name: str(props.name) } };
    default:
      throw new PegasError("INTERNAL", `node '${nodeId}' passed the id check without a label`);
  }
}

/** A port edge from a returned map {key, src, dst, kind, confidence, inferred, source}. */
export function toGraphEdge(m: Record<string, unknown>): GraphEdge {
  return {
    key: String(m.key),
    src: String(m.src),
    dst: String(m.dst),
    kind: String(m.kind),
    confidence: toSafeNumber(m.confidence, `confidence of edge ${String(m.key)}`),
    inferred: m.inferred === true,
    source: String(m.source),
  };
}

/** Code-point order of strings (JS `<` compares UTF-16 units, which puts U+1D538 before U+FF5A). */
export function codePointCompare(a: string, b: string): number {
  const ia = a[Symbol.iterator]();
  const ib = b[Symbol.iterator]();
  for (;;) {
    const x = ia.next();
    const y = ib.next();
    if (x.done || y.done) return x.done === y.done ? 0 : x.done ? -1 : 1;
    const d = (x.value.codePointAt(0) ?? 0) - (y.value.codePointAt(0) ?? 0);
    if (d !== 0) return d;
  }
}
