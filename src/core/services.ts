/**
 * The bundle of ports the use cases run on; built once per process by `createServices` (src/wiring/services.ts), the only
 * place where adapters are chosen.
 */
import type { Config } from "../config.ts";
import type { AtomReads } from "../ports/store/atom-reads.ts";
import type { AtomWrites } from "../ports/store/atom-writes.ts";
import type { ChangeFeed } from "../ports/store/change-feed.ts";
import type { CurationWrites } from "../ports/store/curation.ts";
import type { EmbeddingStore } from "../ports/store/embeddings.ts";
import type { IngestWrites } from "../ports/store/ingest.ts";
import type { StoreMaintenance } from "../ports/store/maintenance.ts";
import type { SearchReads } from "../ports/store/search-reads.ts";
import type { TraceStore } from "../ports/store/traces.ts";
import type { VerificationStore } from "../ports/store/verification.ts";
import type { SupersessionStore } from "../ports/store/supersession.ts";
import type { Distiller } from "../ports/models/distiller.ts";
import type { DocumentCatalog } from "../ports/store/document-catalog.ts";
import type { Embedder } from "../ports/models/embedder.ts";
import type { Fetcher } from "../ports/models/fetcher.ts";
import type { GapAnswerJudge } from "../ports/models/gap-judge.ts";
import type { FreshnessStore } from "../ports/store/freshness.ts";
import type { ConfidenceReads } from "../ports/store/confidence.ts";
import type { GapStore } from "../ports/store/gaps.ts";
import type { EntityStore } from "../ports/entities.ts";
import type { QuantityStore } from "../ports/store/quantities.ts";
import type { GraphStore } from "../ports/projections/graph-store.ts";
import type { InferenceStore } from "../ports/store/inference.ts";
import type { OutboxStore } from "../ports/projections/outbox.ts";
import type { ProjectionSink } from "../ports/projections/projection-sink.ts";
import type { CodeStore } from "../ports/store/code-store.ts";
import type { SymbolExtractor } from "../ports/models/symbol-extractor.ts";
import type { ParseInput, ParsedDocument } from "../ports/models/parser.ts";
import type { SearchProjection } from "../ports/projections/search-projection.ts";
import type { VectorIndex } from "../ports/projections/vector-index.ts";
import type { VerdictJudge } from "../ports/models/verdict-judge.ts";

/*
 * Shapes and constants of the Services' ports, re-exported for the layers above core (cli, ui, mcp, http), which
 * import core and never ports.
 */
export { CODE_LANGUAGES, SYMBOL_KINDS } from "../ports/models/symbol-extractor.ts";
export { GRAPH_LIMITS } from "../ports/projections/graph-ids.ts";
export { GAP_STATUSES } from "../ports/store/gaps.ts";
export type { Direction, GraphEdge, GraphNode, Subgraph } from "../ports/projections/graph-store.ts";
export type { AtomLinkView, AtomView, CitationView } from "../ports/store/atom-reads.ts";
export type { DocumentAtomRow, DocumentSummary, Page } from "../ports/store/document-catalog.ts";
export type { GapRow, GapStatus } from "../ports/store/gaps.ts";
export type { EntityListRow } from "../ports/entities.ts";
export type { StatusChangeRecord } from "../ports/store/verification.ts";

/** Ports and settings of one process. */
export interface Services {
  readonly config: Config;
  /** The canonical store's schema and counters (the roles below are the same database, PostgreSQL or PGlite). */
  readonly maintenance: StoreMaintenance;
  /** Atoms and embeddings in commit order, for the in-process indexes and readiness. */
  readonly changeFeed: ChangeFeed;
  /** Atoms with citations, and an atom's links. */
  readonly atomReads: AtomReads;
  /** Text analysis under the `pegas` configuration and the trigram fallback search. */
  readonly searchReads: SearchReads;
  /** Canonical embeddings of atoms. */
  readonly embeddingStore: EmbeddingStore;
  /** One atom stored by the agent, dedup candidates, merges undone. */
  readonly atomWrites: AtomWrites;
  /** Whole ingests in one transaction, and the distillation quarantine. */
  readonly ingestWrites: IngestWrites;
  /** Links the agent asserts or removes, and forgetting. */
  readonly curation: CurationWrites;
  /** Episodic traces. */
  readonly traces: TraceStore;
  /** Verification reads and writes, and the status history. */
  readonly verification: VerificationStore;
  /** Supersessions (a newer statement replacing an older one) and the valid_at / known_at filters of reads. */
  readonly supersession: SupersessionStore;
  readonly embedder: Embedder;
  /** Turns chunks into typed atoms (heuristic, Ollama, or the MCP client's model). */
  readonly distiller: Distiller;
  /** Verdicts of memory_verify: the Ollama judge when ollama_host and llm_model are set, else the heuristic one. */
  readonly judge: VerdictJudge;
  /** The heuristic judge, used for an atom when `judge` fails with LLM_FAILED (the result says so). */
  readonly fallbackJudge: VerdictJudge;
  /** The in-process lexical (and, unless embedded_vectors is off, vector) projection of this process. */
  readonly projection: SearchProjection;
  /**
   * The vector index that sees this process's own writes at once (dedup, verification): the embedded one, or Qdrant
   * when embedded_vectors is off.
   */
  readonly vectorIndex: VectorIndex;
  /** The vector index of memory_search: Qdrant (falling back to the embedded one while down) when set, else embedded. */
  readonly searchIndex: VectorIndex;
  /** Graph reads: Memgraph (falling back to SQL while down) when set, else SQL over the canonical tables. */
  readonly graph: GraphStore;
  /** The outbox that feeds `sinks`. */
  readonly outbox: OutboxStore;
  /** External projections fed by the outbox worker (Qdrant, Memgraph); empty on the embedded default. */
  readonly sinks: readonly ProjectionSink[];
  /** Code memory: symbols, dependencies, files (same database). */
  readonly code: CodeStore;
  /** Rule inference (memory_infer) over the canonical edge tables (same database). */
  readonly inference: InferenceStore;
  /** Documents listed page by page with atoms per status, for the admin page (same database). */
  readonly documents: DocumentCatalog;
  /** Check state of fetched URL documents for `refresh` (same database). */
  readonly freshness: FreshnessStore;
  /** What is stored about atoms that bears on their confidence (domain/confidence explains it; same database). */
  readonly confidence: ConfidenceReads;
  /** Research gaps and the search-miss log (same database). */
  readonly gaps: GapStore;
  /** Entities, their mentions in atoms and their merges (same database). */
  readonly entities: EntityStore;
  /** Measurements stored beside atoms, for filtered search and their backfill (same database). */
  readonly quantities: QuantityStore;
  /** Whether a verified atom answers a research gap: an LLM when ollama_host and llm_model are set; absent = the search rule. */
  readonly gapJudge?: GapAnswerJudge;
  /** tree-sitter symbol extraction; its WebAssembly runtime and grammars load on the first file. */
  readonly extractor: SymbolExtractor;
  /** Fetches URLs for ingest (proxy and address safety applied). */
  readonly fetcher: Fetcher;
  /** Parses a source with the parser its bytes, media type or name call for, within the configured limits. */
  parse(input: ParseInput & { name?: string }): Promise<ParsedDocument>;
  /** File extensions a directory ingest picks up. */
  readonly supportedExtensions: ReadonlySet<string>;
  /** Weight of the vector leg in reciprocal rank fusion (the lexical leg has 1). */
  readonly vectorWeight: number;
  /** Backend names, for stats. */
  readonly describe: { store: string; storeLocation: string };
  /** Closes the database: in-flight work gets `graceMs`, then is cancelled and rolled back. */
  close(graceMs?: number): Promise<void>;
}
