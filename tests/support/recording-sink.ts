/**
 * An in-memory ProjectionSink for outbox tests: it holds the projected state (maps by entity), counts how often each
 * entity key was applied, and fails on demand — unreachable until healed (INDEX_UNAVAILABLE), the next N calls, or a
 * "crash" right after an apply stored its changes and before the worker could ack (the apply never returns).
 */
import { PegasError } from "../../src/errors.ts";
import type {
  AtomState,
  DocumentState,
  EntityState,
  ProjectionChange,
  ProjectionCounts,
  ProjectionSink,
  SymbolState,
} from "../../src/ports/projections/projection-sink.ts";
import type { GraphEdgeState, NodeId } from "../../src/ports/projections/graph-store.ts";

/** An edge as held. */
export type EdgeState = GraphEdgeState & { src: NodeId; dst: NodeId };

/** Projected state, keyed like the canonical entities (edges by `<table>:<id>`). */
export interface ProjectedState {
  atom: Map<number, AtomState>;
  document: Map<number, DocumentState>;
  symbol: Map<number, SymbolState>;
  entity: Map<number, EntityState>;
  edge: Map<string, EdgeState>;
}

/** An empty {@link ProjectedState}. */
export function emptyState(): ProjectedState {
  return { atom: new Map(), document: new Map(), symbol: new Map(), entity: new Map(), edge: new Map() };
}

/** The key a change is counted under: `atom:12`, `document:3`, `symbol:7`, `edge:pm_atom_link:5`. */
export function changeKey(c: ProjectionChange): string {
  return c.entity === "edge" ? `edge:${c.key}` : `${c.entity}:${c.id}`;
}

/** Writes one change into a state (null state removes). */
export function applyChange(state: ProjectedState, c: ProjectionChange): void {
  const map = state[c.entity] as Map<number | string, unknown>;
  const key = c.entity === "edge" ? c.key : c.id;
  if (c.state === null) map.delete(key);
  else
    map.set(
      key,
      c.entity === "atom" && c.state.vector ? { ...c.state, vector: new Float32Array(c.state.vector) } : { ...c.state },
    );
}

/** A recording, fault-injecting sink. */
export class RecordingSink implements ProjectionSink {
  readonly entities: ReadonlySet<ProjectionChange["entity"]>;
  /** What the sink holds now. */
  readonly state: ProjectedState = emptyState();
  /** Applications per {@link changeKey} (reset() keeps them). */
  readonly applied = new Map<string, number>();
  /** Every apply call that succeeded, in order. */
  readonly batches: ProjectionChange[][] = [];
  prepareCalls = 0;
  applyCalls = 0;
  private unreachable = false;
  private failing = 0;
  private crash: (() => void) | null = null;

  constructor(
    readonly name = "recording",
    entities: Iterable<ProjectionChange["entity"]> = ["atom", "document", "symbol", "edge"],
  ) {
    this.entities = new Set(entities);
  }

  /** Every call fails with INDEX_UNAVAILABLE until {@link heal}. */
  setUnreachable(): void {
    this.unreachable = true;
  }

  /** Ends {@link setUnreachable} and pending {@link failNext} failures. */
  heal(): void {
    this.unreachable = false;
    this.failing = 0;
  }

  /** The next `n` calls of prepare or apply fail with INDEX_UNAVAILABLE. */
  failNext(n: number): void {
    this.failing = n;
  }

  /**
   * The next apply stores its changes and then never returns, like a worker process killed between apply and ack.
   * Resolves when that apply has stored them.
   */
  crashAfterNextApply(): Promise<void> {
    return new Promise((resolve) => (this.crash = resolve));
  }

  private check(what: string): void {
    if (this.unreachable) throw new PegasError("INDEX_UNAVAILABLE", `${this.name} unreachable during ${what}`);
    if (this.failing > 0) {
      this.failing--;
      throw new PegasError("INDEX_UNAVAILABLE", `${this.name} failed ${what} (injected)`);
    }
  }

  async prepare(): Promise<void> {
    this.prepareCalls++;
    this.check("prepare");
  }

  async apply(changes: ProjectionChange[]): Promise<void> {
    this.applyCalls++;
    this.check("apply");
    for (const c of changes) {
      if (!this.entities.has(c.entity))
        throw new PegasError("INVALID_INPUT", `${this.name} was handed a ${c.entity} change`);
      applyChange(this.state, c);
      this.applied.set(changeKey(c), (this.applied.get(changeKey(c)) ?? 0) + 1);
    }
    this.batches.push(changes);
    const crash = this.crash;
    if (crash) {
      this.crash = null;
      crash();
      await new Promise<never>(() => {});
    }
  }

  async reset(): Promise<void> {
    this.check("reset");
    for (const m of Object.values(this.state)) m.clear();
  }

  async counts(): Promise<ProjectionCounts> {
    const out: ProjectionCounts = {};
    for (const e of this.entities) out[e] = this.state[e].size;
    return out;
  }

  async close(): Promise<void> {}
}
