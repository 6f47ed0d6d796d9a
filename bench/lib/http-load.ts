/**
 * Concurrent MCP-over-HTTP load against a running `serve --http`: N SDK clients (StreamableHTTPClientTransport, one
 * session each) call memory_search (English and Russian queries) and memory_store (distinct claims: sentences of the
 * two fixture texts, each once, tagged with the run and a counter) until a deadline; then (the callers restart the
 * server in between, so that durability is what is checked) every stored atom is read back by id (memory_get), as is
 * every atom a store was answered with as existing or merged, and a sample is looked up by memory_search. Errors are
 * every isError result and every thrown call (transport, timeout). Used by bench/benchmarks/http-load.ts and
 * tests/http/load.test.ts.
 */
import { readFileSync } from "node:fs";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { TEXTS } from "./env.ts";
import { seeded } from "./store-mix.ts";

/** What to run. */
export interface LoadOptions {
  /** Server base URL (`…/mcp` is appended). */
  url: string;
  clients: number;
  durationMs: number;
  /** Share of calls that are memory_store (the rest memory_search), 0..1. */
  storeShare: number;
  /** Distinguishes this run's claims from any other run's (kept in every claim). */
  runTag: string;
  /** Sent with every request (e.g. the bearer token). */
  headers?: Record<string, string>;
  /**
   * Calls each client makes at least, past the deadline if need be (default 0): a test's counts then hold however
   * slow the machine, the first calls' tool choice being fixed by the seed.
   */
  minCallsPerClient?: number;
  /** Per-call timeout (ms); a call over it is an error. */
  callTimeoutMs?: number;
  seed?: number;
}

/** An atom a memory_store call created. */
export interface StoredAtom {
  atomId: number;
  claim: string;
}

/** A failed call: the tool, and the error text (an isError result's text or the thrown message). */
export interface CallError {
  tool: string;
  message: string;
}

/** What the load did. */
export interface LoadResult {
  /** Wall time from the first call to the last response (s). */
  durationS: number;
  /** Latencies (ms) of successful calls by tool. */
  latencyMs: Record<string, number[]>;
  errors: CallError[];
  stored: StoredAtom[];
  /** memory_store calls answered with an existing atom or a near-duplicate merge (claims are meant to be distinct). */
  merged: Array<{ claim: string; atomId: number; nearDuplicateOf: number | null }>;
}

type Connected = { client: Client; transport: StreamableHTTPClientTransport };

/** Connects one MCP client over Streamable HTTP (its own session). */
export async function connectHttpClient(url: string, headers: Record<string, string> = {}): Promise<Connected> {
  const transport = new StreamableHTTPClientTransport(new URL(`${url}/mcp`), { requestInit: { headers } });
  const client = new Client({ name: "pegas-http-load", version: "1" });
  await client.connect(transport);
  return { client, transport };
}

/** Ends a client's session (DELETE) and closes it; failures are ignored (the server may be gone). */
export async function closeHttpClient(c: Connected): Promise<void> {
  await c.transport.terminateSession().catch(() => {});
  await c.client.close().catch(() => {});
}

/**
 * Opens the database through the server with one memory_stats call (the first call waits for it), so that opening
 * is not in a timed window. @throws Error when the call fails.
 */
export async function warmUp(url: string, headers: Record<string, string> = {}): Promise<void> {
  const c = await connectHttpClient(url, headers);
  try {
    const r = await c.client.callTool({ name: "memory_stats", arguments: {} }, undefined, { timeout: 180_000 });
    if (r.isError) throw new Error(`warm-up memory_stats failed: ${JSON.stringify(r.content)}`);
  } finally {
    await closeHttpClient(c);
  }
}

/** Distinct sentences (60–280 chars, one per normalized text) of a fixture text, in text order. */
function sentences(path: string): string[] {
  const text = readFileSync(path, "utf8").replace(/\s+/g, " ");
  const seen = new Set<string>();
  const out: string[] = [];
  for (const s of text.split(/(?<=[.!?…])\s+/)) {
    const key = s
      .toLowerCase()
      .replace(/[^\p{L}\p{N}]+/gu, " ")
      .trim();
    if (s.length < 60 || s.length > 280 || seen.has(key)) continue;
    seen.add(key);
    out.push(s.trim());
  }
  return out;
}

/** The claim and query material: English and Russian sentences, interleaved, shuffled by `rand`. */
export function loadCorpus(rand: () => number): { claims: string[]; en: string[]; ru: string[] } {
  const en = sentences(TEXTS.botchan);
  const ru = sentences(TEXTS.chekhov);
  const claims: string[] = [];
  for (let i = 0; i < Math.max(en.length, ru.length); i++) {
    if (i < en.length) claims.push(en[i]);
    if (i < ru.length) claims.push(ru[i]);
  }
  for (let i = claims.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [claims[i], claims[j]] = [claims[j], claims[i]];
  }
  return { claims, en, ru };
}

/** Four consecutive words of a random sentence: a query that has answers without being any claim. */
function queryFrom(pool: string[], rand: () => number): string {
  const words = pool[Math.floor(rand() * pool.length)].split(" ");
  const at = Math.floor(rand() * Math.max(1, words.length - 4));
  return words.slice(at, at + 4).join(" ");
}

type Out = Record<string, any>;

/** Calls a tool; resolves with its structured result, or records an error and resolves null. */
async function timed(c: Connected, tool: string, args: Out, opts: LoadOptions, r: LoadResult): Promise<Out | null> {
  const t0 = performance.now();
  try {
    const res = await c.client.callTool({ name: tool, arguments: args }, undefined, {
      timeout: opts.callTimeoutMs ?? 60_000,
    });
    if (res.isError) {
      r.errors.push({ tool, message: (res.content as Array<{ text: string }>)[0]?.text ?? "isError" });
      return null;
    }
    (r.latencyMs[tool] ??= []).push(performance.now() - t0);
    return res.structuredContent as Out;
  } catch (err) {
    r.errors.push({ tool, message: (err as Error).message });
    return null;
  }
}

/** One client's loop until the deadline (and at least `minCallsPerClient` calls). */
async function clientLoop(
  i: number,
  opts: LoadOptions,
  deadline: number,
  next: () => string,
  r: LoadResult,
  corpus: ReturnType<typeof loadCorpus>,
): Promise<void> {
  const rand = seeded((opts.seed ?? 1) * 1000 + i);
  let c: Connected;
  try {
    c = await connectHttpClient(opts.url, opts.headers);
  } catch (err) {
    r.errors.push({ tool: "initialize", message: (err as Error).message });
    return;
  }
  try {
    const min = opts.minCallsPerClient ?? 0;
    for (let n = 0; n < min || performance.now() < deadline; n++) {
      if (rand() < opts.storeShare) {
        const claim = next();
        const out = await timed(c, "memory_store", { type: "fact", claim, confidence: 0.6 }, opts, r);
        if (!out) continue;
        if (out.created) r.stored.push({ atomId: out.atom_id, claim });
        else r.merged.push({ claim, atomId: out.atom_id, nearDuplicateOf: out.near_duplicate_of?.atom_id ?? null });
      } else {
        const query = queryFrom(n % 2 ? corpus.ru : corpus.en, rand);
        await timed(c, "memory_search", { query, k: 5 }, opts, r);
      }
    }
  } finally {
    await closeHttpClient(c);
  }
}

/** Runs the load (see module doc). Never throws for a failed call: failures are in `errors`. */
export async function runHttpLoad(opts: LoadOptions): Promise<LoadResult> {
  const corpus = loadCorpus(seeded(opts.seed ?? 1));
  let counter = 0;
  const next = () => {
    const n = counter++;
    return `${corpus.claims[n % corpus.claims.length]} [${opts.runTag}-${n}]`;
  };
  const r: LoadResult = { durationS: 0, latencyMs: {}, errors: [], stored: [], merged: [] };
  const t0 = performance.now();
  const deadline = t0 + opts.durationMs;
  await Promise.all(Array.from({ length: opts.clients }, (_, i) => clientLoop(i, opts, deadline, next, r, corpus)));
  r.durationS = (performance.now() - t0) / 1000;
  return r;
}

/** What the read-back found. */
export interface VerifyResult {
  /**
   * Stored atoms memory_get did not return with the same claim (or returned retracted), and atoms a store was
   * answered with as existing or merged that memory_get did not return, or returned retracted.
   */
  lost: Array<{ atomId: number; why: string }>;
  /** Atoms of merged or existing answers read back (distinct ids). */
  mergedChecked: number;
  /** Sampled atoms looked up by memory_search with their claim (k 10), and how many came back among the hits. */
  searchSampled: number;
  searchFound: number;
  /** Reads that threw (transport, timeout): neither found nor proven lost. */
  readErrors: string[];
}

/** One atom to read back: a created one (its claim must match) or one a store was answered with (`claim` null). */
interface Check {
  atomId: number;
  claim: string | null;
}

/** Reads one atom back (and searches for it when sampled), recording what differs. */
async function verifyOne(c: Connected, s: Check, search: boolean, res: VerifyResult): Promise<void> {
  const got = await c.client.callTool({ name: "memory_get", arguments: { atom_id: s.atomId } }, undefined, {
    timeout: 60_000,
  });
  const out = got.structuredContent as Out | undefined;
  const kind = s.claim === null ? "merged/existing answer: " : "";
  if (got.isError || !out)
    res.lost.push({ atomId: s.atomId, why: kind + ((got.content as Array<{ text: string }>)[0]?.text ?? "no result") });
  else if ((s.claim !== null && out.claim !== s.claim) || out.status === "retracted")
    res.lost.push({ atomId: s.atomId, why: `${kind}claim or status differs: ${out.status} '${out.claim}'` });
  if (!search || s.claim === null) return;
  res.searchSampled++;
  const found = await c.client.callTool({ name: "memory_search", arguments: { query: s.claim, k: 10 } }, undefined, {
    timeout: 60_000,
  });
  const hits = ((found.structuredContent as Out | undefined)?.hits ?? []) as Array<{ atom_id: number }>;
  if (hits.some((h) => h.atom_id === s.atomId)) res.searchFound++;
}

/**
 * Reads back, with `clients` concurrent clients, every stored atom (same claim, not retracted) and every distinct atom
 * of a merged or existing answer not among them (present, not retracted); searches for a sample of about
 * `searchSample` stored atoms. Transport failures go to `readErrors`.
 */
export async function verifyStored(
  url: string,
  load: Pick<LoadResult, "stored" | "merged">,
  opts: { clients: number; searchSample: number; headers?: Record<string, string>; seed?: number },
): Promise<VerifyResult> {
  const res: VerifyResult = { lost: [], mergedChecked: 0, searchSampled: 0, searchFound: 0, readErrors: [] };
  const rand = seeded(opts.seed ?? 7);
  const { stored } = load;
  const sample = new Set(
    stored.filter(() => rand() < opts.searchSample / Math.max(1, stored.length)).map((s) => s.atomId),
  );
  const created = new Set(stored.map((s) => s.atomId));
  const answered = [...new Set(load.merged.map((m) => m.atomId))].filter((id) => !created.has(id));
  res.mergedChecked = answered.length;
  const checks: Check[] = [...stored, ...answered.map((atomId) => ({ atomId, claim: null }))];
  let at = 0;
  const worker = async () => {
    const c = await connectHttpClient(url, opts.headers);
    try {
      for (let i = at++; i < checks.length; i = at++) {
        await verifyOne(c, checks[i], sample.has(checks[i].atomId), res).catch((err) =>
          res.readErrors.push(`${checks[i].atomId}: ${(err as Error).message}`),
        );
      }
    } finally {
      await closeHttpClient(c);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(opts.clients, checks.length)) }, worker));
  return res;
}
