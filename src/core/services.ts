/**
 * The bundle of ports the use cases run on; built once per process by `createServices` (src/wiring.ts), the only
 * place where adapters are chosen.
 */
import type { Config } from "../config.ts";
import type { CanonicalStore } from "../ports/canonical-store.ts";
import type { Distiller } from "../ports/models/distiller.ts";
import type { DocumentCatalog } from "../ports/document-catalog.ts";
import type { Embedder } from "../ports/models/embedder.ts";
import type { Fetcher } from "../ports/models/fetcher.ts";
import type { GapAnswerJudge, GapStore } from "../ports/gaps.ts";
import type { GraphStore } from "../ports/projections/graph-store.ts";
import type { InferenceStore } from "../ports/inference.ts";
import type { OutboxStore } from "../ports/projections/outbox.ts";
import type { ProjectionSink } from "../ports/projections/projection-sink.ts";
import type { CodeStore } from "../ports/code-store.ts";
import type { SymbolExtractor } from "../ports/models/symbol-extractor.ts";
import type { ParseInput, ParsedDocument } from "../ports/models/parser.ts";
import type { SearchProjection } from "../ports/projections/search-projection.ts";
import type { VectorIndex } from "../ports/projections/vector-index.ts";
import type { VerdictJudge } from "../ports/models/verdict-judge.ts";

/** Ports and settings of one process. */
export interface Services {
  readonly config: Config;
  readonly store: CanonicalStore;
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
  /** Research gaps and the search-miss log (same database). */
  readonly gaps: GapStore;
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
