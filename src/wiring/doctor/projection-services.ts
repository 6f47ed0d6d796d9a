/**
 * Doctor's checks of the external projections: Qdrant (REST `GET /` for its version; the collection of the active
 * model: present? vectors of the right size?) and Memgraph (Bolt `SHOW VERSION`). Nothing is created or written.
 */
import { QdrantClient } from "@qdrant/js-client-rest";
import { checkCollectionShape, readCollection } from "../../adapters/qdrant/collection.ts";
import { qdrantFailure } from "../../adapters/qdrant/failures.ts";
import { defaultCollectionName } from "../../adapters/qdrant/ids.ts";
import { MemgraphClient } from "../../adapters/memgraph/client.ts";
import { isUnreachable, MemgraphTimeout, unreachableHint } from "../../adapters/memgraph/failures.ts";
import type { Config } from "../../config.ts";
import { maskUrl } from "../../config-redact.ts";
import { check, type DoctorCheck, failed, PROBE_TIMEOUT_MS, withTimeout } from "./check.ts";
import type { ActiveEmbedding } from "../models.ts";

/** Checks of one projection, and whether it can be read for drift (reached, and for Qdrant a fitting collection). */
export interface ProjectionProbe {
  checks: DoctorCheck[];
  usable: boolean;
}

function qdrantClient(config: Config): QdrantClient {
  const url = new URL(config.qdrant_url as string);
  return new QdrantClient({
    url: url.origin,
    prefix: url.pathname.replace(/\/+$/, "") || undefined,
    timeout: PROBE_TIMEOUT_MS,
    checkCompatibility: false,
    headers: config.qdrant_api_key ? { "api-key": config.qdrant_api_key } : undefined,
  });
}

/** The `qdrant_collection` check (the server answered already). */
async function checkCollection(
  client: QdrantClient,
  config: Config,
  active: ActiveEmbedding,
): Promise<ProjectionProbe> {
  const url = maskUrl(config.qdrant_url as string);
  const collection = config.qdrant_collection ?? defaultCollectionName(active.model, active.dim);
  const spec = { url, collection, model: active.model, dim: active.dim };
  let info: Awaited<ReturnType<typeof readCollection>>;
  try {
    info = await withTimeout(readCollection(client, collection), PROBE_TIMEOUT_MS, `Qdrant at ${url}`);
  } catch (err) {
    const e = qdrantFailure(err, { url, collection, op: "GET /collections/{name}", timeoutMs: PROBE_TIMEOUT_MS });
    return { checks: [failed("qdrant_collection", e, "see Qdrant's log")], usable: false };
  }
  if (info === null) {
    const c = check("qdrant_collection", "warn", `collection '${collection}' does not exist yet at ${url}`, {
      hint: "`serve` or `pegas-memory sync --once` creates it and fills it from the outbox; `pegas-memory rebuild vector` fills it from the database",
    });
    return { checks: [c], usable: false };
  }
  try {
    checkCollectionShape(info, spec);
  } catch (err) {
    return { checks: [failed("qdrant_collection", err, "see the message")], usable: false };
  }
  const c = check(
    "qdrant_collection",
    "ok",
    `collection '${collection}': ${info.points_count ?? 0} point(s), vectors of dimension ${active.dim} (Cosine) as the active model ${active.model} needs`,
  );
  return { checks: [c], usable: true };
}

/** The `qdrant` and `qdrant_collection` checks; "not configured" when qdrant_url is unset. */
export async function probeQdrant(config: Config, active: ActiveEmbedding): Promise<ProjectionProbe> {
  if (!config.qdrant_url) {
    return {
      checks: [check("qdrant", "info", "not configured: vectors are searched by the embedded in-process index")],
      usable: false,
    };
  }
  const url = maskUrl(config.qdrant_url);
  const client = qdrantClient(config);
  let version: string;
  try {
    const v = await withTimeout(client.versionInfo(), PROBE_TIMEOUT_MS, `Qdrant at ${url}`);
    version = String(v.version ?? "unknown");
  } catch (err) {
    const e = qdrantFailure(err, {
      url,
      collection: config.qdrant_collection ?? "(default)",
      op: "GET /",
      timeoutMs: PROBE_TIMEOUT_MS,
    });
    const skipped = check("qdrant_collection", "info", "skipped: Qdrant is unreachable");
    return { checks: [failed("qdrant", e, "start Qdrant, or fix QDRANT_URL (qdrant_url)"), skipped], usable: false };
  }
  const reached = check("qdrant", "ok", `Qdrant ${version} at ${url}`, { version });
  const coll = await checkCollection(client, config, active);
  return { checks: [reached, ...coll.checks], usable: coll.usable };
}

/** `SHOW VERSION` (Memgraph ≥ 2; needs the STATS privilege), else `RETURN 1` to tell "reached" from "down". */
async function memgraphVersion(client: MemgraphClient): Promise<{ version?: string; note?: string }> {
  try {
    const r = await client.autocommit("SHOW VERSION", { text: "SHOW VERSION", params: {} });
    const v = r.records[0]?.get("version");
    return v === undefined || v === null ? { note: "SHOW VERSION returned no version" } : { version: String(v) };
  } catch (err) {
    const cause = (err as { cause?: unknown }).cause;
    if (isUnreachable(cause) || cause instanceof MemgraphTimeout) throw err;
    await client.read("RETURN 1", (tx) => tx.run("RETURN 1"));
    return { note: `SHOW VERSION refused: ${(err as Error).message}` };
  }
}

/** The `memgraph` check; "not configured" when memgraph_url is unset. */
export async function probeMemgraph(config: Config): Promise<ProjectionProbe> {
  if (!config.memgraph_url) {
    return {
      checks: [check("memgraph", "info", "not configured: graph reads run as SQL over the canonical tables")],
      usable: false,
    };
  }
  const url = maskUrl(config.memgraph_url);
  let client: MemgraphClient;
  try {
    client = new MemgraphClient({
      url: config.memgraph_url,
      user: config.memgraph_user,
      password: config.memgraph_password,
      timeoutMs: PROBE_TIMEOUT_MS,
    });
  } catch (err) {
    return { checks: [failed("memgraph", err, "fix MEMGRAPH_URL (memgraph_url)")], usable: false };
  }
  try {
    const v = await withTimeout(memgraphVersion(client), 2 * PROBE_TIMEOUT_MS, `Memgraph at ${url}`);
    const detail = `Memgraph ${v.version ?? "(version unknown)"} at ${url}${v.note ? ` (${v.note})` : ""}`;
    return { checks: [check("memgraph", "ok", detail, { version: v.version })], usable: true };
  } catch (err) {
    return { checks: [failed("memgraph", err, unreachableHint(url))], usable: false };
  } finally {
    await withTimeout(client.close(), PROBE_TIMEOUT_MS, "closing the Bolt driver").catch(() => {});
  }
}
