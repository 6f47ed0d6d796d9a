/**
 * The bundle of ports the use cases run on; built once per process by `createServices` (src/wiring.ts), the only
 * place where adapters are chosen.
 */
import type { Config } from "../config.ts";
import type { CanonicalStore } from "../ports/canonical-store.ts";
import type { Distiller } from "../ports/distiller.ts";
import type { Embedder } from "../ports/embedder.ts";
import type { Fetcher } from "../ports/fetcher.ts";
import type { ParseInput, ParsedDocument } from "../ports/parser.ts";
import type { SearchProjection } from "../ports/search-projection.ts";
import type { VectorIndex } from "../ports/vector-index.ts";
import type { VerdictJudge } from "../ports/verdict-judge.ts";

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
  readonly projection: SearchProjection;
  readonly vectorIndex: VectorIndex;
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
