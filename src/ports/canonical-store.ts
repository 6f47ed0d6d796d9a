/**
 * The canonical store whole: every store-side role port (src/ports/store/) that the SQL store implements over one
 * database (PostgreSQL or embedded PGlite). Only the adapter (src/adapters/sql/store.ts) and the wiring use this
 * combined type; use cases and the Services bundle depend on the roles they need.
 */
import type { AtomReads } from "./store/atom-reads.ts";
import type { AtomWrites } from "./store/atom-writes.ts";
import type { ChangeFeed } from "./store/change-feed.ts";
import type { CurationWrites } from "./store/curation.ts";
import type { EmbeddingStore } from "./store/embeddings.ts";
import type { IngestWrites } from "./store/ingest.ts";
import type { StoreMaintenance } from "./store/maintenance.ts";
import type { SearchReads } from "./store/search-reads.ts";
import type { TraceStore } from "./store/traces.ts";
import type { VerificationStore } from "./store/verification.ts";

/** All the role ports of the canonical store, as one object implements them. */
export type CanonicalStore = StoreMaintenance &
  ChangeFeed &
  AtomReads &
  SearchReads &
  EmbeddingStore &
  AtomWrites &
  IngestWrites &
  CurationWrites &
  TraceStore &
  VerificationStore;
