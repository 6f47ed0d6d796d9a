/**
 * Memgraph adapter (the external GraphStore / ProjectionSink over Bolt): {@link MemgraphGraph}, its options and
 * defaults, and the Cypher model (labels, key properties, relationship types).
 */
export { MemgraphGraph, MEMGRAPH_DEFAULT_TIMEOUT_MS, RESET_BATCH, type MemgraphGraphOptions } from "./graph.ts";
export { CONFLICT_RETRY } from "./client.ts";
export { NODE_KEYS, RELATES } from "./model.ts";
