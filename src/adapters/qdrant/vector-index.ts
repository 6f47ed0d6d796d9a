/**
 * Qdrant adapter: the vector projection of one embedding model in one Qdrant collection, through the REST client
 * `@qdrant/js-client-rest` (endpoints: collections, payload index, points upsert / delete / query / count). It is
 * both a {@link VectorIndex} (searched by the core) and a {@link ProjectionSink} (fed by the outbox worker).
 * Every write first runs {@link QdrantVectorIndex.prepare}, so a collection of another shape is never written to.
 */
import { QdrantClient } from "@qdrant/js-client-rest";
import type { AtomFilter } from "../../domain/atom.ts";
import { maskUrl } from "../../config-redact.ts";
import { PegasError } from "../../errors.ts";
import { log } from "../../log.ts";
import type {
  AtomState,
  ProjectionChange,
  ProjectionCounts,
  ProjectionSink,
} from "../../ports/projections/projection-sink.ts";
import type { VectorHit, VectorIndex, VectorPoint } from "../../ports/projections/vector-index.ts";
import { ensureCollection, type CollectionSpec } from "./collection.ts";
import { httpStatusOf, isMissingCollection, qdrantFailure } from "./failures.ts";
import { pointIdOf } from "./ids.ts";
import { checkVector, pointStructOf, qdrantFilterOf } from "./payload.ts";

/** Options: server URL (`http(s)://host:port[/prefix]`), API key, collection, model, dimension, timeout per request in ms. */
export interface QdrantIndexOptions {
  url: string;
  apiKey?: string;
  collection: string;
  model: string;
  dim: number;
  /** Timeout of one HTTP request in ms (default {@link QDRANT_DEFAULT_TIMEOUT_MS}). */
  timeoutMs?: number;
  /** Points per upsert request (default {@link QDRANT_UPSERT_BATCH}). */
  batchSize?: number;
}

/** Default timeout of one Qdrant request, ms. */
export const QDRANT_DEFAULT_TIMEOUT_MS = 10_000;
/** Default points per upsert request (768-dim vectors make ≈ 2.5 MB of JSON, far below Qdrant's 32 MB limit). */
export const QDRANT_UPSERT_BATCH = 256;
/** Point ids per delete request. */
const DELETE_BATCH = 1000;

const COLLECTION_RE = /^[A-Za-z0-9_-]{1,255}$/;

function checkOptions(o: QdrantIndexOptions): URL {
  let url: URL;
  try {
    url = new URL(o.url);
  } catch (cause) {
    throw new PegasError("INVALID_INPUT", `qdrant_url '${o.url}' is not a URL`, {
      hint: "use e.g. http://127.0.0.1:6333",
      cause,
    });
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new PegasError("INVALID_INPUT", `qdrant_url '${o.url}' is not http(s)`, {
      hint: "the REST API is served over http(s), port 6333 by default",
    });
  }
  if (!COLLECTION_RE.test(o.collection)) {
    throw new PegasError(
      "INVALID_INPUT",
      `Qdrant collection name '${o.collection}' may hold only letters, digits, _ and -`,
      { hint: "set qdrant_collection to such a name" },
    );
  }
  if (!Number.isSafeInteger(o.dim) || o.dim <= 0) {
    throw new PegasError("INVALID_INPUT", `vector dimension ${o.dim} for Qdrant is not a positive integer`);
  }
  return url;
}

/** Vector index and projection sink over one Qdrant collection; name "qdrant"; projects the entity "atom" only. */
export class QdrantVectorIndex implements VectorIndex, ProjectionSink {
  readonly name = "qdrant";
  readonly entities: ReadonlySet<ProjectionChange["entity"]> = new Set(["atom"] as const);
  readonly model: string;
  readonly dim: number;
  /** The collection written to. */
  readonly collection: string;
  /** The server URL as configured (for messages). */
  readonly url: string;
  private readonly client: QdrantClient;
  private readonly timeoutMs: number;
  private readonly batchSize: number;
  private ready: Promise<void> | null = null;

  /** @throws PegasError INVALID_INPUT for a URL that is not http(s), a bad collection name or dimension. */
  constructor(opts: QdrantIndexOptions) {
    const url = checkOptions(opts);
    // Messages and logs name the server; a password in the URL is never shown.
    this.url = maskUrl(opts.url.replace(/\/+$/, ""));
    this.collection = opts.collection;
    this.model = opts.model;
    this.dim = opts.dim;
    this.timeoutMs = opts.timeoutMs ?? QDRANT_DEFAULT_TIMEOUT_MS;
    this.batchSize = Math.max(1, opts.batchSize ?? QDRANT_UPSERT_BATCH);
    const prefix = url.pathname.replace(/\/+$/, "");
    // The key goes in as a header rather than `apiKey`: the client would otherwise console.warn on plain http.
    this.client = new QdrantClient({
      url: url.origin,
      prefix: prefix || undefined,
      timeout: this.timeoutMs,
      checkCompatibility: false,
      headers: opts.apiKey ? { "api-key": opts.apiKey } : undefined,
    });
    const loopback = ["localhost", "127.0.0.1", "[::1]"].includes(url.hostname);
    if (opts.apiKey && url.protocol === "http:" && !loopback) {
      log.warn("Qdrant API key sent over plain http", { url: this.url });
    }
  }

  private get spec(): CollectionSpec {
    return { url: this.url, collection: this.collection, model: this.model, dim: this.dim };
  }

  private async call<T>(op: string, fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (err) {
      throw qdrantFailure(err, { url: this.url, collection: this.collection, op, timeoutMs: this.timeoutMs });
    }
  }

  /**
   * Readies the collection (see `ensureCollection`): creates it with its payload indexes when absent, checks it when
   * present. Success is cached; a failure is not. @throws PegasError INVALID_INPUT when the collection holds another
   * dimension, named vectors or a non-Cosine distance; INDEX_UNAVAILABLE when Qdrant cannot be used.
   */
  prepare(): Promise<void> {
    if (!this.ready) {
      this.ready = this.call("prepare", () => ensureCollection(this.client, this.spec));
      this.ready.catch(() => (this.ready = null));
    }
    return this.ready;
  }

  /**
   * Runs a points operation on the prepared collection. When Qdrant answers that the collection does not exist (it
   * was dropped behind our back), prepares again, which re-creates it, and retries once.
   */
  private async onCollection<T>(op: string, fn: () => Promise<T>): Promise<T> {
    await this.prepare();
    try {
      return await fn();
    } catch (err) {
      if (!isMissingCollection(err))
        throw qdrantFailure(err, { url: this.url, collection: this.collection, op, timeoutMs: this.timeoutMs });
      log.warn("Qdrant collection vanished; re-creating it (run `pegas-memory rebuild` to refill it)", {
        url: this.url,
        collection: this.collection,
      });
      this.ready = null;
      await this.prepare();
      return this.call(op, fn);
    }
  }

  /** Exact number of points in the collection. @throws PegasError INDEX_UNAVAILABLE. */
  async count(): Promise<number> {
    return this.onCollection("count", async () => (await this.client.count(this.collection, { exact: true })).count);
  }

  /**
   * Inserts or replaces points, {@link QDRANT_UPSERT_BATCH} per request with wait=true; within one call the last
   * point of an atom wins. @throws PegasError INVALID_INPUT (wrong dimension, non-finite component) before any
   * request; INDEX_UNAVAILABLE when Qdrant cannot be used (earlier batches may then be written: upsert is idempotent).
   */
  async upsert(points: VectorPoint[]): Promise<void> {
    for (const p of points)
      checkVector(p.vector, this.dim, `vector of atom ${p.atomId}`, `${this.name}:${this.collection}`);
    const latest = [...new Map(points.map((p) => [p.atomId, p] as const)).values()];
    if (latest.length === 0) return;
    await this.prepare();
    for (let i = 0; i < latest.length; i += this.batchSize) {
      const batch = latest.slice(i, i + this.batchSize).map(pointStructOf);
      await this.onCollection("upsert", () => this.client.upsert(this.collection, { wait: true, points: batch }));
    }
  }

  /** Removes the atoms' points; absent ones are ignored. @throws PegasError INDEX_UNAVAILABLE. */
  async delete(atomIds: number[]): Promise<void> {
    const ids = [...new Set(atomIds)].map(pointIdOf);
    if (ids.length === 0) return;
    await this.prepare();
    for (let i = 0; i < ids.length; i += DELETE_BATCH) {
      const batch = ids.slice(i, i + DELETE_BATCH);
      await this.onCollection("delete", () => this.client.delete(this.collection, { wait: true, points: batch }));
    }
  }

  /**
   * The k nearest atoms by cosine (Qdrant's query API, HNSW, exact below its full-scan threshold) that pass `filter`,
   * best first; retracted atoms never. k < 1 gives []. @throws PegasError INVALID_INPUT for a query of another
   * dimension; INDEX_UNAVAILABLE when Qdrant cannot be used.
   */
  async search(query: Float32Array, k: number, filter?: AtomFilter): Promise<VectorHit[]> {
    checkVector(query, this.dim, "query vector", `${this.name}:${this.collection}`);
    const limit = Math.floor(k);
    const qfilter = qdrantFilterOf(filter);
    if (!(limit >= 1) || qfilter === null) return [];
    const res = await this.onCollection("search", () =>
      this.client.query(this.collection, {
        query: Array.from(query),
        filter: qfilter,
        limit,
        with_payload: ["atom_id"],
        with_vector: false,
      }),
    );
    const hits: VectorHit[] = [];
    for (const p of res.points) {
      const atomId = (p.payload as { atom_id?: unknown } | null | undefined)?.atom_id;
      if (typeof atomId === "number") hits.push({ atomId, score: p.score });
      else
        log.warn("Qdrant point without atom_id payload skipped", { collection: this.collection, point: String(p.id) });
    }
    return hits.sort((a, b) => b.score - a.score);
  }

  /**
   * Applies resolved changes: atom changes whose state is null, retracted or without a vector delete the point, the
   * others upsert vector and payload (last change of an atom wins); other entities are ignored.
   * @throws PegasError INVALID_INPUT (a vector of another dimension) before any write; INDEX_UNAVAILABLE.
   */
  async apply(changes: ProjectionChange[]): Promise<void> {
    const latest = new Map<number, AtomState | null>();
    for (const c of changes) if (c.entity === "atom") latest.set(c.id, c.state);
    const upserts: VectorPoint[] = [];
    const deletes: number[] = [];
    for (const [atomId, s] of latest) {
      if (s === null || s.status === "retracted" || s.vector === null) deletes.push(atomId);
      else
        upserts.push({
          atomId,
          vector: s.vector,
          payload: { type: s.type, status: s.status, docId: s.docId, confidence: s.confidence, lang: s.lang },
        });
    }
    await this.upsert(upserts); // checks every vector before its first request
    await this.delete(deletes);
  }

  /** Drops the collection and creates it again, empty (for `rebuild`). @throws PegasError INDEX_UNAVAILABLE. */
  async reset(): Promise<void> {
    this.ready = null;
    await this.call("reset", async () => {
      try {
        await this.client.deleteCollection(this.collection);
      } catch (err) {
        if (httpStatusOf(err) !== 404) throw err;
      }
    });
    await this.prepare();
  }

  /** `{ atom: <exact point count> }`. @throws PegasError INDEX_UNAVAILABLE. */
  async counts(): Promise<ProjectionCounts> {
    return { atom: await this.count() };
  }

  /** Nothing to release: requests hold no connection beyond fetch's idle keep-alive pool. */
  async close(): Promise<void> {}
}
