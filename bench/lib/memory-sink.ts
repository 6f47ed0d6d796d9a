/**
 * A counting in-memory ProjectionSink for benchmarks: it keeps the latest state per entity key (so that the cost of
 * holding 100k vectors is paid as an external sink would), measuring only the outbox and snapshot machinery, not a
 * network engine.
 */
import type {
  ProjectionChange,
  ProjectionCounts,
  ProjectionSink,
} from "../../src/ports/projections/projection-sink.ts";

/** Holds every projected entity in maps. */
export class MemorySink implements ProjectionSink {
  readonly name = "memory";
  readonly entities: ReadonlySet<ProjectionChange["entity"]> = new Set(["atom", "document", "symbol", "edge"] as const);
  private readonly held = new Map<string, unknown>();
  applied = 0;

  async prepare(): Promise<void> {}

  async apply(changes: ProjectionChange[]): Promise<void> {
    for (const c of changes) {
      const key = c.entity === "edge" ? `edge:${c.key}` : `${c.entity}:${c.id}`;
      if (c.state) this.held.set(key, c.state);
      else this.held.delete(key);
    }
    this.applied += changes.length;
  }

  async reset(): Promise<void> {
    this.held.clear();
  }

  async counts(): Promise<ProjectionCounts> {
    const out: ProjectionCounts = {};
    for (const key of this.held.keys()) {
      const e = key.slice(0, key.indexOf(":")) as keyof ProjectionCounts;
      out[e] = (out[e] ?? 0) + 1;
    }
    return out;
  }

  async close(): Promise<void> {}
}
