/**
 * Indexes and constraints of the projection (memgraph.com/docs/fundamentals/indexes, …/constraints). Memgraph runs
 * schema statements only as auto-commit queries ("Index manipulation not allowed in multicommand transactions"), one
 * at a time. Required: a label-property index on each label's key (what every MERGE and lookup uses), a label index
 * (counts, the Module/Name sweep) and a uniqueness constraint on each key (a constraint creates no index, hence
 * both). Optional, kept when the server refuses them: an edge-type property index `:RELATES(key)` (Memgraph 2.18+)
 * and a global edge property index on `key` (Memgraph 3.x), which speed up finding edges by key. Creating what
 * already exists is not an error here: Memgraph answers that with a notification, or an error saying "already exists",
 * which is ignored.
 */
import { log } from "../../log.ts";
import type { MemgraphClient, Statement } from "./client.ts";
import { isUnreachable } from "./failures.ts";
import { NODE_KEYS, RELATES } from "./model.ts";

const plain = (text: string): Statement => ({ text, params: {} });

/** The statements that must succeed, in order. */
export const REQUIRED_SCHEMA: Statement[] = NODE_KEYS.flatMap(({ label, prop }) => [
  plain(`CREATE INDEX ON :${label}(${prop})`),
  plain(`CREATE INDEX ON :${label}`),
  plain(`CREATE CONSTRAINT ON (n:${label}) ASSERT n.${prop} IS UNIQUE`),
]);

/** The statements whose refusal (an older server, edge properties off) only costs speed. */
export const OPTIONAL_SCHEMA: Statement[] = [
  plain(`CREATE EDGE INDEX ON :${RELATES}(key)`),
  plain("CREATE GLOBAL EDGE INDEX ON :(key)"),
];

const EXISTS = /already exists/i;

/** Why `err` is not an "already exists" answer: its message, or null when it is one. */
function realFailure(err: unknown): string | null {
  const cause = (err as { cause?: unknown }).cause;
  const message = cause instanceof Error ? cause.message : err instanceof Error ? err.message : String(err);
  return EXISTS.test(message) ? null : message;
}

/**
 * Creates the schema, idempotently. @throws PegasError INDEX_UNAVAILABLE when Memgraph is unreachable or refuses a
 * required statement (an optional one is logged as a warning and skipped).
 */
export async function ensureSchema(client: MemgraphClient): Promise<void> {
  for (const st of REQUIRED_SCHEMA) {
    try {
      await client.autocommit("prepare", st);
    } catch (err) {
      if (realFailure(err) !== null) throw err;
    }
  }
  for (const st of OPTIONAL_SCHEMA) {
    try {
      await client.autocommit("prepare", st);
    } catch (err) {
      const why = realFailure(err);
      if (why === null) continue;
      if (isUnreachable((err as { cause?: unknown }).cause)) throw err;
      log.warn("memgraph: optional index not created; edge lookups by key scan instead", { statement: st.text, why });
    }
  }
}
