/**
 * Qdrant adapter (the external VectorIndex / ProjectionSink): {@link QdrantVectorIndex}, its options, and the
 * naming rules for collections and point ids.
 */
export {
  QdrantVectorIndex,
  QDRANT_DEFAULT_TIMEOUT_MS,
  QDRANT_UPSERT_BATCH,
  type QdrantIndexOptions,
} from "./vector-index.ts";
export { ATOM_POINT_NAMESPACE, defaultCollectionName, pointIdOf, uuidV5 } from "./ids.ts";
export { PAYLOAD_INDEXES } from "./payload.ts";
