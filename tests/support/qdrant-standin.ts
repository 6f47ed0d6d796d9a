/**
 * The Qdrant REST stand-in: a test server on 127.0.0.1 (ephemeral port) that speaks the part of Qdrant's REST API
 * the adapter uses — collections (get, exists, create, delete), payload index, points upsert / delete / query /
 * count — with Qdrant's envelopes (`{result, status: "ok", time}`; errors `{status: {error}, time}` with 400, 401,
 * 404, 409), exact cosine (or dot) scoring over stored vectors normalized as Qdrant does for Cosine, and real filter
 * semantics (`must` / `must_not` / `should`, nested filters, `has_id`, `is_empty`, `is_null`, `match.value` /
 * `match.any` on keywords, integers and booleans, `range`). It is a test stand-in, not Qdrant: no HNSW, no
 * persistence, no named-vector search; what it does not implement answers 400 saying so. It records every request
 * and how often each point id was upserted, and fails on demand: `stop()`/`start()` on the same port, `failWith`
 * an HTTP status, `delayMs`.
 */
import type { Server } from "bun";

/** One request as received: method, path, query parameters, parsed JSON body, api-key header, answer status. */
export interface StandinRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  body: unknown;
  apiKey: string | null;
  status: number;
}

/** A stored point: id as Qdrant echoes it, vector (normalized for Cosine), payload, version (operation number). */
export interface StandinPoint {
  id: string | number;
  vector: Float32Array;
  payload: Record<string, unknown>;
  version: number;
}

/** A collection: its `vectors` config as created (unnamed `{size, distance}` or named), points by id, payload indexes. */
export interface StandinCollection {
  vectors: Record<string, unknown>;
  points: Map<string, StandinPoint>;
  schema: Record<string, { data_type: string }>;
}

class Refusal extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

const UUID_RE = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;
const DISTANCES = ["Cosine", "Dot", "Euclid", "Manhattan"];
const list = (x: unknown): unknown[] => (x == null ? [] : Array.isArray(x) ? x : [x]);
const obj = (x: unknown): Record<string, unknown> =>
  x !== null && typeof x === "object" ? (x as Record<string, unknown>) : {};
const unsupported = (what: string) =>
  new Refusal(400, `Wrong input: ${what} is not implemented by the Qdrant REST stand-in`);

/** Point id key as Qdrant normalizes it (UUIDs hyphenated lower-case, integers as decimal). @throws Refusal 400. */
function pointKey(id: unknown): { key: string; id: string | number } {
  if (typeof id === "number" && Number.isSafeInteger(id) && id >= 0) return { key: String(id), id };
  if (typeof id === "string" && UUID_RE.test(id)) {
    const h = id.replaceAll("-", "").toLowerCase();
    const uuid = `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
    return { key: uuid, id: uuid };
  }
  throw new Refusal(
    400,
    `Format error in JSON body: value ${JSON.stringify(id)} is not a valid point ID, valid values are either an unsigned integer or a UUID`,
  );
}

/** Payload values at a (dotted) key, arrays flattened, nulls dropped. */
function valuesAt(payload: Record<string, unknown>, key: string): unknown[] {
  let cur: unknown[] = [payload];
  for (const part of key.split(".")) cur = cur.flatMap((v) => list(obj(v)[part]));
  return cur.flatMap(list).filter((v) => v !== null && v !== undefined);
}

function matchHolds(m: Record<string, unknown>, values: unknown[]): boolean {
  if ("value" in m) return values.some((v) => v === m.value);
  if ("any" in m && Array.isArray(m.any)) return values.some((v) => (m.any as unknown[]).includes(v));
  throw unsupported(`match ${JSON.stringify(m)}`);
}

function rangeHolds(r: Record<string, unknown>, values: unknown[]): boolean {
  const n = (k: string) => (typeof r[k] === "number" ? (r[k] as number) : undefined);
  const [lt, lte, gt, gte] = [n("lt"), n("lte"), n("gt"), n("gte")];
  return values.some(
    (v) =>
      typeof v === "number" &&
      (lt === undefined || v < lt) &&
      (lte === undefined || v <= lte) &&
      (gt === undefined || v > gt) &&
      (gte === undefined || v >= gte),
  );
}

function conditionHolds(c: Record<string, unknown>, p: StandinPoint): boolean {
  if ("must" in c || "should" in c || "must_not" in c) return filterHolds(c, p);
  if ("has_id" in c) return list(c.has_id).some((id) => pointKey(id).key === pointKey(p.id).key);
  if ("is_empty" in c) return valuesAt(p.payload, String(obj(c.is_empty).key)).length === 0;
  if ("is_null" in c) return p.payload[String(obj(c.is_null).key)] === null;
  if (typeof c.key !== "string") throw unsupported(`condition ${JSON.stringify(c)}`);
  const values = valuesAt(p.payload, c.key);
  if (c.match) return matchHolds(obj(c.match), values);
  if (c.range) return rangeHolds(obj(c.range), values);
  throw unsupported(`condition ${JSON.stringify(c)}`);
}

/** Qdrant filter semantics: every `must`, no `must_not`, and at least one `should` when there are any. */
function filterHolds(f: Record<string, unknown>, p: StandinPoint): boolean {
  if (f.min_should) throw unsupported("min_should");
  const should = list(f.should).map(obj);
  return (
    list(f.must).every((c) => conditionHolds(obj(c), p)) &&
    !list(f.must_not).some((c) => conditionHolds(obj(c), p)) &&
    (should.length === 0 || should.some((c) => conditionHolds(c, p)))
  );
}

function dense(v: unknown, size: number, cosine: boolean): Float32Array {
  if (!Array.isArray(v) || !v.every((x) => typeof x === "number"))
    throw unsupported("a vector that is not a dense number array");
  if (v.length !== size)
    throw new Refusal(400, `Wrong input: Vector dimension error: expected dim: ${size}, got ${v.length}`);
  const norm = cosine ? Math.hypot(...v) : 1;
  return Float32Array.from(v, (x) => (norm > 0 ? x / norm : x));
}

/** A running stand-in; see the module comment. Start it with {@link QdrantRestStandin.start}. */
export class QdrantRestStandin {
  /** Every request, in arrival order. */
  readonly requests: StandinRequest[] = [];
  /** How many times each point id (normalized) was upserted by a successful request. */
  readonly upsertsByPoint = new Map<string, number>();
  /** Collections by name. */
  readonly collections = new Map<string, StandinCollection>();
  /** Latency added to every answer in ms (the client may give up first). */
  delayMs = 0;
  private failure: { status: number; times: number; when: (r: StandinRequest) => boolean } | null = null;
  private server: Server<undefined> | null = null;
  private port = 0;
  private ops = 0;
  private readonly t0 = performance.now();

  private constructor(private readonly apiKey: string | null) {}

  /** Starts a stand-in; with `apiKey`, requests without that `api-key` header (or bearer token) get 401. */
  static async start(opts: { apiKey?: string } = {}): Promise<QdrantRestStandin> {
    const s = new QdrantRestStandin(opts.apiKey ?? null);
    await s.start();
    return s;
  }

  /** Base URL, e.g. `http://127.0.0.1:41234` (unchanged across stop/start). */
  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** (Re)opens the listener on the same port (an ephemeral one the first time). */
  async start(): Promise<void> {
    if (this.server) return;
    this.server = Bun.serve({ hostname: "127.0.0.1", port: this.port, fetch: (req) => this.handle(req) });
    this.port = this.server.port ?? 0;
  }

  /** Closes the listener and every open connection; the port then refuses connections until `start()`. */
  async stop(): Promise<void> {
    await this.server?.stop(true);
    this.server = null;
  }

  /**
   * Answers the next `times` requests (default all) that `when` selects (default every one) with HTTP `status` and
   * Qdrant's error envelope; `failWith(null)` clears.
   */
  failWith(
    status: number | null,
    times = Number.POSITIVE_INFINITY,
    when: (r: StandinRequest) => boolean = () => true,
  ): void {
    this.failure = status === null ? null : { status, times, when };
  }

  /** Requests that change data (everything but GETs, points/query and points/count). */
  writes(): StandinRequest[] {
    return this.requests.filter((r) => r.method !== "GET" && !/\/points\/(query|count)$/.test(r.path));
  }

  /** Creates a collection directly (test set-up), e.g. `{size: 4, distance: "Cosine"}` or named vectors. */
  seedCollection(name: string, vectors: Record<string, unknown>): void {
    this.collections.set(name, { vectors, points: new Map(), schema: {} });
  }

  private envelope(result: unknown, status = 200): Response {
    return Response.json({ result, status: "ok", time: (performance.now() - this.t0) / 1e6 }, { status });
  }

  private async handle(req: Request): Promise<Response> {
    const url = new URL(req.url);
    const body = req.method === "GET" ? undefined : await req.json().catch(() => undefined);
    const rec: StandinRequest = {
      method: req.method,
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      body,
      apiKey: req.headers.get("api-key"),
      status: 0,
    };
    this.requests.push(rec);
    if (this.delayMs > 0) await Bun.sleep(this.delayMs);
    let res: Response;
    try {
      res = this.route(req, rec, url.pathname.split("/").filter(Boolean).map(decodeURIComponent));
    } catch (err) {
      const status = err instanceof Refusal ? err.status : 500;
      res = Response.json({ status: { error: err instanceof Error ? err.message : String(err) }, time: 0 }, { status });
    }
    rec.status = res.status;
    return res;
  }

  private route(req: Request, rec: StandinRequest, seg: string[]): Response {
    const bearer = req.headers.get("authorization")?.replace(/^Bearer /, "") ?? null;
    if (this.apiKey && rec.apiKey !== this.apiKey && bearer !== this.apiKey)
      throw new Refusal(401, "Must provide an API key or an Authorization bearer token");
    if (this.failure?.when(rec) && this.failure.times-- > 0)
      throw new Refusal(
        this.failure.status,
        `Service internal error: the Qdrant REST stand-in was told to answer ${this.failure.status}`,
      );
    if (seg.length === 0) return Response.json({ title: "qdrant REST stand-in", version: "1.19.0" });
    if (seg[0] !== "collections" || seg.length < 2) throw new Refusal(404, `Not found: ${rec.path}`);
    const [, name, a, b] = seg;
    const key = `${req.method} ${[a, b].filter(Boolean).join("/")}`;
    if (key === "GET exists") return this.envelope({ exists: this.collections.has(name) });
    if (key === "PUT ") return this.create(name, obj(rec.body));
    if (key === "DELETE ") return this.envelope(this.collections.delete(name));
    const c = this.collections.get(name);
    if (!c) throw new Refusal(404, `Not found: Collection \`${name}\` doesn't exist!`);
    if (key === "GET ") return this.envelope(this.info(c));
    if (key === "PUT index") return this.index(c, obj(rec.body));
    if (key === "PUT points") return this.upsert(c, obj(rec.body), rec.query.wait === "true");
    if (key === "POST points/delete") return this.remove(c, obj(rec.body));
    if (key === "POST points/query") return this.query(c, obj(rec.body));
    if (key === "POST points/count") return this.envelope({ count: this.matching(c, rec.body).length });
    throw unsupported(`${req.method} ${rec.path}`);
  }

  private create(name: string, body: Record<string, unknown>): Response {
    if (this.collections.has(name)) throw new Refusal(409, `Wrong input: Collection \`${name}\` already exists!`);
    const vectors = obj(body.vectors);
    const params = "size" in vectors ? [vectors] : Object.values(vectors).map(obj);
    for (const p of params) {
      if (!Number.isSafeInteger(p.size) || (p.size as number) < 1 || !DISTANCES.includes(String(p.distance))) {
        throw new Refusal(400, `Format error in JSON body: bad vectors config ${JSON.stringify(body.vectors)}`);
      }
    }
    this.seedCollection(name, vectors);
    return this.envelope(true);
  }

  private info(c: StandinCollection): unknown {
    const schema = Object.fromEntries(
      Object.entries(c.schema).map(([f, s]) => [
        f,
        { ...s, points: [...c.points.values()].filter((p) => valuesAt(p.payload, f).length > 0).length },
      ]),
    );
    return {
      status: "green",
      optimizer_status: "ok",
      indexed_vectors_count: 0,
      points_count: c.points.size,
      segments_count: 1,
      config: {
        params: {
          vectors: c.vectors,
          shard_number: 1,
          replication_factor: 1,
          write_consistency_factor: 1,
          on_disk_payload: true,
        },
        hnsw_config: { m: 16, ef_construct: 100, full_scan_threshold: 10000 },
        optimizer_config: {},
        wal_config: {},
        quantization_config: null,
      },
      payload_schema: schema,
    };
  }

  private updated(wait = true): Response {
    return this.envelope({ operation_id: this.ops++, status: wait ? "completed" : "acknowledged" });
  }

  private index(c: StandinCollection, body: Record<string, unknown>): Response {
    const type = typeof body.field_schema === "string" ? body.field_schema : obj(body.field_schema).type;
    if (typeof body.field_name !== "string" || typeof type !== "string")
      throw new Refusal(400, "Format error in JSON body: field_name and field_schema are required");
    c.schema[body.field_name] = { data_type: type };
    return this.updated();
  }

  private unnamed(c: StandinCollection): { size: number; cosine: boolean } {
    if (typeof c.vectors.size !== "number") throw unsupported("named vectors");
    if (c.vectors.distance !== "Cosine" && c.vectors.distance !== "Dot")
      throw unsupported(`distance ${String(c.vectors.distance)}`);
    return { size: c.vectors.size, cosine: c.vectors.distance === "Cosine" };
  }

  private upsert(c: StandinCollection, body: Record<string, unknown>, wait: boolean): Response {
    if (!Array.isArray(body.points)) throw unsupported("an upsert without a `points` list");
    const { size, cosine } = this.unnamed(c);
    const version = this.ops;
    const points = body.points
      .map(obj)
      .map((p) => ({ ...pointKey(p.id), vector: dense(p.vector, size, cosine), payload: obj(p.payload), version }));
    for (const p of points) {
      c.points.set(p.key, { id: p.id, vector: p.vector, payload: p.payload, version });
      this.upsertsByPoint.set(p.key, (this.upsertsByPoint.get(p.key) ?? 0) + 1);
    }
    return this.updated(wait);
  }

  private matching(c: StandinCollection, body: unknown): StandinPoint[] {
    const filter = obj(body).filter;
    return [...c.points.values()].filter((p) => filter == null || filterHolds(obj(filter), p));
  }

  private remove(c: StandinCollection, body: Record<string, unknown>): Response {
    const doomed = Array.isArray(body.points)
      ? body.points.map((id) => pointKey(id).key)
      : this.matching(c, body).map((p) => pointKey(p.id).key);
    for (const key of doomed) c.points.delete(key);
    return this.updated();
  }

  private query(c: StandinCollection, body: Record<string, unknown>): Response {
    const { size, cosine } = this.unnamed(c);
    const raw = Array.isArray(body.query) ? body.query : obj(body.query).nearest;
    const q = dense(raw, size, cosine);
    const limit = body.limit === undefined ? 10 : Number(body.limit);
    const offset = Number(body.offset ?? 0);
    if (!Number.isSafeInteger(limit) || limit < 1)
      throw new Refusal(
        400,
        `Validation error in JSON body: [limit: value ${body.limit} invalid, must be 1 or larger]`,
      );
    const threshold = typeof body.score_threshold === "number" ? body.score_threshold : -Infinity;
    const scored = this.matching(c, body)
      .map((p) => ({ p, score: p.vector.reduce((s, x, i) => s + x * q[i], 0) }))
      .filter((h) => h.score >= threshold)
      .sort((x, y) => y.score - x.score || pointKey(x.p.id).key.localeCompare(pointKey(y.p.id).key));
    const wp = body.with_payload;
    const shown = (p: StandinPoint) =>
      wp === true
        ? p.payload
        : Array.isArray(wp)
          ? Object.fromEntries(wp.filter((k) => k in p.payload).map((k) => [k, p.payload[k]]))
          : undefined;
    const points = scored
      .slice(offset, offset + limit)
      .map(({ p, score }) => ({ id: p.id, version: p.version, score, payload: shown(p) }));
    return this.envelope({ points });
  }
}
