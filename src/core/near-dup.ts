/**
 * Near-duplicate detection for new atoms: cosine ≥ the embedder's threshold makes a candidate only; the atoms are
 * the same when their type matches and no negation, number or date differs (domain/meaning.ts). Otherwise both
 * are kept.
 */
import { meaningDifference } from "../domain/meaning.ts";
import type { AtomType } from "../domain/atom.ts";
import { atomContentHash } from "./atoms.ts";
import { yieldToEventLoop } from "../domain/yield.ts";
import type { Services } from "./services.ts";

/** What a draft duplicates: an existing atom (`atomId`) or an earlier draft of the same batch (`draftIndex`). */
export interface NearDuplicate {
  atomId?: number;
  draftIndex?: number;
  cosine: number;
}

interface Draft {
  type: AtomType;
  content: string;
  contentHash: string;
  vector: Float32Array;
}

/** Largest batch compared pairwise with itself (O(n²·dim)); larger batches dedup against stored atoms only. */
export const MAX_PAIRWISE = 2000;

function dot(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i] * b[i];
  return s;
}

async function againstStored(services: Services, d: Draft, threshold: number): Promise<NearDuplicate | undefined> {
  const hits = (await services.vectorIndex.search(d.vector, 3, { types: [d.type] })).filter((h) => h.score >= threshold);
  if (!hits.length) return undefined;
  const atoms = await services.store.atomsByIds(hits.map((h) => h.atomId), 0);
  for (const h of hits) {
    const a = atoms.find((x) => x.id === h.atomId);
    // The same content is an exact duplicate, which the store resolves by content hash (counted as existing).
    if (!a || atomContentHash(a.type, a.content) === d.contentHash) continue;
    if (meaningDifference(a.content, d.content) === null) return { atomId: a.id, cosine: h.score };
  }
  return undefined;
}

function withinBatch(drafts: Draft[], i: number, result: Array<NearDuplicate | undefined>, threshold: number): NearDuplicate | undefined {
  const d = drafts[i];
  for (let j = 0; j < i; j++) {
    const e = drafts[j];
    if (result[j] !== undefined || e.type !== d.type || e.contentHash === d.contentHash) continue;
    const cos = dot(d.vector, e.vector);
    if (cos >= threshold && meaningDifference(e.content, d.content) === null) return { draftIndex: j, cosine: cos };
  }
  return undefined;
}

/**
 * For each draft, the atom it near-duplicates, if any. The caller must have synced the projection. Exact
 * duplicates (same content hash) are left to the store's unique key and reported as undefined here.
 */
export async function findNearDuplicates(services: Services, drafts: Draft[], signal?: AbortSignal): Promise<Array<NearDuplicate | undefined>> {
  const threshold = services.config.near_dup_threshold ?? services.embedder.nearDupThreshold;
  const out: Array<NearDuplicate | undefined> = [];
  const pairwise = drafts.length <= MAX_PAIRWISE;
  for (let i = 0; i < drafts.length; i++) {
    if (i % 32 === 0) await yieldToEventLoop(); // each step is a synchronous scan: let cancellation in
    if (signal?.aborted) break;
    out.push((await againstStored(services, drafts[i], threshold)) ?? (pairwise ? withinBatch(drafts, i, out, threshold) : undefined));
  }
  return out;
}
