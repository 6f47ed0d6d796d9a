/**
 * `pegas-memory reindex entities`: extracts the mentions of every non-retracted atom that a store holds from before
 * entities (or again, after the extractor improved), page by page in atom id order. Each page's mentions and the
 * scan's progress are written in one transaction, so an interrupted run resumes after its last page and a repeated
 * one adds nothing (mentions are unique by span). A finished scan then resolves aliases over the whole corpus
 * (domain/entities/resolve.ts: a surname contained in one name only, …) and applies the merges, each audited; merges
 * made before, or undone, are not made again. New atoms need none of this: their write extracts them.
 */
import { atomMentions, type MentionExtractor } from "../../domain/entities/atom-mentions.ts";
import { extractMentions } from "../../domain/entities/mentions.ts";
import { resolveEntities } from "../../domain/entities/resolve.ts";
import { PegasError } from "../../errors.ts";
import type { AtomMentions, EntityStore } from "../../ports/entities.ts";

/** The scan's name in pm_entity_scan. */
export const ENTITY_SCAN = "entities";
/** Atoms per page (one transaction each). */
export const BACKFILL_PAGE = 200;

/** Options of a backfill: restart from the first atom, stop after `maxAtoms`, cancel, report progress. */
export interface BackfillOptions {
  restart?: boolean;
  maxAtoms?: number;
  pageSize?: number;
  signal?: AbortSignal;
  onProgress?: (p: { atoms: number; lastAtomId: number }) => void;
  /** The extractor (the heuristic one by default). */
  extract?: MentionExtractor;
}

/** What a backfill run did: atoms read, mentions, entities and alias merges added, where it started and stopped, whether done. */
export interface BackfillResult {
  atoms: number;
  mentionsAdded: number;
  entitiesCreated: number;
  merged: number;
  resumedAfter: number;
  lastAtomId: number;
  finished: boolean;
}

/**
 * Runs (or resumes) the entity backfill over `store`.
 * @throws PegasError CANCELLED when `signal` aborts (pages written so far stay, and the next run resumes after them);
 *   STORE_UNAVAILABLE, MIGRATION_REQUIRED from the store.
 */
export async function backfillEntities(store: EntityStore, opts: BackfillOptions = {}): Promise<BackfillResult> {
  if (opts.restart) await store.resetScan(ENTITY_SCAN);
  const extract = opts.extract ?? extractMentions;
  const page = Math.max(1, Math.min(opts.pageSize ?? BACKFILL_PAGE, 5000));
  const max = opts.maxAtoms ?? Number.POSITIVE_INFINITY;
  const state = await store.scanState(ENTITY_SCAN);
  const out: BackfillResult = {
    atoms: 0,
    mentionsAdded: 0,
    entitiesCreated: 0,
    merged: 0,
    resumedAfter: state.lastAtomId,
    lastAtomId: state.lastAtomId,
    finished: false,
  };
  while (!out.finished && out.atoms < max) {
    if (opts.signal?.aborted)
      throw new PegasError("CANCELLED", `entity backfill cancelled after atom ${out.lastAtomId}`, {
        hint: "run `pegas-memory reindex entities` again to resume",
      });
    const atoms = await store.atomsAfter(out.lastAtomId, Math.min(page, max - out.atoms));
    const batch: AtomMentions[] = atoms.flatMap((a) => atomMentions(a, extract));
    const last = atoms.at(-1)?.id ?? out.lastAtomId;
    out.finished = atoms.length < Math.min(page, max - out.atoms);
    // A page cut short by --limit may still be followed by atoms: only an empty or short read is the end.
    const w = await store.advanceScan(ENTITY_SCAN, batch, last, atoms.length, out.finished);
    out.atoms += atoms.length;
    out.mentionsAdded += w.mentionsAdded;
    out.entitiesCreated += w.entitiesCreated;
    out.lastAtomId = last;
    opts.onProgress?.({ atoms: out.atoms, lastAtomId: last });
  }
  if (out.finished) out.merged = await store.applyAliasMerges(resolveEntities(await store.corpusMentions()).merges);
  return out;
}
