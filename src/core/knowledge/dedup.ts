/**
 * Dedup that respects meaning, for new atoms against the stored ones and against each other. Candidates come from
 * the in-process indexes: for the lexical embedder the BM25 projection (near-identical texts share their lexemes, and
 * its postings cost far less than a full vector scan), for a neural one the vector index (paraphrases share no
 * words). Each candidate's cosine is computed from the stored embedding and the pair is decided by
 * domain/meaning/dedup.ts: `merge` (the same knowledge), `contradiction` (the same claim about the same subject
 * negated, with another number/date/unit or with swapped roles: both kept, linked `contradicts`, left for
 * memory_verify) or `keep` (linked `related` when the two corroborate or supersede each other, or when the cosine is
 * at least {@link RELATED_MIN_COSINE}). Exact duplicates (same content hash) are left to the store's unique key.
 */
import type { AtomStatus, AtomType } from "../../domain/atom.ts";
import { type DedupPolicy, decidePair, dedupPolicy, surelySeparate } from "../../domain/meaning/dedup.ts";
import { yieldToEventLoop } from "../../domain/yield.ts";
import { parseTsvector } from "../../domain/tsvector.ts";
import { processedText } from "../../platform/gc.ts";
import type { Services } from "../services.ts";
import type { AtomWrites } from "../../ports/store/atom-writes.ts";
import type { SearchReads } from "../../ports/store/search-reads.ts";
import type { SearchProjection } from "../../ports/projections/search-projection.ts";
import { mayReplace } from "../../domain/supersession/decide.ts";

/** What dedup reads: the embedder and its policy, the in-process indexes (synced by the caller), the candidates' rows. */
export type DedupServices = Pick<Services, "config" | "embedder" | "vectorIndex"> & {
  atomWrites: Pick<AtomWrites, "dedupCandidates">;
  searchReads: Pick<SearchReads, "analyzeMany">;
  projection: Pick<SearchProjection, "lexical">;
};

/** What dedup needs of a new atom. */
export interface DedupDraft {
  type: AtomType;
  content: string;
  contentHash: string;
  searchText: string;
  vector: Float32Array;
  /** The text form of `searchText`'s tsvector when the caller computed it (SearchReads.searchVectors). */
  searchTsv?: string;
}

/** A stored atom (`atomId`) or an earlier draft of the same batch (`draftIndex`), with the cosine and the rule's reason. */
export interface DedupTarget {
  atomId?: number;
  draftIndex?: number;
  cosine: number;
  reason: string;
}

/** Per draft: the atom it merges into (if any) and the relations to record (`contradicts`, `related`). */
export interface DedupFinding {
  merge?: DedupTarget;
  links: Array<DedupTarget & { kind: "contradicts" | "related" }>;
}

/** Candidates decided per draft: taken from the index against the stored atoms, and from its own batch. */
export const CANDIDATES_PER_DRAFT = 8;
/**
 * Largest batch whose drafts are each compared with every earlier one; in larger batches each draft is compared with
 * the previous {@link WINDOW}. Either way only the closest {@link CANDIDATES_PER_DRAFT} are decided.
 */
export const MAX_PAIRWISE = 2000;
/** Window of earlier drafts compared in a batch larger than {@link MAX_PAIRWISE}. */
export const WINDOW = 256;
/** Most `related` links recorded per draft. */
export const MAX_RELATED = 3;
/**
 * Least cosine for a `related` link between two atoms kept apart. The candidate threshold may be far lower (the
 * lexical embedder's is calibrated so that every short contradiction is a candidate, and the words then decide), but a
 * link is an assertion in the graph: below this it would mostly relate atoms that merely share a few words.
 */
export const RELATED_MIN_COSINE = 0.75;
/** Drafts whose candidates are fetched together. */
const GROUP = 256;
/** Statuses a stored atom must have to absorb or be related to a new one (stale and retracted are out). */
const LIVE: AtomStatus[] = ["candidate", "verified", "contested"];

/** The dedup policy of the configured embedder (a configured `near_dup_threshold` wins). */
export function policyOf(services: Pick<Services, "config" | "embedder">): DedupPolicy {
  return dedupPolicy(services.embedder, services.config.near_dup_threshold);
}

function dot(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i] * b[i];
  return s;
}

async function candidateIds(
  services: Omit<DedupServices, "atomWrites" | "config">,
  drafts: DedupDraft[],
): Promise<number[][]> {
  if (services.embedder.kind === "lexical") {
    const lexemes = drafts.every((d) => d.searchTsv !== undefined)
      ? drafts.map((d) => {
          processedText(2 * d.searchTsv!.length); // its lexemes and the postings walked: garbage once ranked
          return parseTsvector(d.searchTsv!);
        })
      : await services.searchReads.analyzeMany(drafts.map((d) => d.searchText));
    return drafts.map((d, i) =>
      services.projection
        .lexical(lexemes[i], CANDIDATES_PER_DRAFT, { types: [d.type], status: LIVE }, { neighbours: false })
        .map((h) => h.atomId),
    );
  }
  const out: number[][] = [];
  for (const d of drafts)
    out.push(
      (await services.vectorIndex.search(d.vector, CANDIDATES_PER_DRAFT, { types: [d.type], status: LIVE })).map(
        (h) => h.atomId,
      ),
    );
  return out;
}

function relatedCount(f: DedupFinding): number {
  let n = 0;
  for (const l of f.links) if (l.kind === "related") n++;
  return n;
}

/**
 * Adds a decided pair to a finding: the best merge wins; contradictions and (a few) related pairs become links. A
 * pair that could only be `separate` records nothing unless its cosine makes it a `related` link with room left, so
 * the full decision (and its reason) is skipped for it when a cheap bound proves it separate.
 */
function record(f: DedupFinding, target: Omit<DedupTarget, "reason">, a: string, b: string, policy: DedupPolicy): void {
  const linkedByCosine =
    target.cosine >= Math.max(policy.threshold, RELATED_MIN_COSINE) && relatedCount(f) < MAX_RELATED;
  // A pair the bound proves separate is never a contradiction, so supersession (below) cannot apply to it either.
  if (!linkedByCosine && surelySeparate(a, b, target.cosine, policy)) return;
  const decided = decidePair(a, b, target.cosine, policy);
  // Supersession wins over a contradiction: a newer value of an exclusive property is linked `supersedes` after the
  // store (core/knowledge/supersession.ts), not `contradicts`.
  const d =
    decided.outcome === "contradiction" && mayReplace(a, b)
      ? { ...decided, outcome: "keep" as const, kind: "supersede" as const }
      : decided;
  if (d.outcome === "merge") {
    if (!f.merge || target.cosine > f.merge.cosine) f.merge = { ...target, reason: d.reason };
  } else if (d.outcome === "contradiction") {
    f.links.push({ ...target, reason: d.reason, kind: "contradicts" });
  } else if (
    // A corroborating or superseding statement is related by its words, whatever the cosine; others by a high cosine.
    (d.kind === "corroborate" ||
      d.kind === "supersede" ||
      target.cosine >= Math.max(policy.threshold, RELATED_MIN_COSINE)) &&
    relatedCount(f) < MAX_RELATED
  ) {
    f.links.push({ ...target, reason: d.reason, kind: "related" });
  }
}

async function againstStored(
  services: Omit<DedupServices, "config">,
  drafts: DedupDraft[],
  findings: DedupFinding[],
  offset: number,
  policy: DedupPolicy,
): Promise<void> {
  const ids = await candidateIds(services, drafts);
  const all = [...new Set(ids.flat())];
  if (!all.length) return;
  const byId = new Map((await services.atomWrites.dedupCandidates(all, services.embedder.model)).map((a) => [a.id, a]));
  drafts.forEach((d, i) => {
    for (const id of ids[i]) {
      const a = byId.get(id);
      if (!a || a.type !== d.type) continue;
      record(findings[offset + i], { atomId: id, cosine: dot(a.vector, d.vector) }, a.content, d.content, policy);
    }
  });
}

/**
 * The earlier drafts of the batch closest to draft `i` (same type, another content hash, cosine at or above the
 * threshold): at most {@link CANDIDATES_PER_DRAFT}, the highest cosines, in batch order. A draft meets as many
 * candidates in its own batch as in the index, so a log of near-identical lines costs a few decisions per line, not
 * one per earlier line. `windowed` forces the window (a document written in parts, whose whole length is unknown).
 */
export function batchCandidates(
  drafts: DedupDraft[],
  i: number,
  threshold: number,
  windowed = drafts.length > MAX_PAIRWISE,
): Array<{ j: number; cosine: number }> {
  const d = drafts[i];
  const from = windowed ? Math.max(0, i - WINDOW) : 0;
  const best: Array<{ j: number; cosine: number }> = [];
  let low = 0; // index in `best` of its lowest cosine once full
  for (let j = from; j < i; j++) {
    const e = drafts[j];
    if (e.type !== d.type || e.contentHash === d.contentHash) continue;
    const cosine = dot(d.vector, e.vector);
    if (!(cosine >= threshold)) continue;
    if (best.length < CANDIDATES_PER_DRAFT) {
      best.push({ j, cosine });
      if (best.length === CANDIDATES_PER_DRAFT) low = lowest(best);
    } else if (cosine > best[low].cosine) {
      best[low] = { j, cosine };
      low = lowest(best);
    }
  }
  return best.sort((a, b) => a.j - b.j);
}

function lowest(xs: Array<{ cosine: number }>): number {
  let at = 0;
  for (let k = 1; k < xs.length; k++) if (xs[k].cosine < xs[at].cosine) at = k;
  return at;
}

function withinBatch(
  drafts: DedupDraft[],
  finding: DedupFinding,
  i: number,
  policy: DedupPolicy,
  windowed?: boolean,
): void {
  const d = drafts[i];
  for (const { j, cosine } of batchCandidates(drafts, i, policy.threshold, windowed))
    record(finding, { draftIndex: j, cosine }, drafts[j].content, d.content, policy);
}

/**
 * The earlier drafts of a document written in parts (core/documents/ingest-parts.ts): the last {@link WINDOW} drafts of
 * the parts before, which each draft of the part meets as it would in one batch. A finding's `draftIndex` then
 * indexes `earlier` followed by the part's drafts.
 */
export interface EarlierDrafts {
  earlier: DedupDraft[];
}

/**
 * Dedup findings for each draft, in order; with `parted`, a part of a document whose earlier drafts are given (always
 * compared by window: see {@link EarlierDrafts}). The caller must have synced the projection. A stored target wins over a
 * draft target for the merge. @throws PegasError STORE_UNAVAILABLE, INDEX_UNAVAILABLE; stops early (returning what
 * it has) when `signal` aborts — the caller checks the signal.
 */
export async function findDuplicates(
  services: DedupServices,
  drafts: DedupDraft[],
  signal?: AbortSignal,
  parted?: EarlierDrafts,
): Promise<DedupFinding[]> {
  const policy = policyOf(services);
  const findings: DedupFinding[] = drafts.map(() => ({ links: [] }));
  for (let g = 0; g < drafts.length && !signal?.aborted; g += GROUP) {
    await yieldToEventLoop();
    await againstStored(services, drafts.slice(g, g + GROUP), findings, g, policy);
  }
  const all = parted ? [...parted.earlier, ...drafts] : drafts;
  for (let i = 0; i < drafts.length && !signal?.aborted; i++) {
    if (i % 64 === 0) await yieldToEventLoop(); // each step is a synchronous scan: let cancellation in
    processedText(drafts[i].content.length); // each draft is sketched (and some read) once: garbage in proportion
    if (findings[i].merge) continue;
    if (parted) withinBatch(all, findings[i], parted.earlier.length + i, policy, true);
    else withinBatch(drafts, findings[i], i, policy);
  }
  return findings;
}
