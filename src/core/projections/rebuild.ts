/**
 * Rebuilding projections from PostgreSQL alone (DESIGN.md, "the one rule"): `rebuild vector|graph|all` drops a
 * projection and refills it from the canonical tables — embeddings from `pm_atom_embedding`, embedding only atoms
 * that lack a vector of the active model; src/worker/projections.ts then drains the outbox so that nothing queued
 * before is left behind.
 * `reembed` embeds every atom for another model (stored canonically beside the current one) and fills that model's
 * own vector collection, so that switching models is a configuration change.
 */
import { PegasError } from "../../errors.ts";
import type { Embedder } from "../../ports/models/embedder.ts";
import {
  type ProjectionChange,
  type ProjectionCounts,
  type ProjectionSink,
  expectedCounts,
  isGraphSink,
} from "../../ports/projections/projection-sink.ts";
import { atomSearchText } from "../knowledge/atoms.ts";
import { backfillEmbeddings } from "./backfill.ts";
import type { Services } from "../services.ts";

/** Which projections a rebuild covers. */
export type RebuildTarget = "vector" | "graph" | "all";

/** Progress of a rebuild: the projection, the entity kind being copied, rows copied so far and the total. */
export interface RebuildProgress {
  projection: string;
  entity: string;
  done: number;
  total: number;
}

/** What one projection holds after its rebuild beside the canonical counts (drift = canonical − held). */
export interface RebuiltProjection {
  name: string;
  held: ProjectionCounts;
  canonical: ProjectionCounts;
  took_ms: number;
}

/** Result of a refill: a rebuild before the outbox is drained. */
export type RefillResult = Omit<RebuildResult, "outbox_drained">;

/** Result of a rebuild. */
export interface RebuildResult {
  target: RebuildTarget;
  /** Atoms that lacked a vector of the active model and were embedded first. */
  embedded: number;
  projections: RebuiltProjection[];
  /** Outbox rows drained after the copy (applied to the external projections, or acked when there are none). */
  outbox_drained: number;
  /** Graph reads by SQL need no rebuild: they read the canonical tables. */
  notes: string[];
}

const PAGE = 1000;
/** Nodes before edges, so that no edge waits for its endpoints. */
const ENTITY_ORDER: Array<ProjectionChange["entity"]> = ["document", "symbol", "atom", "entity", "edge"];

/** Options of a rebuild. */
export interface RebuildOptions {
  /**
   * Drop an external projection even when it does not fit (a Qdrant collection of another dimension). Without it such
   * a projection is left untouched and the rebuild fails with INVALID_INPUT: it may hold another model's vectors.
   */
  recreate?: boolean;
  signal?: AbortSignal;
}

/**
 * Drops `sink` and copies every live entity it projects (vectors of `model`) from the canonical tables into it. The
 * sink is prepared first, so that a projection of another shape is refused, not dropped, unless `recreate`.
 */
async function refill(
  services: Pick<Services, "outbox">,
  sink: ProjectionSink,
  model: string,
  onProgress: (p: RebuildProgress) => void,
  opts: RebuildOptions,
): Promise<RebuiltProjection> {
  const { signal } = opts;
  const started = performance.now();
  if (!opts.recreate) {
    await sink.prepare().catch((err) => {
      if (err instanceof PegasError && err.code === "INVALID_INPUT") {
        throw new PegasError("INVALID_INPUT", `${sink.name} was not rebuilt: ${err.message}`, {
          hint: "point the configuration at another collection, or run `pegas-memory rebuild … --recreate` to drop it and refill it",
          cause: err,
        });
      }
      throw err;
    });
  }
  const counts = await services.outbox.canonicalCounts(model);
  const canonical = expectedCounts(sink, counts);
  await sink.reset();
  for (const entity of ENTITY_ORDER) {
    if (!sink.entities.has(entity)) continue;
    const total = canonical[entity] ?? 0;
    let done = 0;
    for (let cursor: string | null = null; ; ) {
      if (signal?.aborted)
        throw new PegasError("CANCELLED", `rebuild of ${sink.name} cancelled after ${done} ${entity} rows`);
      const page = await services.outbox.snapshot(entity, cursor, PAGE, model);
      // A vector projection holds only atoms that have a vector; the graph holds every live atom.
      const changes = isGraphSink(sink)
        ? page.changes
        : page.changes.filter((c) => c.entity !== "atom" || c.state?.vector);
      if (changes.length) await sink.apply(changes);
      done += changes.length;
      onProgress({ projection: sink.name, entity, done, total });
      if (!page.next) break;
      cursor = page.next;
    }
  }
  return { name: sink.name, held: await sink.counts(), canonical, took_ms: Math.round(performance.now() - started) };
}

/**
 * Rebuilds the target projections: embeds atoms lacking a vector of the active model (vector, all), rebuilds this
 * process's embedded indexes, drops and refills each external projection of the target (the outbox is drained after
 * it by src/worker/projections.ts).
 * @throws PegasError INDEX_UNAVAILABLE (an external projection unreachable), INVALID_INPUT (a projection of another
 * shape, without `recreate`), STORE_UNAVAILABLE, LLM_FAILED, CANCELLED.
 */
export async function refillProjections(
  services: Pick<
    Services,
    "atomReads" | "changeFeed" | "config" | "embedder" | "embeddingStore" | "outbox" | "projection" | "sinks"
  >,
  target: RebuildTarget,
  onProgress: (p: RebuildProgress) => void = () => {},
  opts: RebuildOptions = {},
): Promise<RefillResult> {
  const { signal } = opts;
  const wantVector = target !== "graph";
  const wantGraph = target !== "vector";
  const notes: string[] = [];
  const embedded = wantVector ? await backfillEmbeddings(services, signal) : 0;
  const projections: RebuiltProjection[] = [];
  if (wantVector) {
    const started = performance.now();
    const atoms = await services.projection.rebuild();
    projections.push({
      name: "embedded",
      held: { atom: services.projection.state.atoms },
      canonical: {},
      took_ms: Math.round(performance.now() - started),
    });
    notes.push(
      `the embedded indexes of this process were rebuilt from ${atoms} canonical rows; every other process rebuilds its own at start`,
    );
  }
  if (wantGraph && !services.sinks.some(isGraphSink))
    notes.push("graph reads are answered by SQL over the canonical tables: nothing to rebuild");
  for (const sink of services.sinks) {
    if (isGraphSink(sink) ? wantGraph : wantVector)
      projections.push(await refill(services, sink, services.embedder.model, onProgress, opts));
  }
  return { target, embedded, projections, notes };
}

/** Result of `reembed`. */
export interface ReembedResult {
  model: string;
  dim: number;
  embedded: number;
  /** The model's own vector projection, when one is configured (its collection name and what it holds). */
  projection: RebuiltProjection | null;
}

/**
 * Embeds every live atom lacking a vector of `embedder.model` (stored in `pm_atom_embedding` beside the other
 * models' vectors), then refills `sink` (that model's own collection) when given. Idempotent and resumable.
 * @throws PegasError LLM_FAILED, STORE_UNAVAILABLE, INDEX_UNAVAILABLE, CANCELLED.
 */
export async function reembed(
  services: Pick<Services, "embeddingStore" | "outbox">,
  embedder: Embedder,
  sink: ProjectionSink | null,
  onProgress: (p: RebuildProgress) => void = () => {},
  opts: RebuildOptions = {},
): Promise<ReembedResult> {
  const { signal } = opts;
  const model = embedder.model;
  const before = await services.outbox.canonicalCounts(model);
  const total = before.atom;
  let done = before.atom_vectors;
  let embedded = 0;
  for (let after = 0; ; ) {
    if (signal?.aborted) throw new PegasError("CANCELLED", `reembed cancelled after ${embedded} atoms`);
    const atoms = await services.embeddingStore.atomsWithoutEmbedding(model, 64, after);
    if (!atoms.length) break;
    const vectors = await embedder.embedDocuments(
      atoms.map((a) => atomSearchText(a.claim, a.content)),
      signal,
    );
    await services.embeddingStore.putEmbeddings(
      atoms.map((a, i) => ({ atomId: a.id, vector: vectors[i] })),
      model,
    );
    embedded += atoms.length;
    done += atoms.length;
    after = atoms[atoms.length - 1].id;
    onProgress({ projection: "pm_atom_embedding", entity: model, done, total });
  }
  const projection = sink ? await refill(services, sink, model, onProgress, opts) : null;
  return { model, dim: embedder.dim, embedded, projection };
}
