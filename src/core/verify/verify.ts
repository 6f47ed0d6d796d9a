/**
 * memory_verify (issue 4 item 4): self-critique of atoms against their nearest atoms by embedding, and
 * cross-confirmation across independent sites. Each atom is one step (core/verify/step.ts) committed in its own
 * transaction with its status history and outbox rows, so a cancelled run keeps the steps it finished. Every status
 * change can be reverted ({@link revertStatusChange}); {@link statusHistory} lists an atom's changes.
 */
import type { AtomStatus } from "../../domain/atom.ts";
import { yieldToEventLoop } from "../../domain/yield.ts";
import { PegasError, invalidInput } from "../../errors.ts";
import type { Verdict } from "../../ports/models/verdict-judge.ts";
import type { StatusChangeRecord } from "../../ports/store/verification.ts";
import type { Services } from "../services.ts";
import { type StepContext, verifyStep } from "./step.ts";
import { checkGapsAfterVerify, type GapCheckServices } from "../gaps/answer.ts";

import { MAX_LISTED_CHANGES, VERIFY_DEFAULT_LIMIT, VERIFY_MAX_LIMIT, VERIFY_NEIGHBOURS } from "./limits.ts";

export { MAX_LISTED_CHANGES, VERIFY_DEFAULT_LIMIT, VERIFY_MAX_LIMIT, VERIFY_NEIGHBOURS };
const MAX_WARNINGS = 100;

/** Input: at most one of `atom_id`, `doc_id`; neither = the oldest `candidate` atoms. `limit` 1..1000, default 50. */
export interface VerifyInput {
  atom_id?: number;
  doc_id?: number;
  limit?: number;
  signal?: AbortSignal;
  /** Called before each atom (progress = atoms done) and once at the end. */
  onProgress?: (progress: number, total: number, message: string) => void;
}

/** One status change as results list it. */
export interface VerifyChange {
  change_id: number;
  atom_id: number;
  from: AtomStatus;
  to: AtomStatus;
  reason: string;
  evidence: number[];
}

/** Result of a run: atoms checked, the judge's name, the changes (≤ 200 listed), verdict counts, warnings. */
export interface VerifyResult {
  checked: number;
  judge: string;
  changes: VerifyChange[];
  changes_total: number;
  verdicts: Record<Verdict, number>;
  confidence_raised: number;
  links_added: number;
  /** Atoms the selection holds beyond this run's limit (call again for them). */
  remaining: number;
  warnings: string[];
  /** Research gaps this run answered (core/gaps/answer.ts): checked when the run made an atom `verified`. */
  gaps_answered: Array<{ gap_id: number; atom_ids: number[]; decided_by: string }>;
}

/** A recorded change as results list it. */
export function toVerifyChange(c: StatusChangeRecord): VerifyChange {
  return {
    change_id: c.id,
    atom_id: c.atom_id,
    from: c.from_status,
    to: c.to_status,
    reason: c.reason,
    evidence: c.evidence,
  };
}

function positiveId(v: unknown, name: string): number | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== "number" || !Number.isInteger(v) || v < 1)
    throw invalidInput(`${name} must be a positive integer, got ${JSON.stringify(v)}`);
  return v;
}

function checkLimit(v: unknown): number {
  if (v === undefined || v === null) return VERIFY_DEFAULT_LIMIT;
  if (typeof v !== "number" || !Number.isInteger(v) || v < 1 || v > VERIFY_MAX_LIMIT) {
    throw invalidInput(
      `limit must be an integer from 1 to ${VERIFY_MAX_LIMIT}, got ${JSON.stringify(v)}`,
      "call again for more atoms",
    );
  }
  return v;
}

/**
 * Verifies atoms (module doc). @throws PegasError INVALID_INPUT (both atom_id and doc_id, a bad limit), NOT_FOUND
 * (unknown atom or document), CANCELLED (steps finished before it are kept), STORE_UNAVAILABLE, LLM_FAILED.
 */
export async function verifyAtoms(
  services: StepContext["services"] & GapCheckServices & Pick<Services, "fallbackJudge">,
  input: VerifyInput,
): Promise<VerifyResult> {
  const atomId = positiveId(input.atom_id, "atom_id");
  const docId = positiveId(input.doc_id, "doc_id");
  if (atomId !== undefined && docId !== undefined)
    throw invalidInput("give atom_id or doc_id, not both", "verify one atom, or one document's atoms");
  const limit = checkLimit(input.limit);
  const targets = await services.verification.verificationTargets({ atomId, docId, limit });
  const ctx: StepContext = {
    services,
    judge: services.judge,
    fallback: services.fallbackJudge,
    k: VERIFY_NEIGHBOURS,
    signal: input.signal,
    warnings: [],
  };
  const out: VerifyResult = {
    checked: 0,
    judge: services.judge.name,
    changes: [],
    changes_total: 0,
    verdicts: { new: 0, duplicate: 0, corroborates: 0, contradicts: 0 },
    confidence_raised: 0,
    links_added: 0,
    remaining: Math.max(0, targets.total - targets.ids.length),
    warnings: ctx.warnings,
    gaps_answered: [],
  };
  const n = targets.ids.length;
  for (let i = 0; i < n; i++) {
    await yieldToEventLoop(); // the local embedder and the heuristic judge are synchronous: let cancellation in
    if (input.signal?.aborted) {
      throw new PegasError(
        "CANCELLED",
        `verification cancelled after ${i} of ${n} atoms; the changes of those ${i} are recorded`,
        { hint: "call memory_verify again to continue" },
      );
    }
    input.onProgress?.(i, n, `verifying atom ${targets.ids[i]}`);
    const step = await verifyStep(ctx, targets.ids[i]);
    if (!step.applied) {
      if (atomId !== undefined)
        ctx.warnings.push(
          `atom ${atomId} is stale or retracted: nothing to verify (revert its change or store it again)`,
        );
      continue;
    }
    out.checked++;
    for (const v of step.verdicts) out.verdicts[v]++;
    out.changes_total += step.applied.changes.length;
    for (const c of step.applied.changes)
      if (out.changes.length < MAX_LISTED_CHANGES) out.changes.push(toVerifyChange(c));
    out.confidence_raised += step.applied.confidenceRaised.length;
    out.links_added += step.applied.linksAdded;
    for (const s of step.applied.skipped)
      ctx.warnings.push(
        `atom ${s.atomId} was not changed: its status became '${s.actual}' meanwhile (expected '${s.expected}')`,
      );
  }
  out.gaps_answered = await checkGapsAfterVerify(services, out, input.signal);
  input.onProgress?.(n, n, `verified ${out.checked} atom(s), ${out.changes_total} status change(s)`);
  if (out.remaining > 0)
    ctx.warnings.push(`${out.remaining} more atom(s) of this selection wait; call memory_verify again`);
  if (ctx.warnings.length > MAX_WARNINGS)
    ctx.warnings.splice(
      MAX_WARNINGS,
      ctx.warnings.length - MAX_WARNINGS,
      `… and ${ctx.warnings.length - MAX_WARNINGS} more warnings`,
    );
  return out;
}

/** Result of a revert: the new change (actor `revert`) and the change it undid. */
export interface RevertResult {
  revert: VerifyChange;
  reverted: VerifyChange & { reverted_at: string };
}

/**
 * Reverts status change `changeId`: restores its `from` status when the atom still has its `to` status, records
 * the revert as a change (actor `revert`, `reverts` = the id) and marks the original reverted. The confidence a
 * verification raised is kept (it rests on evidence, not on the status).
 * @throws PegasError INVALID_INPUT (not a positive integer, already reverted, the atom changed since), NOT_FOUND.
 */
export async function revertStatusChange(
  services: Pick<Services, "verification">,
  changeId: number,
): Promise<RevertResult> {
  const id = positiveId(changeId, "revert_change_id");
  if (id === undefined)
    throw invalidInput("revert_change_id is required", "memory_verify results and an atom's history name change ids");
  const r = await services.verification.revertStatusChange(id);
  return {
    revert: toVerifyChange(r.revert),
    reverted: { ...toVerifyChange(r.original), reverted_at: r.original.reverted_at ?? "" },
  };
}

/** An atom's status history, newest first (at most `limit`, default 50). @throws PegasError NOT_FOUND, INVALID_INPUT. */
export async function statusHistory(
  services: Pick<Services, "verification">,
  atomId: number,
  limit = 50,
): Promise<StatusChangeRecord[]> {
  const id = positiveId(atomId, "atom_id");
  if (id === undefined) throw invalidInput("atom_id is required");
  return services.verification.statusHistory(id, Math.min(Math.max(1, Math.trunc(limit)), VERIFY_MAX_LIMIT));
}
