/**
 * `pegas-memory doctor`: every check of the configuration and its dependencies, run side by side so that a hung
 * dependency costs one probe deadline (≈ 3 s), never stopping the others. Opens the database without migrating.
 */
import type { Config } from "../../config.ts";
import { redactConfig } from "../../config-redact.ts";
import { VERSION } from "../../version.ts";
import { check, type DoctorCheck, type DoctorReport, failed, guarded } from "./check.ts";
import { checkDrift } from "./drift.ts";
import { activeEmbedding } from "../models.ts";
import { probeOllama, probeProxy, probeSearch } from "./network-services.ts";
import { probeMemgraph, probeQdrant } from "./projection-services.ts";
import { probeStore } from "./store-checks.ts";

/** Order of the checks in the report (dependencies first, then what the data says). */
const ORDER = [
  "database",
  "schema",
  "embeddings",
  "outbox",
  "ollama",
  "ollama_models",
  "qdrant",
  "qdrant_collection",
  "memgraph",
  "projections",
  "qdrant_drift",
  "memgraph_drift",
  "search",
  "proxy",
];

function rank(c: DoctorCheck): number {
  const i = ORDER.indexOf(c.name);
  return i < 0 ? ORDER.length : i;
}

/**
 * Runs every check and returns the report (`ok` = no check failed); never throws for a dependency's failure.
 * @throws only for programming errors outside the probes' own guards (none are expected).
 */
export async function runDoctorChecks(config: Config): Promise<DoctorReport> {
  const started = performance.now();
  const active = activeEmbedding(config);
  const [store, qdrant, memgraph, ollama, search, proxy] = await Promise.all([
    probeStore(config, active),
    probeQdrant(config, active).catch((err) => ({
      checks: [failed("qdrant", err, "check QDRANT_URL")],
      usable: false,
    })),
    probeMemgraph(config).catch((err) => ({ checks: [failed("memgraph", err, "check MEMGRAPH_URL")], usable: false })),
    guarded("ollama", "check OLLAMA_HOST", () => probeOllama(config)),
    guarded("search", "check PEGAS_SEARCH_URL", () => probeSearch(config)),
    guarded("proxy", "check PROXY_URL", () => probeProxy(config)),
  ]);
  const checks = [...store.checks, ...qdrant.checks, ...memgraph.checks, ...ollama, ...search, ...proxy];
  if (store.db) {
    try {
      checks.push(
        ...(await checkDrift(config, store.db, active, { qdrant: qdrant.usable, memgraph: memgraph.usable })),
      );
    } finally {
      await store.db.close(0).catch(() => {});
    }
  } else if (config.qdrant_url || config.memgraph_url) {
    const db = store.checks.find((c) => c.name === "database");
    const why =
      db?.level === "fail"
        ? "the database is unreachable"
        : db?.level === "warn"
          ? "no database yet"
          : "the schema lacks migrations";
    checks.push(check("projections", "info", `skipped: ${why}`));
  }
  checks.sort((a, b) => rank(a) - rank(b));
  return {
    ok: checks.every((c) => c.ok),
    version: VERSION,
    elapsed_ms: Math.round(performance.now() - started),
    checks,
    config: redactConfig(config),
  };
}
