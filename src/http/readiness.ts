/**
 * /readyz: the health of each dependency, every probe bounded by one deadline so that a hung engine cannot hold the
 * answer. The database is required; the embedder is required when it is Ollama, whose `probe` (Embedder port) asks
 * whether the model is pulled without embedding (the local one has none: it cannot fail); Qdrant and Memgraph are
 * projections with fallbacks (embedded index, SQL), so their failure degrades, never blocks.
 */
import type { Config } from "../config.ts";
import { withDeadline } from "../domain/deadline.ts";
import type { Services } from "../core/services.ts";
import { toPegasError } from "../errors.ts";
import type { LazyServices } from "../wiring/lazy-services.ts";

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

async function probe(
  required: boolean,
  ms: number,
  what: string,
  fn: () => Promise<unknown>,
): Promise<DependencyReport> {
  const t0 = performance.now();
  try {
    await bounded(fn(), ms, what);
    return { state: "up", required, ms: Math.round(performance.now() - t0) };
  } catch (err) {
    const state = required ? "down" : "degraded";
    return {
      state,
      required,
      ms: Math.round(performance.now() - t0),
      error: toPegasError(err, "STORE_UNAVAILABLE").message,
    };
  }
}

/** Probes the open services' dependencies in parallel within `ms`. */
async function probeServices(s: Services, ms: number): Promise<Record<string, DependencyReport>> {
  // Through the Embedder port: only the Ollama embedder has a probe (src/wiring/models.ts); the local one cannot fail.
  const check = s.embedder.probe?.bind(s.embedder);
  const [database, embedder, ...sinks] = await Promise.all([
    probe(true, ms, "the database", () => s.changeFeed.changeMark()),
    check
      ? probe(true, ms, "Ollama", () => check(ms))
      : Promise.resolve<DependencyReport>({ state: "up", required: false }),
    ...s.sinks.map((sink) => probe(false, ms, sink.name, () => sink.counts())),
  ]);
  const out: Record<string, DependencyReport> = { database, embedder };
  for (const [i, sink] of s.sinks.entries()) out[sink.name] = sinks[i];
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
export async function checkReadiness(
  config: Config,
  services: LazyServices,
  timeoutMs = READINESS_TIMEOUT_MS,
): Promise<Readiness> {
  const t0 = performance.now();
  let deps: Record<string, DependencyReport>;
  try {
    const s = await bounded(
      services.get(),
      timeoutMs,
      services.opened ? "the database (still opening, or not answering)" : "the database",
    );
    deps = await probeServices(s, Math.max(MIN_PROBE_MS, timeoutMs - (performance.now() - t0)));
  } catch (err) {
    const e = toPegasError(err, "STORE_UNAVAILABLE");
    const ms = Math.round(performance.now() - t0);
    const atEmbedder = e.code === "LLM_FAILED";
    deps = {
      database: atEmbedder ? { state: "up", required: true } : { state: "down", required: true, ms, error: e.message },
      embedder: atEmbedder
        ? { state: "down", required: true, ms, error: e.message }
        : { state: "not_checked", required: Boolean(config.ollama_host) },
    };
    for (const name of configuredSinks(config)) deps[name] = { state: "not_checked", required: false };
  }
  const down = Object.entries(deps)
    .filter(([, d]) => d.state === "down")
    .map(([n]) => n);
  const degraded = Object.values(deps).some((d) => d.state === "degraded");
  return { status: down.length ? "unavailable" : degraded ? "degraded" : "ready", down, dependencies: deps };
}

/** The same answer without `ms` and `error` (for callers without the token: names and states only). */
export function anonymousReadiness(r: Readiness): Readiness {
  const dependencies: Record<string, DependencyReport> = {};
  for (const [name, d] of Object.entries(r.dependencies)) dependencies[name] = { state: d.state, required: d.required };
  return { ...r, dependencies };
}
