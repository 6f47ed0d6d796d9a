/**
 * When is a research gap answered? When at least one `verified` atom answers its question:
 * - with an LLM judge configured (`services.gapJudge`), the judge decides over the verified atoms among the
 *   question's first {@link JUDGE_TOP_K} search hits;
 * - otherwise (or when the judge fails, with a warning) by the search rule: the question, searched as memory_search
 *   would, retrieves the atom in its first {@link ANSWER_TOP_K} hits, and every key term of the question
 *   (core/gaps/terms.ts: its lexemes without question words) is among the atom's lexemes.
 * The gap becomes `answered` with the evidence in `metadata.answer` (atom ids, how it was decided, ranks, when).
 * {@link checkGapsAfterVerify} runs this on the open gaps after a memory_verify run that made atoms `verified`.
 */
import { PegasError, toPegasError } from "../../errors.ts";
import type { GapRow } from "../../ports/store/gaps.ts";
import { atomSearchText } from "../knowledge/atoms.ts";
import { keyTerms, matchedTerms } from "./terms.ts";
import { type SearchHit, search } from "../search/search.ts";
import type { Services } from "../services.ts";

/** What checking gaps runs on: memory_search, the gap store, the optional judge and text analysis. */
export type GapCheckServices = Parameters<typeof search>[0] & Pick<Services, "gapJudge" | "gaps" | "searchReads">;

/** Rank the answering atom must reach in the question's search (search rule). */
export const ANSWER_TOP_K = 3;
/** Hits offered to an LLM judge. */
export const JUDGE_TOP_K = 10;
/** Open gaps checked after one verification run (most urgent first). */
export const GAPS_CHECKED_PER_RUN = 100;

/** Evidence that answered a gap, as stored in `metadata.answer`. */
export interface GapAnswerEvidence {
  atom_ids: number[];
  /** `search-top3+key-terms`, or `llm:<judge name>`. */
  decided_by: string;
  /** 1-based ranks of the atoms in the question's search, in the order of `atom_ids`. */
  ranks: number[];
  /** Why, per atom (the judge's reasons, or the key terms found). */
  reasons: string[];
  checked_at: string;
}

/** Outcome of a check: the gaps looked at and those now answered; `warnings` say where the LLM judge failed. */
export interface GapCheckResult {
  checked: number;
  answered: Array<{ gap_id: number; atom_ids: number[]; decided_by: string }>;
  warnings: string[];
}

async function bySearchRule(
  services: Pick<Services, "searchReads">,
  question: string,
  hits: SearchHit[],
): Promise<GapAnswerEvidence | null> {
  const top = hits
    .slice(0, ANSWER_TOP_K)
    .map((h, i) => ({ h, rank: i + 1 }))
    .filter((x) => x.h.status === "verified");
  if (!top.length) return null;
  const terms = await keyTerms(
    services,
    (await services.searchReads.analyze(question)).map((l) => l.lexeme),
  );
  if (!terms.length) return null;
  const lexemes = await services.searchReads.analyzeMany(top.map((x) => atomSearchText(x.h.claim, x.h.content)));
  const found = top.filter(
    (_, i) =>
      matchedTerms(
        terms,
        lexemes[i].map((l) => l.lexeme),
      ).length === terms.length,
  );
  if (!found.length) return null;
  return {
    atom_ids: found.map((x) => x.h.atom_id),
    decided_by: `search-top${ANSWER_TOP_K}+key-terms`,
    ranks: found.map((x) => x.rank),
    reasons: found.map(() => `every key term present: ${terms.join(", ")}`),
    checked_at: new Date().toISOString(),
  };
}

async function byJudge(
  services: Pick<Services, "gapJudge">,
  question: string,
  hits: SearchHit[],
  signal?: AbortSignal,
): Promise<GapAnswerEvidence | null> {
  const judge = services.gapJudge!;
  const verified = hits.map((h, i) => ({ h, rank: i + 1 })).filter((x) => x.h.status === "verified");
  if (!verified.length) return null;
  const verdicts = await judge.judge(
    question,
    verified.map((x) => ({ id: x.h.atom_id, claim: x.h.claim, content: x.h.content })),
    signal,
  );
  const yes = verified.map((x, i) => ({ ...x, v: verdicts[i] })).filter((x) => x.v?.answers);
  if (!yes.length) return null;
  return {
    atom_ids: yes.map((x) => x.h.atom_id),
    decided_by: `llm:${judge.name}`,
    ranks: yes.map((x) => x.rank),
    reasons: yes.map((x) => x.v.reason),
    checked_at: new Date().toISOString(),
  };
}

/**
 * The evidence that a verified atom answers `gap`, or null (module doc). An LLM judge's LLM_FAILED falls back to the
 * search rule and adds a warning. @throws PegasError CANCELLED, STORE_UNAVAILABLE, LLM_FAILED (query embedding).
 */
export async function answerEvidence(
  services: GapCheckServices,
  gap: GapRow,
  warnings: string[],
  signal?: AbortSignal,
): Promise<GapAnswerEvidence | null> {
  const k = services.gapJudge ? JUDGE_TOP_K : ANSWER_TOP_K;
  const { hits } = await search(services, { query: gap.question, k, log_miss: false }, signal);
  if (services.gapJudge) {
    try {
      return await byJudge(services, gap.question, hits, signal);
    } catch (err) {
      const e = toPegasError(err);
      if (e.code !== "LLM_FAILED") throw e;
      warnings.push(
        `gap ${gap.id}: judge ${services.gapJudge.name} failed (${e.message}); the search rule decided instead`,
      );
    }
  }
  return bySearchRule(services, gap.question, hits);
}

/**
 * Checks open gaps (the given ids, or the {@link GAPS_CHECKED_PER_RUN} most urgent) and marks those a verified atom
 * answers `answered`, with the evidence in `metadata.answer`. Gaps that are not open are skipped.
 * @throws PegasError NOT_FOUND (an unknown id), CANCELLED, STORE_UNAVAILABLE.
 */
export async function checkGaps(
  services: GapCheckServices,
  opts: { gapIds?: number[]; signal?: AbortSignal } = {},
): Promise<GapCheckResult> {
  const gaps = opts.gapIds
    ? (await Promise.all(opts.gapIds.map((id) => services.gaps.getGap(id)))).filter((g) => g.status === "open")
    : (await services.gaps.listGaps("open", GAPS_CHECKED_PER_RUN)).gaps;
  const out: GapCheckResult = { checked: 0, answered: [], warnings: [] };
  for (const gap of gaps) {
    if (opts.signal?.aborted)
      throw new PegasError(
        "CANCELLED",
        `gap check cancelled after ${out.checked} of ${gaps.length} gaps; the answers found are recorded`,
      );
    out.checked++;
    const evidence = await answerEvidence(services, gap, out.warnings, opts.signal);
    if (!evidence) continue;
    const after = await services.gaps.updateGap(gap.id, { status: "answered", patch: { answer: evidence } });
    if (after.status === "answered")
      out.answered.push({ gap_id: gap.id, atom_ids: evidence.atom_ids, decided_by: evidence.decided_by });
  }
  return out;
}

/** What {@link checkGapsAfterVerify} reads of a verify run (core/verify/verify.ts's VerifyResult) and adds to. */
export interface VerifyRunOutcome {
  /** The listed status changes (at most a page of them). */
  changes: Array<{ to: string }>;
  /** All status changes of the run, listed or not. */
  changes_total: number;
  warnings: string[];
}

/**
 * After a memory_verify run: when it made any atom `verified`, checks the open gaps and returns the ones answered;
 * a failure becomes a warning of the run (the verification itself is already recorded). Never throws but CANCELLED.
 */
export async function checkGapsAfterVerify(
  services: GapCheckServices,
  run: VerifyRunOutcome,
  signal?: AbortSignal,
): Promise<GapCheckResult["answered"]> {
  const madeVerified = run.changes.some((c) => c.to === "verified") || run.changes_total > run.changes.length;
  if (!madeVerified) return [];
  try {
    const r = await checkGaps(services, { signal });
    run.warnings.push(...r.warnings);
    return r.answered;
  } catch (err) {
    const e = toPegasError(err);
    if (e.code === "CANCELLED") throw e;
    run.warnings.push(`research gaps were not checked: ${e.message}`);
    return [];
  }
}
