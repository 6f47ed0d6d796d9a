/**
 * Typed node ids and GraphStore query validation, shared by every graph adapter (the SQL one here, Memgraph), so
 * that both refuse the same input with the same PegasError INVALID_INPUT and apply the same defaults.
 */
import { invalidInput, PegasError } from "../../errors.ts";
import type { Direction, NeighbourQuery, NodeId, PathQuery } from "./graph-store.ts";

/** Node kinds keyed by a number (`atom:<id>`, `symbol:<id>`, `doc:<id>`, `entity:<id>`). */
export type NumericNodeKind = "atom" | "symbol" | "doc" | "entity";
/** Node kinds keyed by a name (`module:<name>`, `name:<name>`). */
export type NamedNodeKind = "module" | "name";

/** A parsed node id: a row id (≥ 1, below 2^53) or a name (1–4096 characters, no NUL). */
export type ParsedNodeId = { kind: NumericNodeKind; id: number } | { kind: NamedNodeKind; name: string };

/** Bounds and defaults of the GraphStore port (see src/ports/projections/graph-store.ts). */
export const GRAPH_LIMITS = {
  depth: { min: 1, max: 5, default: 1 },
  limit: { min: 1, max: 1000, default: 100 },
  maxDepth: { min: 1, max: 10, default: 6 },
  /** Longest module or name accepted in an id, in UTF-16 code units. */
  nameLength: 4096,
  /** Most kinds one query may name. */
  kinds: 64,
} as const;

/** The relation-kind token of the schema (`pm_atom_link.kind` CHECK). */
export const KIND_PATTERN = /^[a-z][a-z0-9_]{0,63}$/;

const ID_HINT = "use atom:<id>, symbol:<id>, doc:<id>, entity:<id>, module:<name> or name:<name>, e.g. atom:12";

/**
 * Parses a typed node id. Numeric ids are canonical decimals (no sign, no leading zero, ≥ 1), so one node has one id.
 * @throws PegasError INVALID_INPUT for anything else.
 */
export function parseNodeId(id: NodeId): ParsedNodeId {
  if (typeof id !== "string") throw invalidInput(`node id must be a string, got ${typeof id}`, ID_HINT);
  const colon = id.indexOf(":");
  const prefix = colon < 0 ? "" : id.slice(0, colon);
  const rest = id.slice(colon + 1);
  if (prefix === "atom" || prefix === "symbol" || prefix === "doc" || prefix === "entity") {
    if (!/^[1-9][0-9]{0,15}$/.test(rest) || !Number.isSafeInteger(Number(rest))) {
      throw invalidInput(
        `malformed node id '${clip(id)}': '${prefix}:' needs a positive integer without leading zeros`,
        ID_HINT,
      );
    }
    return { kind: prefix, id: Number(rest) };
  }
  if (prefix === "module" || prefix === "name") {
    if (rest.length === 0 || rest.length > GRAPH_LIMITS.nameLength || rest.includes("\u0000")) {
      throw invalidInput(
        `malformed node id '${clip(id)}': '${prefix}:' needs a name of 1–${GRAPH_LIMITS.nameLength} characters without NUL`,
        ID_HINT,
      );
    }
    return { kind: prefix, name: rest };
  }
  throw invalidInput(`malformed node id '${clip(id)}'`, ID_HINT);
}

/** Formats a parsed id back into its canonical typed id. */
export function formatNodeId(p: ParsedNodeId): NodeId {
  return "id" in p ? `${p.kind}:${p.id}` : `${p.kind}:${p.name}`;
}

/** The NOT_FOUND error for a node that does not exist (or is retracted), with what to do next. */
export function nodeNotFound(id: NodeId): PegasError {
  return new PegasError("NOT_FOUND", `no node '${clip(id)}' in the graph (it does not exist or is retracted)`, {
    hint: "find ids with memory_search (atoms) or memory_search_code (symbols)",
  });
}

/** A neighbour query with every default applied and every field checked. */
export interface ValidNeighbourQuery {
  node: NodeId;
  parsed: ParsedNodeId;
  /** Empty: every kind. */
  kinds: string[];
  direction: Direction;
  depth: number;
  includeInferred: boolean;
  limit: number;
}

/** A path query with every default applied and every field checked. */
export interface ValidPathQuery {
  from: ParsedNodeId;
  to: ParsedNodeId;
  /** Empty: every kind. */
  kinds: string[];
  direction: Direction;
  includeInferred: boolean;
  maxDepth: number;
}

/**
 * Checks a neighbour query and applies the defaults (direction both, depth 1, inferred included, limit 100; an
 * absent or empty `kinds` allows every kind). @throws PegasError INVALID_INPUT naming the bad field and value.
 */
export function validateNeighbourQuery(q: NeighbourQuery): ValidNeighbourQuery {
  return {
    node: q.node,
    parsed: parseNodeId(q.node),
    kinds: checkKinds(q.kinds),
    direction: checkDirection(q.direction, "both"),
    depth: checkInt("depth", q.depth, GRAPH_LIMITS.depth),
    includeInferred: checkBool("includeInferred", q.includeInferred),
    limit: checkInt("limit", q.limit, GRAPH_LIMITS.limit),
  };
}

/**
 * Checks a path query and applies the defaults (direction out, maxDepth 6, inferred included, every kind).
 * @throws PegasError INVALID_INPUT naming the bad field and value.
 */
export function validatePathQuery(q: PathQuery): ValidPathQuery {
  return {
    from: parseNodeId(q.from),
    to: parseNodeId(q.to),
    kinds: checkKinds(q.kinds),
    direction: checkDirection(q.direction, "out"),
    includeInferred: checkBool("includeInferred", q.includeInferred),
    maxDepth: checkInt("maxDepth", q.maxDepth, GRAPH_LIMITS.maxDepth),
  };
}

function checkInt(field: string, v: number | undefined, b: { min: number; max: number; default: number }): number {
  if (v === undefined) return b.default;
  if (typeof v !== "number" || !Number.isInteger(v) || v < b.min || v > b.max) {
    const got = typeof v === "number" ? String(v) : JSON.stringify(v);
    throw invalidInput(`${field} must be an integer from ${b.min} to ${b.max}, got ${got}`);
  }
  return v;
}

function checkBool(field: string, v: boolean | undefined): boolean {
  if (v === undefined) return true;
  if (typeof v !== "boolean") throw invalidInput(`${field} must be true or false, got ${JSON.stringify(v)}`);
  return v;
}

function checkDirection(v: Direction | undefined, fallback: Direction): Direction {
  if (v === undefined) return fallback;
  if (v !== "out" && v !== "in" && v !== "both") {
    throw invalidInput(`direction must be 'out', 'in' or 'both', got ${JSON.stringify(v)}`);
  }
  return v;
}

function checkKinds(kinds: string[] | undefined): string[] {
  if (kinds === undefined) return [];
  if (!Array.isArray(kinds) || kinds.length > GRAPH_LIMITS.kinds) {
    throw invalidInput(`kinds must be a list of at most ${GRAPH_LIMITS.kinds} relation kinds`);
  }
  for (const k of kinds) {
    if (typeof k !== "string" || !KIND_PATTERN.test(k)) {
      throw invalidInput(
        `bad relation kind ${JSON.stringify(k)}`,
        "a kind is a lowercase token such as 'cause' or 'depends_on'",
      );
    }
  }
  return [...new Set(kinds)];
}

function clip(s: string): string {
  return s.length > 80 ? `${s.slice(0, 80)}…` : s;
}
