/**
 * Embedding backfill: after a switch of embedding model (or of the local embedder's dimension), atoms stored under
 * the previous model have no vector of the active one; this embeds them in batches so the vector leg sees every atom.
 * Idempotent and safe to run in several processes at once (an existing embedding row is kept).
 */
import { log } from "../log.ts";
import { atomSearchText } from "./atoms.ts";
import type { Services } from "./services.ts";

const BATCH = 64;

/** Embeds every atom lacking a vector of the active model; returns how many were embedded. Stops when aborted. */
export async function backfillEmbeddings(services: Services, signal?: AbortSignal): Promise<number> {
  const model = services.embedder.model;
  let done = 0;
  for (let after = 0; !signal?.aborted; ) {
    const atoms = await services.store.atomsWithoutEmbedding(model, BATCH, after);
    if (atoms.length === 0) break;
    const vectors = await services.embedder.embedDocuments(atoms.map((a) => atomSearchText(a.claim, a.content)), signal);
    await services.store.putEmbeddings(atoms.map((a, i) => ({ atomId: a.id, vector: vectors[i] })), model);
    done += atoms.length;
    after = atoms[atoms.length - 1].id;
  }
  if (done) log.info("embedded atoms that lacked a vector of the active model", { model, atoms: done });
  return done;
}
