/**
 * A stand-in test server that speaks the small part of Ollama's HTTP API the embedder uses (`POST /api/embed`,
 * `GET /api/tags`, `GET /api/version`), on 127.0.0.1 with an ephemeral port. It is NOT Ollama and runs no model:
 * its vectors are deterministic pseudo-random numbers seeded by a hash of the model name and the input, so they
 * carry no meaning, unless a test scripts them (`vectors`). It records every embed request and can be switched
 * into the failure modes that real deployments show (bad vectors, wrong counts, context-length errors, slow
 * answers, models not pulled).
 */
import { fnv1a32 } from "../../src/domain/hash.ts";
import { mulberry32 } from "./prng.ts";

/** Failure modes; vector modes hit only the inputs `failOn` selects, request modes every matching request. */
export type StubFailure =
  | "nan" // a selected input's vector gets a NaN component (sent as JSON null, as JSON.stringify writes NaN)
  | "zero" // a selected input's vector is all zeros
  | "wrong-dim" // a selected input's vector has one component too many
  | "wrong-count" // the response holds one vector fewer than the request had inputs
  | "context-length" // HTTP 500 "input length exceeds the context length", even when `truncate` is set
  | "slow" // the answer comes after `slowMs` (or when the client goes away)
  | "model-not-found"; // HTTP 404 `model "x" not found, try pulling it first`, whatever the model

/** One `/api/embed` request as the stub received it, with timing in ms since the stub started. */
export interface StubEmbedRequest {
  model: string;
  input: string[];
  keep_alive?: string | number;
  truncate?: boolean;
  dimensions?: number;
  startedMs: number;
  endedMs?: number;
}

/** Construction options; every field can also be changed later on the returned stub. */
export interface StubOptions {
  /** Vector dimension (default 768). */
  dim?: number;
  /** Model names that count as pulled (default ["stub-embed"]); ":latest" is implied, as in Ollama. */
  models?: string[];
  /** Latency of every embed answer in ms (default 0). */
  delayMs?: number;
  /** An input longer than this many characters gets HTTP 500 like an over-long input (default no limit). */
  contextChars?: number;
  /** Scripted vectors (see {@link OllamaStub.vectors}); default none. */
  vectors?: ScriptedVectors | null;
}

/**
 * A scripted answer per input (the prompt included, as the stub receives it): a vector, or undefined to fall back
 * to the pseudo-random one. Lets a test give inputs chosen cosines; the failure modes still apply on top.
 */
export type ScriptedVectors = (input: string) => number[] | undefined;

/** A running stub. Mutable fields switch behaviour for the following requests. */
export interface OllamaStub {
  /** Base URL, e.g. `http://127.0.0.1:41234`. */
  readonly url: string;
  dim: number;
  models: string[];
  delayMs: number;
  contextChars: number;
  /** Scripted vectors, or null; kept by `reset()` like `dim` and `models`. */
  vectors: ScriptedVectors | null;
  failure: StubFailure | null;
  /** Which inputs (prompt included) a failure applies to; default every input. */
  failOn: (input: string) => boolean;
  /** Delay of the "slow" failure in ms (default 5000). */
  slowMs: number;
  /** Every embed request seen, in arrival order. */
  readonly requests: StubEmbedRequest[];
  /** Embed requests being answered right now, and the most at any one time since the last reset. */
  readonly inFlight: number;
  readonly maxInFlight: number;
  /** Clears the failure (and failOn, slowMs), recorded requests and counters; keeps dim, models, delay, context limit. */
  reset(): void;
  /** Closes the server and every open connection. */
  stop(): Promise<void>;
}

/** Model name used by default. */
export const STUB_MODEL = "stub-embed";

/**
 * The stub's vector for `input`: `dim` components in [-2.5, 2.5), deliberately not unit length so that the
 * adapter's normalization is exercised. Exported so tests can compute what a correct adapter must return.
 */
export function stubVector(model: string, input: string, dim: number): number[] {
  const next = mulberry32(fnv1a32(`${model}\u0000${input}`));
  return Array.from({ length: dim }, () => (next() * 2 - 1) * 2.5);
}

const json = (body: unknown, status = 200) => Response.json(body, { status });

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const t = setTimeout(resolve, ms);
    signal.addEventListener("abort", () => (clearTimeout(t), resolve()), { once: true });
  });
}

function isPulled(stub: OllamaStub, model: string): boolean {
  return stub.models.some((m) => m === model || `${m}:latest` === model || m === `${model}:latest`);
}

function vectorFor(stub: OllamaStub, model: string, input: string): number[] {
  const v = stub.vectors?.(input)?.slice() ?? stubVector(model, input, stub.dim);
  if (!stub.failOn(input)) return v;
  if (stub.failure === "nan") v[3 % v.length] = Number.NaN;
  if (stub.failure === "zero") v.fill(0);
  if (stub.failure === "wrong-dim") v.push(0.5);
  return v;
}

/** Answers one embed request according to the stub's current mode. */
async function embed(stub: OllamaStub, rec: StubEmbedRequest, signal: AbortSignal): Promise<Response> {
  const selected = rec.input.some((s) => stub.failOn(s));
  if (stub.delayMs > 0) await sleep(stub.delayMs, signal);
  if (stub.failure === "slow" && selected) await sleep(stub.slowMs, signal);
  if (stub.failure === "model-not-found" || !isPulled(stub, rec.model)) {
    return json({ error: `model "${rec.model}" not found, try pulling it first` }, 404);
  }
  const tooLong = rec.input.some((s) => s.length > stub.contextChars);
  if ((stub.failure === "context-length" && selected) || tooLong) {
    return json({ error: "input length exceeds the context length" }, 500);
  }
  const embeddings = rec.input.map((s) => vectorFor(stub, rec.model, s));
  if (stub.failure === "wrong-count" && selected) embeddings.pop();
  return json({
    model: rec.model,
    embeddings,
    total_duration: 1000,
    load_duration: 0,
    prompt_eval_count: rec.input.length,
  });
}

/** Routes one HTTP request; `onEmbed` records and answers a parsed `/api/embed` request. */
async function route(
  stub: OllamaStub,
  req: Request,
  onEmbed: (rec: StubEmbedRequest, signal: AbortSignal) => Promise<Response>,
): Promise<Response> {
  const path = new URL(req.url).pathname;
  if (req.method === "GET" && path === "/api/version") return json({ version: "0.0.0-stub" });
  if (req.method === "GET" && path === "/api/tags") {
    return json({ models: stub.models.map((name) => ({ name, model: name, size: 0, digest: "stub", details: {} })) });
  }
  // Anything else gets a plain-text 404, as Ollama's HTTP router answers unknown paths.
  if (req.method !== "POST" || path !== "/api/embed") return new Response("404 page not found", { status: 404 });
  const body = (await req.json().catch(() => null)) as (Partial<StubEmbedRequest> & { input?: unknown }) | null;
  if (!body || typeof body.model !== "string") return json({ error: "model is required" }, 400);
  const input = typeof body.input === "string" ? [body.input] : Array.isArray(body.input) ? body.input.map(String) : [];
  const { model, keep_alive, truncate, dimensions } = body;
  return onEmbed({ model, input, keep_alive, truncate, dimensions, startedMs: 0 }, req.signal);
}

/** Starts the stand-in server; remember to `await stub.stop()`. */
export function startOllamaStub(opts: StubOptions = {}): OllamaStub {
  const t0 = performance.now();
  let inFlight = 0;
  let maxInFlight = 0;
  const requests: StubEmbedRequest[] = [];
  const stub: OllamaStub = {
    url: "",
    dim: opts.dim ?? 768,
    models: opts.models ?? [STUB_MODEL],
    delayMs: opts.delayMs ?? 0,
    contextChars: opts.contextChars ?? Number.POSITIVE_INFINITY,
    vectors: opts.vectors ?? null,
    failure: null,
    failOn: () => true,
    slowMs: 5000,
    requests,
    get inFlight() {
      return inFlight;
    },
    get maxInFlight() {
      return maxInFlight;
    },
    reset() {
      stub.failure = null;
      stub.failOn = () => true;
      stub.slowMs = 5000;
      requests.length = 0;
      maxInFlight = inFlight;
    },
    stop: async () => {
      await server.stop(true);
    },
  };
  const onEmbed = async (rec: StubEmbedRequest, signal: AbortSignal) => {
    rec.startedMs = performance.now() - t0;
    requests.push(rec);
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    try {
      return await embed(stub, rec, signal);
    } finally {
      inFlight--;
      rec.endedMs = performance.now() - t0;
    }
  };
  const server = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: (req) => route(stub, req, onEmbed) });
  (stub as { url: string }).url = `http://127.0.0.1:${server.port}`;
  return stub;
}
