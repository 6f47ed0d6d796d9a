/**
 * Doctor's drift checks: what each reachable external projection holds beside the canonical counts, computed by
 * memory_stats' own `externalStats` (src/core/projections/stats.ts). Counting a Qdrant collection readies it first, which may
 * add a missing payload index to a collection that exists and fits (the only write doctor can cause; never a
 * collection it did not find).
 */
import type { Database } from "../../adapters/sql/database.ts";
import type { Config } from "../../config.ts";
import { externalStats } from "../../core/projections/stats.ts";
import type { ProjectionSink } from "../../ports/projections/projection-sink.ts";
import { makeGraphSink, makeVectorSink } from "../services.ts";
import { storeOver } from "../store.ts";
import { check, type DoctorCheck, failed, PROBE_TIMEOUT_MS, withTimeout } from "./check.ts";
import type { ActiveEmbedding } from "../models.ts";

/** Which external projections answered their own checks (and, for Qdrant, have a fitting collection). */
export interface UsableProjections {
  qdrant: boolean;
  memgraph: boolean;
}

async function sinksOf(config: Config, active: ActiveEmbedding, usable: UsableProjections): Promise<ProjectionSink[]> {
  const sinks: ProjectionSink[] = [];
  if (usable.qdrant) {
    const short = { ...config, qdrant_timeout_ms: PROBE_TIMEOUT_MS };
    const qdrant = await makeVectorSink(short, active.model, active.dim, config.qdrant_collection);
    if (qdrant) sinks.push(qdrant);
  }
  if (usable.memgraph) {
    const memgraph = await makeGraphSink(config, PROBE_TIMEOUT_MS);
    if (memgraph) sinks.push(memgraph);
  }
  return sinks;
}

const show = (counts: Record<string, number | undefined> | null) =>
  counts
    ? Object.entries(counts)
        .map(([k, v]) => `${k} ${v}`)
        .join(", ")
    : "?";

/** One `<sink>_drift` check from the sink's stats; `pending` = outbox rows not yet applied. */
async function driftCheck(
  sink: ProjectionSink,
  counts: Record<string, number>,
  lagS: number,
  pending: number,
): Promise<DoctorCheck> {
  const name = `${sink.name}_drift`;
  const s = await withTimeout(externalStats(sink, counts, lagS), 3 * PROBE_TIMEOUT_MS, `${sink.name} counts`);
  if (s.error)
    return check(name, "fail", `cannot read what ${sink.name} holds: ${s.error}`, { hint: `see ${sink.name}'s log` });
  const drifting = Object.values(s.drift ?? {}).some((d) => d !== 0);
  const detail = `holds ${show(s.held)}; the database has ${show(s.canonical)}; outbox lag ${s.lag_s} s`;
  if (!drifting) return check(name, "ok", `in step: ${detail}`);
  const hint =
    pending > 0
      ? "the outbox worker catches up (`serve` runs it; or `pegas-memory sync --once`); if drift stays, `pegas-memory rebuild`"
      : `nothing is queued to close it: run \`pegas-memory rebuild ${sink.name === "qdrant" ? "vector" : "graph"}\``;
  return check(name, "warn", `drift ${show(s.drift)} (database − projection): ${detail}`, { hint });
}

/**
 * The drift checks of the configured external projections (info when none is configured, or when one is unusable).
 * @throws nothing: failures become failed checks.
 */
export async function checkDrift(
  config: Config,
  db: Database,
  active: ActiveEmbedding,
  usable: UsableProjections,
): Promise<DoctorCheck[]> {
  if (!config.qdrant_url && !config.memgraph_url) {
    return [
      check(
        "projections",
        "info",
        "no external projection configured: the embedded indexes follow the database in every process",
      ),
    ];
  }
  const checks: DoctorCheck[] = [];
  if (config.qdrant_url && !usable.qdrant)
    checks.push(check("qdrant_drift", "info", "skipped: the Qdrant collection cannot be read (see above)"));
  if (config.memgraph_url && !usable.memgraph)
    checks.push(check("memgraph_drift", "info", "skipped: Memgraph is unreachable (see above)"));
  const sinks = await sinksOf(config, active, usable);
  const outbox = storeOver(db).openOutbox();
  try {
    if (!sinks.length) return checks;
    const [counts, backlog] = await Promise.all([outbox.canonicalCounts(active.model), outbox.backlog()]);
    const lagS = Math.round(backlog.oldestPendingAgeS ?? 0);
    for (const sink of sinks) {
      checks.push(
        await driftCheck(sink, counts, lagS, backlog.pending).catch((err) =>
          failed(`${sink.name}_drift`, err, `see ${sink.name}'s log`),
        ),
      );
    }
    return checks;
  } catch (err) {
    return [...checks, failed("projections", err, "see the database's log", "cannot count the canonical entities: ")];
  } finally {
    await Promise.all([outbox.close(), ...sinks.map((s) => s.close())].map((p) => p.catch(() => {})));
  }
}
