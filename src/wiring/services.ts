/**
 * createServices(config): the only place where adapters are chosen (the model adapters in src/wiring/models.ts).
 * - database: PostgreSQL when `database_url` is set, else the embedded PGlite in `data_dir`;
 * - embedder: Ollama when `ollama_host` is set, else the local lexical embedder;
 * - projections: the embedded in-process lexical (BM25) and vector (exact) indexes in every process; Qdrant when
 *   `qdrant_url` is set and Memgraph when `memgraph_url` is set, fed by the outbox and read with a fallback to the
 *   embedded index / SQL while they are down; graph reads by SQL over the canonical tables otherwise.
 */
import { realpathSync } from "node:fs";
import { join } from "node:path";
import type { Config } from "../config.ts";
import { activeEmbedding, makeDistiller, makeEmbedder, makeGapJudge, makeJudges } from "./models.ts";
import { type CeilingAdvice, EmbeddedProjection, type SnapshotOptions } from "../adapters/embedded/projection.ts";
import { readSnapshotFile } from "../adapters/embedded/snapshot.ts";
import type { Database } from "../adapters/sql/database.ts";
import { SqlCanonicalStore } from "../adapters/sql/store.ts";
import type { Services } from "../core/services.ts";
import { settleSearchMisses } from "../core/gaps/miss.ts";
import { ensureSchema, openDatabase } from "./store.ts";
import type { Embedder } from "../ports/models/embedder.ts";
import type { Fetcher } from "../ports/models/fetcher.ts";
import type { GraphStore } from "../ports/projections/graph-store.ts";
import type { WebSearch } from "../ports/models/web-search.ts";
import type { ProjectionSink } from "../ports/projections/projection-sink.ts";
import { readerOf } from "../ports/projections/outbox.ts";
import { log } from "../log.ts";
import type { VectorIndex } from "../ports/projections/vector-index.ts";
import { FallbackGraphStore } from "../adapters/fallback/graph-store.ts";
import { FallbackVectorIndex } from "../adapters/fallback/vector-index.ts";
import { SqlGraphStore } from "../adapters/sql/graph/graph.ts";
import { followEntityMerges } from "../core/entities/merged-graph.ts";
import { SqlOutbox } from "../adapters/sql/outbox/outbox.ts";
import { SqlCodeStore } from "../adapters/sql/code/store.ts";
import { inferringCodeStore, SqlInferenceStore } from "../adapters/sql/inference/store.ts";
import { SqlSupersessionStore } from "../adapters/sql/knowledge/supersession.ts";
import { SqlFreshnessStore } from "../adapters/sql/freshness.ts";
import { SqlConfidenceReads } from "../adapters/sql/knowledge/confidence.ts";
import { SqlGapStore } from "../adapters/sql/gaps.ts";
import { SqlEntityStore } from "../adapters/sql/entities/store.ts";
import { SqlQuantityStore } from "../adapters/sql/quantities/store.ts";
import { SqlDocumentCatalog } from "../adapters/sql/knowledge/document-catalog.ts";
import { lazyExtractor } from "../adapters/tree-sitter/lazy.ts";
import { SUPPORTED_EXTENSIONS } from "../adapters/parsers/formats.ts";

/** RRF weight of the lexical embedder's vector leg: measured on a dev split it only repeats the lexical leg's
 * evidence, and any weight ≥ 0.02 lowered nDCG@10 (docs/benchmarks.md, notes on retrieval); at 0.01 it breaks ties
 * and adds candidates when the lexical leg finds too little. Neural embedders get 1. */
export const LEXICAL_EMBEDDER_FUSION_WEIGHT = 0.01;

export { makeEmbedderFor } from "./models.ts";

export { openDatabase } from "./store.ts";

/** The URL fetcher of ingest; its module (HTTP, proxies, the public suffix list) loads on the first fetch. */
function makeFetcher(config: Config): Fetcher {
  return {
    fetch: async (url, signal, conditional) =>
      (await import("../adapters/web/fetch.ts")).fetchUrl(url, {
        proxyUrl: config.proxy_url,
        allowPrivate: config.allow_private_urls,
        allowHosts: config.allow_hosts,
        timeoutMs: config.fetch_timeout_ms,
        maxBytes: config.max_input_bytes,
        signal,
        conditional,
      }),
  };
}

/**
 * A Qdrant vector projection of `model` in `collection` (default: derived from model and dimension; the active
 * embedder gets `qdrant_collection` when set), or null when qdrant_url is not set. Nothing is sent until it is used.
 */
export async function makeVectorSink(
  config: Config,
  model: string,
  dim: number,
  collection?: string,
): Promise<(ProjectionSink & VectorIndex) | null> {
  if (!config.qdrant_url) return null;
  const { QdrantVectorIndex } = await import("../adapters/qdrant/vector-index.ts");
  const { defaultCollectionName } = await import("../adapters/qdrant/ids.ts");
  collection ??= defaultCollectionName(model, dim);
  return new QdrantVectorIndex({
    url: config.qdrant_url,
    apiKey: config.qdrant_api_key,
    collection,
    model,
    dim,
    timeoutMs: config.qdrant_timeout_ms,
  });
}

/**
 * The web search backend of `research` (SearxNG-compatible, at search_url), or null when search_url is not set.
 * @throws PegasError INVALID_INPUT when search_url is not an http(s) URL.
 */
export async function makeWebSearch(config: Config, timeoutMs: number): Promise<WebSearch | null> {
  if (!config.search_url) return null;
  const { SearxngSearch } = await import("../adapters/search/searxng.ts");
  return new SearxngSearch({ baseUrl: config.search_url, timeoutMs });
}

/**
 * A Memgraph graph projection, or null when memgraph_url is not set; `timeoutMs` bounds each request (default: the
 * client's). Nothing is sent until it is used.
 */
export async function makeGraphSink(config: Config, timeoutMs?: number): Promise<(ProjectionSink & GraphStore) | null> {
  if (!config.memgraph_url) return null;
  const { MemgraphGraph } = await import("../adapters/memgraph/graph.ts");
  return new MemgraphGraph({
    url: config.memgraph_url,
    user: config.memgraph_user,
    password: config.memgraph_password,
    ...(timeoutMs === undefined ? {} : { timeoutMs }),
  });
}

/**
 * The index snapshot of an embedded data dir for one embedding model: `<data dir>/.cache/index-<model>-<dim>.snap`
 * (the model name reduced to file-name characters). PostgreSQL stores keep no snapshot: their processes share no dir.
 */
export function snapshotPath(dataDir: string, model: string, dim: number): string {
  return join(dataDir, ".cache", `index-${model.replace(/[^A-Za-z0-9._-]/g, "_")}-${dim}.snap`);
}

/**
 * Starts reading the embedded data dir's index snapshot for the configured model, so that it is read while the
 * database opens; undefined for PostgreSQL or a data dir that does not exist yet.
 */
function readSnapshotAhead(config: Config): Required<Pick<SnapshotOptions, "path" | "file">> | undefined {
  if (config.database_url) return undefined;
  let dir: string;
  try {
    dir = realpathSync(config.data_dir); // as the database's location (pglite/paths.ts)
  } catch {
    return undefined;
  }
  const { model, dim } = activeEmbedding(config);
  const path = snapshotPath(dir, model, dim);
  const file = readSnapshotFile(path);
  file.catch(() => {}); // the restore reports it
  return { path, file };
}

/**
 * The set-up a store past the in-process indexes' ceiling (EMBEDDED_ATOM_CEILING) should move to: PostgreSQL with Qdrant for the embedded
 * database, Qdrant for PostgreSQL with in-process vectors; none when vectors already live only in Qdrant.
 */
export function ceilingAdvice(kind: Database["kind"], config: Config): CeilingAdvice | undefined {
  const qdrant = "Qdrant (qdrant_url, with embedded_vectors = false)";
  if (kind === "pglite")
    return { hint: `for a store this large run PostgreSQL (database_url) with ${qdrant}: docs/operations.md` };
  if (!config.qdrant_url || config.embedded_vectors)
    return { hint: `for a store this large move the vectors to ${qdrant}: docs/operations.md` };
  return undefined;
}

type ProjectionServices = Pick<Services, "projection" | "vectorIndex" | "searchIndex" | "graph" | "outbox" | "sinks">;

/**
 * The projections of one process: the embedded indexes (vectors too unless Qdrant is set and embedded_vectors is
 * off), Qdrant and Memgraph as outbox-fed sinks when configured, read through fallbacks to the embedded index / SQL.
 */
async function makeProjections(
  config: Config,
  db: Database,
  store: SqlCanonicalStore,
  embedder: Embedder,
  ahead?: Required<Pick<SnapshotOptions, "path" | "file">>,
): Promise<ProjectionServices> {
  const followVectors = !config.qdrant_url || config.embedded_vectors;
  const path = db.kind === "pglite" ? snapshotPath(db.location, embedder.model, embedder.dim) : undefined;
  const projection = new EmbeddedProjection(
    store,
    embedder.model,
    embedder.dim,
    followVectors,
    path ? { path, ...(ahead?.path === path ? { file: ahead.file } : {}) } : undefined,
    ceilingAdvice(db.kind, config),
  );
  const sinks: ProjectionSink[] = [];
  const sqlGraph = new SqlGraphStore(db);
  let vectorIndex: VectorIndex = projection.vectorIndex;
  let searchIndex: VectorIndex = projection.vectorIndex;
  let graph: GraphStore = sqlGraph;
  const qdrant = await makeVectorSink(config, embedder.model, embedder.dim, config.qdrant_collection);
  if (qdrant) {
    sinks.push(qdrant);
    searchIndex = new FallbackVectorIndex(qdrant, followVectors ? projection.vectorIndex : null);
    if (!followVectors) vectorIndex = searchIndex;
  }
  const memgraph = await makeGraphSink(config);
  if (memgraph) {
    sinks.push(memgraph);
    graph = new FallbackGraphStore(memgraph, sqlGraph);
  }
  const outbox = new SqlOutbox(db, config.outbox_retention_hours * 3600);
  await registerSinks(outbox, sinks);
  return { projection, vectorIndex, searchIndex, graph, outbox, sinks };
}

/**
 * Registers the process's sinks as outbox readers, so that every writer queues what they read (and, with none
 * anywhere, nothing). A sink new to a store that already holds atoms missed the earlier writes: the log says to rebuild.
 */
async function registerSinks(outbox: SqlOutbox, sinks: ProjectionSink[]): Promise<void> {
  if (!sinks.length) return;
  const r = await outbox.registerReaders(sinks.map(readerOf));
  if (r.added.length && r.storeHasAtoms)
    log.warn("a projection new to this store (or back after a lapse) lacks earlier writes", {
      projections: r.added,
      hint: `run \`pegas-memory rebuild ${r.added.length > 1 ? "all" : r.added[0] === "qdrant" ? "vector" : "graph"}\``,
    });
}

/**
 * Builds the services: opens the database, applies migrations (unless `migrate` is false, in which case a schema
 * behind this build is PegasError MIGRATION_REQUIRED), readies the embedder.
 */
export async function createServices(config: Config): Promise<Services> {
  const ahead = readSnapshotAhead(config);
  const db = await openDatabase(config);
  try {
    const store = new SqlCanonicalStore(db);
    await ensureSchema(store, config.migrate);
    const embedder = await makeEmbedder(config);
    await embedder.ready();
    const projections = await makeProjections(config, db, store, embedder, ahead);
    const extractor = lazyExtractor(config.code_workers);
    const limits = {
      maxBytes: config.max_input_bytes,
      maxZipEntries: config.zip_max_entries,
      maxZipTotalBytes: config.zip_max_total_bytes,
      maxZipEntryBytes: config.zip_max_entry_bytes,
    };
    const entities = new SqlEntityStore(db);
    return {
      config,
      maintenance: store,
      changeFeed: store,
      atomReads: store,
      searchReads: store,
      embeddingStore: store,
      atomWrites: store,
      ingestWrites: store,
      curation: store,
      traces: store,
      verification: store,
      embedder,
      distiller: await makeDistiller(config),
      ...(await makeJudges(config, embedder)),
      ...(await makeGapJudge(config)),
      ...projections,
      graph: followEntityMerges(projections.graph, entities), // a merged entity's id answers for its root
      code: inferringCodeStore(new SqlCodeStore(db), db),
      inference: new SqlInferenceStore(db),
      supersession: new SqlSupersessionStore(db),
      gaps: new SqlGapStore(db),
      freshness: new SqlFreshnessStore(db),
      confidence: new SqlConfidenceReads(db),
      entities,
      quantities: new SqlQuantityStore(db),
      documents: new SqlDocumentCatalog(db),
      extractor,
      fetcher: makeFetcher(config),
      // The parsers (PDF, EPUB, HTML with their libraries) load on the first parse.
      parse: async (input) =>
        (await import("../adapters/parsers/select.ts"))
          .selectParser({ bytes: input.bytes, mediaType: input.mediaType, name: input.name })
          .parse(input, limits),
      supportedExtensions: SUPPORTED_EXTENSIONS,
      vectorWeight: config.vector_weight ?? (embedder.kind === "lexical" ? LEXICAL_EMBEDDER_FUSION_WEIGHT : 1),
      describe: { store: db.kind, storeLocation: db.location },
      close: async (graceMs?: number) => {
        const closing = [
          projections.outbox.close(),
          ...projections.sinks.map((k) => k.close()),
          extractor.close?.() ?? Promise.resolve(),
        ];
        // A search's miss-log write still in flight would meet a closed connection (CONNECTION_ENDED warnings).
        closing.push(settleSearchMisses(Math.min(graceMs ?? 1000, 1000)));
        await Promise.all(closing.map((p) => p.catch(() => {})));
        await db.close(graceMs);
      },
    };
  } catch (err) {
    await db.close(0).catch(() => {});
    throw err;
  }
}
