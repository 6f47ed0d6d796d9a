/**
 * Research gaps (issue 7, item 6): `memory_add_gap` and `memory_list_gaps`. A new question that repeats an open gap
 * raises that gap's priority instead of adding one. Whether it repeats is decided the way atom dedup decides
 * (core/knowledge/dedup.ts, domain/meaning/dedup.ts `decidePair`): the embedder's cosine against its calibrated near-duplicate
 * threshold, and the guarded features of domain/meaning/meaning.ts (negation, number, date, named entity… differ → another
 * question). Because the local lexical embedder never merges reworded text, a question is also a repeat when no
 * guarded feature differs and its key terms (core/gaps/terms.ts) match the gap's: Dice ≥ {@link REPEAT_DICE} with
 * every term of the shorter question present in the longer one.
 */
import { type DedupPolicy, decidePair } from "../../domain/meaning/dedup.ts";
import { compareStatements } from "../../domain/meaning/meaning.ts";
import { sanitizeText } from "../../domain/text.ts";
import { invalidInput } from "../../errors.ts";
import {
  GAP_STATUSES,
  type GapAddOutcome,
  type GapCandidate,
  type GapDuplicate,
  type GapRow,
  type GapStatus,
  type SuggestedGap,
} from "../../ports/store/gaps.ts";
import { policyOf } from "../knowledge/dedup.ts";
import { MIN_MISS_REPEATS } from "./miss.ts";
import { keyTerms, lowerQuestionWord, termOverlap } from "./terms.ts";
import type { Services } from "../services.ts";

/** Least Dice overlap of key terms for a reworded question to repeat a gap (with full containment of the shorter). */
export const REPEAT_DICE = 0.8;
/** Longest question or reason (code points). */
export const MAX_GAP_TEXT = 2000;
/** Default and largest `limit` of memory_list_gaps. */
export const GAP_LIST_DEFAULT = 20;
export const GAP_LIST_MAX = 200;
/** Suggested gaps listed at most. */
export const SUGGESTED_MAX = 20;
/** Priority of a gap when none is given (1 least .. 5 most urgent). */
export const DEFAULT_PRIORITY = 3;

/** Input of memory_add_gap: the question (required), why it matters, priority 1..5 (default 3). */
export interface AddGapInput {
  question: string;
  reason?: string;
  priority?: number;
}

/** Result of memory_add_gap: the gap, whether it is new, and when it is not, the raise and why it counts as a repeat. */
export interface AddGapResult {
  gap: GapRow;
  created: boolean;
  duplicate_of: number | null;
  previous_priority: number | null;
  decided_by: string | null;
}

function text(v: unknown, name: string, required: boolean): string | null {
  if (v === undefined || v === null) {
    if (required) throw invalidInput(`${name} is required`, "give the open question in one sentence");
    return null;
  }
  if (typeof v !== "string") throw invalidInput(`${name} must be a string, got ${typeof v}`);
  const t = sanitizeText(v, name).text.replace(/\s+/g, " ").trim();
  if (!t) {
    if (required) throw invalidInput(`${name} is empty`, "give the open question in one sentence");
    return null;
  }
  if ([...t].length > MAX_GAP_TEXT)
    throw invalidInput(`${name} is ${[...t].length} characters; the limit is ${MAX_GAP_TEXT}`, "shorten it");
  return t;
}

function priorityOf(v: unknown): number {
  if (v === undefined || v === null) return DEFAULT_PRIORITY;
  if (typeof v !== "number" || !Number.isInteger(v) || v < 1 || v > 5) {
    throw invalidInput(
      `priority must be an integer from 1 (least urgent) to 5 (most urgent), got ${JSON.stringify(v)}`,
    );
  }
  return v;
}

function dot(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i] * b[i];
  return s;
}

/**
 * Why a stored question (`a`) and a new one (`b`) are the same question at `cosine` with key-term `overlap`, or null:
 * the dedup rules merge them, or they keep them apart only for their wording while the key terms match and no
 * guarded feature (negation, number, date, name…) differs.
 */
function repeatReason(
  a: string,
  b: string,
  cosine: number,
  overlap: { dice: number; containment: number },
  policy: DedupPolicy,
): string | null {
  const [qa, qb] = [lowerQuestionWord(a), lowerQuestionWord(b)];
  const d = decidePair(qa, qb, cosine, policy);
  if (d.outcome === "merge") return `dedup rules: ${d.reason} (cosine ${cosine.toFixed(3)})`;
  if (d.outcome !== "keep" || overlap.containment < 1 || overlap.dice < REPEAT_DICE) return null;
  if (compareStatements(qa, qb).differs.length) return null;
  return `same key terms (Dice ${overlap.dice.toFixed(2)}), no negation, number, date or name differs`;
}

/**
 * The open gap that `question` repeats, or null (module doc): the best by cosine among the candidates that the dedup
 * rules merge or whose key terms match. @throws PegasError LLM_FAILED (embedding), STORE_UNAVAILABLE.
 */
export async function findRepeatedGap(
  services: Pick<Services, "config" | "embedder" | "searchReads">,
  question: string,
  lexemes: string[],
  candidates: GapCandidate[],
): Promise<GapDuplicate | null> {
  if (!candidates.length) return null;
  const policy = policyOf(services);
  const vectors = await services.embedder.embedDocuments([question, ...candidates.map((c) => c.question)]);
  const terms = await keyTerms(services, lexemes);
  let best: GapDuplicate | null = null;
  for (const [i, c] of candidates.entries()) {
    const cosine = dot(vectors[0], vectors[i + 1]);
    const overlap = termOverlap(terms, await keyTerms(services, c.lexemes));
    const decidedBy = repeatReason(c.question, question, cosine, overlap, policy);
    if (decidedBy && (!best || cosine > best.cosine)) best = { gapId: c.id, decidedBy, cosine, overlap: overlap.dice };
  }
  return best;
}

/**
 * memory_add_gap: stores an open research gap, or raises the priority of the open gap it repeats (module doc).
 * @throws PegasError INVALID_INPUT (missing, empty or over-long question or reason; priority outside 1..5),
 * LLM_FAILED, STORE_UNAVAILABLE. Nothing is written when it throws.
 */
export async function addGap(
  services: Pick<Services, "config" | "embedder" | "gaps" | "searchReads">,
  input: AddGapInput,
): Promise<AddGapResult> {
  const question = text(input.question, "question", true)!;
  const reason = text(input.reason, "reason", false);
  const priority = priorityOf(input.priority);
  // The decision runs inside the store's transaction and must not query the database on another connection (the
  // embedded PGlite serves one transaction at a time: that query would wait for this transaction, and it for the
  // query); the question words' lexemes are loaded before it opens.
  await keyTerms(services, []);
  const r: GapAddOutcome = await services.gaps.addGap({ question, reason, priority }, (lexemes, candidates) =>
    findRepeatedGap(services, question, lexemes, candidates),
  );
  return {
    gap: r.gap,
    created: r.created,
    duplicate_of: r.repeat ? r.gap.id : null,
    previous_priority: r.repeat?.previousPriority ?? null,
    decided_by: r.repeat?.duplicate.decidedBy ?? null,
  };
}

/** Input of memory_list_gaps: status (default `open`; `all` for every status), limit 1..200 (default 50). */
export interface ListGapsInput {
  status?: GapStatus | "all";
  limit?: number;
  /** Gaps to skip, for paging (default 0). */
  offset?: number;
  /** Include the suggestions from missed searches (default true; false leaves `suggested` empty and its total 0). */
  suggestions?: boolean;
}

/** Result of memory_list_gaps: gaps most urgent first (then oldest), their total, and repeated search misses offered as gaps. */
export interface ListGapsResult {
  gaps: GapRow[];
  total: number;
  suggested: SuggestedGap[];
  suggested_total: number;
}

/** memory_list_gaps (see {@link ListGapsResult}). @throws PegasError INVALID_INPUT (unknown status, bad limit or offset), STORE_UNAVAILABLE. */
export async function listGaps(services: Pick<Services, "gaps">, input: ListGapsInput = {}): Promise<ListGapsResult> {
  const status = input.status ?? "open";
  if (status !== "all" && !GAP_STATUSES.includes(status))
    throw invalidInput(`unknown gap status '${String(status)}'`, `use one of ${GAP_STATUSES.join(", ")} or all`);
  const limit = input.limit ?? GAP_LIST_DEFAULT;
  if (!Number.isInteger(limit) || limit < 1 || limit > GAP_LIST_MAX)
    throw invalidInput(`limit must be an integer from 1 to ${GAP_LIST_MAX}, got ${JSON.stringify(input.limit)}`);
  const offset = input.offset ?? 0;
  if (!Number.isSafeInteger(offset) || offset < 0)
    throw invalidInput(`offset must be a non-negative integer, got ${JSON.stringify(input.offset)}`);
  const [{ gaps, total }, s] = await Promise.all([
    services.gaps.listGaps(status === "all" ? null : status, limit, offset),
    input.suggestions === false
      ? { suggested: [], total: 0 }
      : services.gaps.suggestedGaps(MIN_MISS_REPEATS, SUGGESTED_MAX),
  ]);
  return { gaps, total, suggested: s.suggested, suggested_total: s.total };
}
