/**
 * The one shape of a contract suite (see tests/README.md): a suite function, `<port>Contract(name, open…, skip)`,
 * is called once per adapter; `skip` is the reason the adapter's service is absent here (null when it is present),
 * given by one of the probes below. A skipped suite prints "skipped: <suite>: <reason>" on stderr and shows one
 * skipped test named by the reason, so a run says what it did not check and why.
 */
import { describe, test } from "bun:test";
import neo4j from "neo4j-driver";
import { pgUnavailable } from "./pg.ts";

/** Why a suite cannot run here (its service is absent or unusable), or null when it can. */
export type SkipReason = string | null;

/** Longest wait of a probe for a service to answer (ms). */
const PROBE_TIMEOUT_MS = 3000;

/**
 * Registers `body` as the suite `title`, or, when `skip` holds a reason, a skipped suite of one test named by the
 * reason, printing "skipped: <title>: <reason>" on stderr.
 */
export function contractSuite(title: string, skip: SkipReason | undefined, body: () => void): void {
  if (!skip) {
    describe(title, body);
    return;
  }
  console.error(`skipped: ${title}: ${skip}`);
  describe.skip(title, () => {
    test(skip, () => {});
  });
}

/**
 * PostgreSQL at PEGAS_TEST_PG_URL (default postgres://postgres@127.0.0.1:5432/test): null when it answers.
 * @throws Error under CI (CI set), where .ci/run starts the server and its suites must run.
 */
export function postgresSkipReason(): Promise<SkipReason> {
  return pgUnavailable();
}

/** A real Qdrant at QDRANT_URL (QDRANT_API_KEY sent when set): null when `GET /collections` answers 2xx. */
export async function qdrantSkipReason(env = process.env): Promise<SkipReason> {
  const url = env.QDRANT_URL;
  if (!url) return "QDRANT_URL is not set (e.g. QDRANT_URL=http://127.0.0.1:6333, the Qdrant of deploy/compose.yaml)";
  const headers: Record<string, string> = env.QDRANT_API_KEY ? { "api-key": env.QDRANT_API_KEY } : {};
  return answers(`QDRANT_URL=${url}`, `${url.replace(/\/+$/, "")}/collections`, headers);
}

/** A real Ollama at OLLAMA_HOST (`host:port` gets http://): null when `GET /api/version` answers 2xx. */
export async function ollamaSkipReason(env = process.env): Promise<SkipReason> {
  const host = env.OLLAMA_HOST;
  if (!host) return "OLLAMA_HOST is not set (e.g. OLLAMA_HOST=http://127.0.0.1:11434)";
  return answers(`OLLAMA_HOST=${host}`, `${ollamaUrl(host)}/api/version`, {});
}

/** OLLAMA_HOST as a base URL: Ollama itself accepts `host:port` without a scheme. */
export function ollamaUrl(host: string): string {
  return (host.includes("://") ? host : `http://${host}`).replace(/\/+$/, "");
}

/**
 * A real, empty Memgraph at MEMGRAPH_URL (MEMGRAPH_USER / MEMGRAPH_PASSWORD when set): the GraphStore suite resets
 * the whole database, so one holding nodes is a reason too, unless PEGAS_TEST_MEMGRAPH_RESET=1 allows the reset.
 */
export async function memgraphSkipReason(env = process.env): Promise<SkipReason> {
  const url = env.MEMGRAPH_URL;
  if (!url)
    return "MEMGRAPH_URL is not set (e.g. MEMGRAPH_URL=bolt://127.0.0.1:7687, the Memgraph of deploy/compose.yaml)";
  const auth = env.MEMGRAPH_USER ? neo4j.auth.basic(env.MEMGRAPH_USER, env.MEMGRAPH_PASSWORD ?? "") : undefined;
  const driver = neo4j.driver(url, auth, { connectionTimeout: PROBE_TIMEOUT_MS });
  try {
    const r = await driver.executeQuery("MATCH (n) RETURN count(n) AS n");
    const n = r.records[0].get("n").toNumber();
    if (n === 0 || env.PEGAS_TEST_MEMGRAPH_RESET === "1") return null;
    return `Memgraph at ${url} holds ${n} nodes and the suite would delete them; use an empty one or set PEGAS_TEST_MEMGRAPH_RESET=1`;
  } catch (err) {
    return `MEMGRAPH_URL=${url} is set but Memgraph does not answer: ${(err as Error).message}`;
  } finally {
    await driver.close();
  }
}

/** Null when `url` answers 2xx within the probe timeout; else why not, naming `what`. */
async function answers(what: string, url: string, headers: Record<string, string>): Promise<SkipReason> {
  try {
    const res = await fetch(url, { headers, signal: AbortSignal.timeout(PROBE_TIMEOUT_MS) });
    await res.body?.cancel();
    return res.ok ? null : `${what} is set but ${url} answered HTTP ${res.status}`;
  } catch (err) {
    return `${what} is set but ${url} does not answer: ${(err as Error).message}`;
  }
}
