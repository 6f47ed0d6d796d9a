/**
 * /readyz: the health of each dependency, every probe bounded by one deadline so that a hung engine cannot hold the
 * answer. The database is required; the embedder is required when it is Ollama (the local one cannot fail); Qdrant
 * and Memgraph are projections with fallbacks (embedded index, SQL), so their failure degrades, never blocks.
 */
import type { Config } from "../config.ts";
import { withDeadline } from "../domain/deadline.ts";
import type { Services } from "../core/services.ts";
import { PegasError, toPegasError } from "../errors.ts";
import type { LazyServices } from "../wiring.ts";

/** State of one dependency: `degraded` is an optional one that fails; `not_checked` when an earlier step failed. */
export type DependencyState = "up" | "down" | "degraded" | "not_checked";

/** One dependency's report; `ms` is the probe's duration, `error` why it failed (both left out for anonymous callers). */
export interface DependencyReport {
  state: DependencyState;
  required: boolean;
  ms?: number;
  error?: string;
}

/** The readiness answer: `unavailable` (HTTP 503) names the required dependencies that are down in `down`. */
export interface Readiness {
  status: "ready" | "degraded" | "unavailable";
  down: string[];
  dependencies: Record<string, DependencyReport>;
}

/** Bound on the whole readiness check (ms). */
export const READINESS_TIMEOUT_MS = 2000;
/** Least time a probe gets after the services took most of the deadline to open (ms). */
const MIN_PROBE_MS = 250;

/** Resolves as `p`, or rejects after `ms` with a message naming `what`. */
const bounded = <T>(p: Promise<T>, ms: number, what: string): Promise<T> =>
  withDeadline(p, ms, () => new Error(`${what} did not answer within ${ms} ms`));

async function probe(required: boolean, ms: number, what: string, fn: () => Promise<unknown>): Promise<DependencyReport> {
  const t0 = performance.now();
  try {
    await bounded(fn(), ms, what);
    return { state: "up", required, ms: Math.round(performance.now() - t0) };
  } catch (err) {
    const state = required ? "down" : "degraded";
    return { state, required, ms: Math.round(performance.now() - t0), error: toPegasError(err, "STORE_UNAVAILABLE").message };
  }
}

/**
 * Asks Ollama whether the embedding model is pulled (`GET /api/tags`: no model load, no GPU memory taken).
 * @throws PegasError LLM_FAILED when Ollama does not answer or the model is not among those it holds.
 */
async function ollamaModelPresent(config: Config, ms: number): Promise<void> {
  const { ollamaCall } = await import("../adapters/ollama/client.ts");
  const { displayHost } = await import("../adapters/ollama/failures.ts");
  const host = config.ollama_host as string;
  const model = config.embed_model;
  const { models } = await ollamaCall({ host, shown: displayHost(host), model }, undefined, ms, (c) => c.list());
  const names = new Set(models.map((m) => m.name));
  const pulled = names.has(model) || (!model.includes(":") && names.has(`${model}:latest`));
  if (!pulled) {
    throw new PegasError("LLM_FAILED", `model '${model}' is not pulled on ${displayHost(host)}: run \`ollama pull ${model}\``, {
      hint: "or set PEGAS_EMBED_MODEL (embed_model) to a model that `ollama list` shows",
    });
  }
}

/** Probes the open services' dependencies in parallel within `ms`. */
async function probeServices(config: Config, s: Services, ms: number): Promise<Record<string, DependencyReport>> {
  const ollama = Boolean(config.ollama_host);
  const [database, embedder, ...sinks] = await Promise.all([
    probe(true, ms, "the database", () => s.store.changeMark()),
    ollama ? probe(true, ms, "Ollama", () => ollamaModelPresent(config, ms)) : Promise.resolve<DependencyReport>({ state: "up", required: false }),
    ...s.sinks.map((sink) => probe(false, ms, sink.name, () => sink.counts())),
  ]);
  const out: Record<string, DependencyReport> = { database, embedder };
  s.sinks.forEach((sink, i) => (out[sink.name] = sinks[i]));
  return out;
}

/** Names of the projections configured (reported `not_checked` when the services could not open). */
function configuredSinks(config: Config): string[] {
  return [config.qdrant_url ? "qdrant" : "", config.memgraph_url ? "memgraph" : ""].filter(Boolean);
}

/**
 * Checks every dependency within `timeoutMs`; opens the services when they are not open yet (an open that fails at
 * the embedder's readiness probe means the database answered). Never throws.
 */
export async function checkReadiness(config: Config, services: LazyServices, timeoutMs = READINESS_TIMEOUT_MS): Promise<Readiness> {
  const t0 = performance.now();
  let deps: Record<string, DependencyReport>;
  try {
    const s = await bounded(services.get(), timeoutMs, services.opened ? "the database (still opening, or not answering)" : "the database");
    deps = await probeServices(config, s, Math.max(MIN_PROBE_MS, timeoutMs - (performance.now() - t0)));
  } catch (err) {
    const e = toPegasError(err, "STORE_UNAVAILABLE");
    const ms = Math.round(performance.now() - t0);
    const atEmbedder = e.code === "LLM_FAILED";
    deps = {
      database: atEmbedder ? { state: "up", required: true } : { state: "down", required: true, ms, error: e.message },
      embedder: atEmbedder ? { state: "down", required: true, ms, error: e.message } : { state: "not_checked", required: Boolean(config.ollama_host) },
    };
    for (const name of configuredSinks(config)) deps[name] = { state: "not_checked", required: false };
  }
  const down = Object.entries(deps).filter(([, d]) => d.state === "down").map(([n]) => n);
  const degraded = Object.values(deps).some((d) => d.state === "degraded");
  return { status: down.length ? "unavailable" : degraded ? "degraded" : "ready", down, dependencies: deps };
}

/** The same answer without `ms` and `error` (for callers without the token: names and states only). */
export function anonymousReadiness(r: Readiness): Readiness {
  const dependencies: Record<string, DependencyReport> = {};
  for (const [name, d] of Object.entries(r.dependencies)) dependencies[name] = { state: d.state, required: d.required };
  return { ...r, dependencies };
}
