/**
 * The Cypher of ProjectionSink.apply: a batch of resolved changes becomes UNWIND statements, one per change kind
 * (and, for edges, per pair of end labels and relationship type, since labels and types cannot be parameters). Labels,
 * property names and relationship types are literals from model.ts (types are validated kind tokens); every value is
 * a parameter, every integer a driver Integer. Statement order, all in one transaction: node upserts, removal of
 * edges whose key is gone or now means another type or ends, edge upserts (MERGE of both ends by key first, so an
 * edge never waits for its nodes), node removals (DETACH DELETE), then the Module/Name nodes that lost an edge and
 * have none left (they exist only as ends of dependencies).
 */
import { PegasError } from "../../errors.ts";
import type {
  AtomState,
  DocumentState,
  EntityState,
  ProjectionChange,
  SymbolState,
} from "../../ports/projections/projection-sink.ts";
import type { GraphEdgeState, NodeLabel } from "../../ports/projections/graph-store.ts";
import { boltInt } from "./bolt-values.ts";
import type { Statement } from "./client.ts";
import { endpointKey, relTypeOf, type NodeKey } from "./model.ts";

type NodeEntity = "atom" | "document" | "symbol" | "entity";
type EdgeState = GraphEdgeState & { src: string; dst: string };

const NODE: Record<NodeEntity, { label: NodeLabel; prop: string; prefix: string }> = {
  atom: { label: "Atom", prop: "atom_id", prefix: "atom" },
  document: { label: "Document", prop: "doc_id", prefix: "doc" },
  symbol: { label: "CodeSymbol", prop: "symbol_id", prefix: "symbol" },
  entity: { label: "Entity", prop: "entity_id", prefix: "entity" },
};

/** The statements of one apply, in order. */
export interface ApplyPlan {
  upserts: Statement[];
  /** Deletes edges whose key is in the batch but whose type or ends differ from the wanted ones; rows `src`, `dst`. */
  removal: Statement | null;
  edges: Statement[];
  /** The Module/Name neighbours (rows `id`) of symbols about to be removed. */
  symbolEnds: Statement | null;
  deletes: Statement[];
}

const fail = (message: string) =>
  new PegasError("INVALID_INPUT", message, { hint: "the outbox resolved a change this projection cannot hold" });

/** The last change per entity key (a batch may name one entity twice; the later state is the current one). */
function latest(changes: ProjectionChange[]): ProjectionChange[] {
  const byKey = new Map<string, ProjectionChange>();
  for (const c of changes) byKey.set(c.entity === "edge" ? `edge:${c.key}` : `${c.entity}:${c.id}`, c);
  return [...byKey.values()];
}

function nodeProps(
  entity: NodeEntity,
  id: string,
  s: AtomState | DocumentState | SymbolState | EntityState,
): Record<string, unknown> {
  const text = (v: unknown, f: string) => {
    if (v !== null && typeof v !== "string") throw fail(`${id}: ${f} must be a string, got ${typeof v}`);
    return v;
  };
  if (entity === "atom") {
    const a = s as AtomState;
    return { id, type: text(a.type, "type"), status: text(a.status, "status") };
  }
  if (entity === "document") {
    const d = s as DocumentState;
    return { id, uri: text(d.uri, "uri"), title: text(d.title ?? null, "title"), kind: text(d.kind, "kind") };
  }
  if (entity === "entity") {
    const e = s as EntityState;
    return { id, kind: text(e.kind, "kind"), name: text(e.name, "name"), key: text(e.key, "key") };
  }
  const y = s as SymbolState;
  return {
    id,
    repo: text(y.repo, "repo"),
    path: text(y.path, "path"),
    name: text(y.name, "name"),
    kind: text(y.kind, "kind"),
  };
}

function edgeRow(
  key: string,
  s: EdgeState,
): { group: string; row: Record<string, unknown>; src: NodeKey; dst: NodeKey; type: string } {
  const type = relTypeOf(key, s.kind);
  if (typeof s.confidence !== "number" || !Number.isFinite(s.confidence))
    throw fail(`edge ${key}: confidence must be a finite number`);
  if (typeof s.inferred !== "boolean" || typeof s.source !== "string")
    throw fail(`edge ${key}: inferred must be a boolean and source a string`);
  const src = endpointKey(s.src);
  const dst = endpointKey(s.dst);
  // confidence stays a JS number, which the driver sends as a Float even when it is 1.
  const row = {
    key,
    src: src.key,
    src_id: src.id,
    dst: dst.key,
    dst_id: dst.id,
    kind: s.kind,
    confidence: s.confidence,
    inferred: s.inferred,
    source: s.source,
  };
  return { group: `${src.label}|${dst.label}|${type}`, row, src, dst, type };
}

/** MERGE of both ends by key, then of the edge by key; one statement per (src label, dst label, type). */
function edgeUpsert(src: NodeKey, dst: NodeKey, type: string, rows: Record<string, unknown>[]): Statement {
  return {
    text: [
      "UNWIND $rows AS row",
      `MERGE (a:${src.label} {${src.prop}: row.src}) ON CREATE SET a.id = row.src_id`,
      `MERGE (b:${dst.label} {${dst.prop}: row.dst}) ON CREATE SET b.id = row.dst_id`,
      `MERGE (a)-[e:\`${type}\` {key: row.key}]->(b)`,
      "SET e.kind = row.kind, e.confidence = row.confidence, e.inferred = row.inferred, e.source = row.source",
    ].join("\n"),
    params: { rows },
  };
}

function nodeUpsert(entity: NodeEntity, rows: Record<string, unknown>[]): Statement {
  const { label, prop } = NODE[entity];
  return { text: `UNWIND $rows AS row\nMERGE (n:${label} {${prop}: row.key})\nSET n += row.props`, params: { rows } };
}

function nodeDelete(entity: NodeEntity, keys: unknown[]): Statement {
  const { label, prop } = NODE[entity];
  return { text: `UNWIND $keys AS key\nMATCH (n:${label} {${prop}: key})\nDETACH DELETE n`, params: { keys } };
}

/**
 * Removes those of the Module and Name nodes named in `ids` (typed ids that lost an edge) that have no edge left;
 * other ids are ignored. One statement per label present.
 */
export function sweepStatements(ids: string[]): Statement[] {
  const out: Statement[] = [];
  for (const [prefix, label] of [
    ["module:", "Module"],
    ["name:", "Name"],
  ] as const) {
    const names = [...new Set(ids.filter((id) => id.startsWith(prefix)).map((id) => id.slice(prefix.length)))];
    if (names.length === 0) continue;
    out.push({
      text: `UNWIND $names AS name\nMATCH (n:${label} {name: name})\nOPTIONAL MATCH (n)-[r]-()\nWITH n, count(r) AS degree\nWHERE degree = 0\nDELETE n`,
      params: { names },
    });
  }
  return out;
}

/**
 * Plans the statements of one apply. An atom whose state is retracted is removed like a null state (retracted
 * atoms are no nodes). @throws PegasError INVALID_INPUT for a change that does not fit the model (bad id, key, kind,
 * end or property type), before anything is written.
 */
export function planApply(changes: ProjectionChange[]): ApplyPlan {
  const ups: Record<NodeEntity, Record<string, unknown>[]> = { atom: [], document: [], symbol: [], entity: [] };
  const dels: Record<NodeEntity, unknown[]> = { atom: [], document: [], symbol: [], entity: [] };
  const groups = new Map<string, { src: NodeKey; dst: NodeKey; type: string; rows: Record<string, unknown>[] }>();
  const edgeKeys: string[] = [];
  const keep: unknown[][] = [];
  for (const c of latest(changes)) {
    if (c.entity === "edge") {
      edgeKeys.push(c.key);
      if (!c.state) continue;
      const e = edgeRow(c.key, c.state);
      const g = groups.get(e.group) ?? { src: e.src, dst: e.dst, type: e.type, rows: [] };
      g.rows.push(e.row);
      groups.set(e.group, g);
      keep.push([c.key, e.type, e.src.id, e.dst.id]);
      continue;
    }
    if (!(c.entity in NODE)) throw fail(`unknown entity ${JSON.stringify((c as { entity: unknown }).entity)}`);
    const key = boltInt(c.id, `${c.entity} id`);
    if (c.id < 1) throw fail(`${c.entity} id ${c.id} is not a row id`);
    const id = `${NODE[c.entity].prefix}:${c.id}`;
    if (c.state === null || (c.entity === "atom" && c.state.status === "retracted")) dels[c.entity].push(key);
    else ups[c.entity].push({ key, props: nodeProps(c.entity, id, c.state) });
  }
  const entities = Object.keys(NODE) as NodeEntity[];
  return {
    upserts: entities.filter((e) => ups[e].length > 0).map((e) => nodeUpsert(e, ups[e])),
    removal:
      edgeKeys.length === 0
        ? null
        : {
            text: "MATCH (a)-[e]->(b)\nWHERE e.key IN $keys AND NOT [e.key, type(e), a.id, b.id] IN $keep\nDELETE e\nRETURN a.id AS src, b.id AS dst",
            params: { keys: edgeKeys, keep },
          },
    edges: [...groups.values()].map((g) => edgeUpsert(g.src, g.dst, g.type, g.rows)),
    symbolEnds:
      dels.symbol.length === 0
        ? null
        : {
            text: "UNWIND $keys AS key\nMATCH (n:CodeSymbol {symbol_id: key})--(x)\nWHERE x:Module OR x:Name\nRETURN DISTINCT x.id AS id",
            params: { keys: dels.symbol },
          },
    deletes: entities.filter((e) => dels[e].length > 0).map((e) => nodeDelete(e, dels[e])),
  };
}
