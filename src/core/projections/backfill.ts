/**
 * Embedding backfill: after a switch of embedding model (or of the local embedder's dimension), or an import without
 * embeddings, atoms have no vector of the active model; this embeds them in batches so the vector leg sees every
 * atom. Retracted atoms are embedded too, since `forget --undo` may bring them back ({@link backfillRetracted}); a
 * restored atom that still lacks one is embedded as it is restored ({@link embedRestored}). Idempotent and safe to
 * run in several processes at once (an existing embedding row is kept).
 */
import { log } from "../../log.ts";
import type { ForgetOutcome } from "../../ports/store/curation.ts";
import { atomSearchText } from "../knowledge/atoms.ts";
import type { Services } from "../services.ts";

const BATCH = 64;
/** Atoms read per step of the change feed while looking for retracted atoms. */
const SCAN_BATCH = 1000;

/**
 * Embeds every atom lacking a vector of the active model, live ones first, then retracted ones
 * ({@link backfillRetracted}); returns how many were embedded. Stops when aborted.
 * @throws what the embedder and the store throw (LLM_FAILED, STORE_UNAVAILABLE, CANCELLED).
 */
export async function backfillEmbeddings(
  services: Pick<Services, "atomReads" | "changeFeed" | "config" | "embedder" | "embeddingStore">,
  signal?: AbortSignal,
): Promise<number> {
  const live = await backfillLive(services, signal);
  return live + (signal?.aborted ? 0 : await backfillRetracted(services, signal));
}

/**
 * Embeds every atom but retracted ones lacking a vector of the active model (the store's own indexed query); returns
 * how many. What `serve` runs at start: it never reads the change feed, so it costs one query when nothing is missing
 * (retracted atoms are embedded by an import or `rebuild vector`, and as they are restored: {@link embedRestored}).
 * @throws as {@link backfillEmbeddings}.
 */
export async function backfillLive(
  services: Pick<Services, "embedder" | "embeddingStore">,
  signal?: AbortSignal,
): Promise<number> {
  const model = services.embedder.model;
  let done = 0;
  for (let after = 0; !signal?.aborted; ) {
    const atoms = await services.embeddingStore.atomsWithoutEmbedding(model, BATCH, after);
    if (atoms.length === 0) break;
    const vectors = await services.embedder.embedDocuments(
      atoms.map((a) => atomSearchText(a.claim, a.content)),
      signal,
    );
    await services.embeddingStore.putEmbeddings(
      atoms.map((a, i) => ({ atomId: a.id, vector: vectors[i] })),
      model,
    );
    done += atoms.length;
    after = atoms[atoms.length - 1].id;
  }
  if (done) log.info("embedded atoms that lacked a vector of the active model", { model, atoms: done });
  return done;
}

/**
 * Embeds those of the atoms `ids` (any status; unknown ids skipped) that lack a vector of the active model, in
 * batches of 64; returns how many were embedded. @throws what the embedder and the store throw (LLM_FAILED,
 * STORE_UNAVAILABLE, CANCELLED).
 */
export async function embedAtoms(
  services: Pick<Services, "embeddingStore" | "atomReads" | "embedder">,
  ids: readonly number[],
  signal?: AbortSignal,
): Promise<number> {
  const model = services.embedder.model;
  let done = 0;
  for (let i = 0; i < ids.length && !signal?.aborted; i += BATCH) {
    const batch = ids.slice(i, i + BATCH);
    const have = await services.embeddingStore.embeddingsOf(batch, model);
    const atoms = await services.atomReads.atomsByIds(
      batch.filter((id) => !have.has(id)),
      0,
    );
    if (!atoms.length) continue;
    const vectors = await services.embedder.embedDocuments(
      atoms.map((a) => atomSearchText(a.claim, a.content)),
      signal,
    );
    await services.embeddingStore.putEmbeddings(
      atoms.map((a, j) => ({ atomId: a.id, vector: vectors[j] })),
      model,
    );
    done += atoms.length;
  }
  return done;
}

/**
 * Embeds the retracted atoms lacking a vector of the active model (the store's atomsWithoutEmbedding leaves them
 * out), so that one restored by `forget --undo` is found by meaning at once; returns how many. Reads the whole atom
 * change feed (ids and statuses): meant for an import or a rebuild, not for every start. @throws as {@link embedAtoms}.
 */
export async function backfillRetracted(
  services: Pick<Services, "atomReads" | "changeFeed" | "embedder" | "embeddingStore">,
  signal?: AbortSignal,
): Promise<number> {
  const retracted: number[] = [];
  for (let cursor = { xid: "0", id: 0 }; !signal?.aborted; ) {
    const rows = await services.changeFeed.atomChanges(cursor, SCAN_BATCH);
    if (!rows.length) break;
    for (const r of rows) if (r.status === "retracted") retracted.push(r.id);
    const last = rows[rows.length - 1];
    cursor = { xid: last.xid, id: last.id };
  }
  const done = await embedAtoms(services, retracted, signal);
  if (done)
    log.info("embedded retracted atoms that lacked a vector of the active model", {
      model: services.embedder.model,
      atoms: done,
    });
  return done;
}

/**
 * After `forget --undo`: embeds the restored atoms (`outcome.changes`) that lack a vector of the active model (forgotten
 * before a model switch, or imported without embeddings), so that they are found by meaning again. Never throws: the
 * restore is committed already; on failure it logs a warning and `pegas-memory rebuild vector` (or serve's start)
 * embeds them later.
 */
export async function embedRestored(
  services: Pick<Services, "embeddingStore" | "atomReads" | "embedder">,
  outcome: ForgetOutcome,
): Promise<void> {
  const ids = outcome.changes.map((c) => c.atom_id);
  if (!ids.length) return;
  try {
    const n = await embedAtoms(services, ids);
    if (n)
      log.info("embedded restored atoms that lacked a vector of the active model", {
        model: services.embedder.model,
        atoms: n,
      });
  } catch (err) {
    log.warn("restored atoms could not be embedded; `pegas-memory rebuild vector` embeds them later", {
      err,
      atoms: ids.length,
    });
  }
}
