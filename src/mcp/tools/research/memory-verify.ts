/** memory_verify tool: self-critique and cross-confirmation of atoms, and the revert of a recorded status change. */
import { z } from "zod";
import type { VerifyChange } from "../../../core/verify/verify.ts";
import { VERIFY_MAX_LIMIT } from "../../../core/verify/limits.ts";
import type { Services } from "../../../core/services.ts";
import { invalidInput } from "../../../errors.ts";
import { id, responseFormat, statusChange as change, statusHistoryEntry as historyEntry } from "../../schemas.ts";
import type { ToolContext, ToolDef } from "../../tool.ts";
import { conciseVerify, renderVerify } from "./render.ts";

const HISTORY_LIMIT = 50;

/** Input of the tool (see inputSchema). */
interface VerifyArgs {
  atom_id?: number;
  doc_id?: number;
  limit?: number;
  revert_change_id?: number;
}

async function historyOf(services: Services, atomId: number): Promise<Array<z.infer<typeof historyEntry>>> {
  const { statusHistory, toVerifyChange } = await import("../../../core/verify/verify.ts");
  const rows = await statusHistory(services, atomId, HISTORY_LIMIT);
  return rows.map((r) => ({
    ...toVerifyChange(r),
    actor: r.actor,
    ...(r.reverts !== null ? { reverts: r.reverts } : {}),
    ...(r.reverted_at !== null ? { reverted_at: r.reverted_at } : {}),
    created_at: r.created_at,
  }));
}

/** Runs memory_verify: a revert when `revert_change_id` is given (alone), else a verification run. */
async function run(services: Services, args: VerifyArgs, ctx: ToolContext): Promise<Record<string, unknown>> {
  const verdicts = { new: 0, duplicate: 0, corroborates: 0, contradicts: 0 };
  if (args.revert_change_id !== undefined) {
    if (args.atom_id !== undefined || args.doc_id !== undefined || args.limit !== undefined) {
      throw invalidInput("revert_change_id goes alone", "call memory_verify once to revert, once more to verify");
    }
    const { revertStatusChange } = await import("../../../core/verify/verify.ts");
    const r = await revertStatusChange(services, args.revert_change_id);
    const changes: VerifyChange[] = [r.revert];
    return {
      mode: "revert",
      checked: 0,
      judge: services.judge.name,
      changes,
      changes_total: 1,
      verdicts,
      confidence_raised: 0,
      links_added: 0,
      remaining: 0,
      warnings: [],
      gaps_answered: [],
      reverted: r.reverted,
      history: await historyOf(services, r.revert.atom_id),
    };
  }
  // The verification modules (and the public suffix list) load on the first call, not at server start.
  const { verifyAtoms } = await import("../../../core/verify/verify.ts");
  const res = await verifyAtoms(services, {
    ...args,
    signal: ctx.signal,
    onProgress: (p, t, m) => ctx.progress(p, t, m),
  });
  const history = args.atom_id !== undefined ? await historyOf(services, args.atom_id) : [];
  return { mode: "verify", ...res, history };
}

/** memory_verify: verdicts against the nearest atoms, cross-confirmation by independent sites, status history, revert. */
export const memoryVerify: ToolDef = {
  name: "memory_verify",
  title: "Verify atoms",
  description:
    "Check atoms against each other and independent sources (verified, contested); revert_change_id undoes a change.",
  details:
    "Self-critique and cross-confirmation. Each atom is judged against its nearest atoms by embedding (an LLM when " +
    "configured, else the dedup rules): `contradicts` (same claim negated, another number or date) makes both atoms " +
    "`contested` and links them `contradicts`; `duplicate` makes the later atom `stale`; the same fact from another " +
    "site corroborates. Evidence from two or more independent sites (registrable domains; pages of one site count " +
    "once) makes a `candidate` `verified` and raises its confidence by the sites' authority. Give `atom_id` (one " +
    "atom, its history returned), `doc_id` (a document's atoms) or neither (the oldest `candidate` atoms, up to " +
    "`limit`). Every status change is recorded with its reason and evidence; give `revert_change_id` alone to undo one. " +
    "Sends progress notifications; a cancelled run keeps the atoms it finished.",
  fieldDetails: {
    atom_id: "verify this atom only",
    doc_id: "verify the atoms of this document",
    limit: "most atoms this run (default 50, at most 1000)",
    revert_change_id: "undo this recorded status change (alone)",
  },
  inputSchema: {
    atom_id: id.optional(),
    doc_id: id.optional(),
    limit: z.number().int().min(1).max(VERIFY_MAX_LIMIT).optional(),
    revert_change_id: id.optional(),
    response_format: responseFormat,
  },
  outputSchema: {
    mode: z.enum(["verify", "revert"]),
    checked: z.number().int().describe("atoms judged"),
    judge: z.string().describe("heuristic or ollama:<model>"),
    changes: z.array(change).describe("status changes made (at most 200 listed)"),
    changes_total: z.number().int(),
    verdicts: z.object({
      new: z.number().int(),
      duplicate: z.number().int(),
      corroborates: z.number().int(),
      contradicts: z.number().int(),
    }),
    confidence_raised: z.number().int().describe("atoms whose confidence went up"),
    links_added: z.number().int().describe("new `contradicts` links"),
    remaining: z.number().int().describe("atoms of the selection beyond the limit"),
    warnings: z.array(z.string()),
    gaps_answered: z
      .array(z.object({ gap_id: id, atom_ids: z.array(id), decided_by: z.string() }))
      .describe(
        "research gaps this run answered (checked when it made atoms verified; evidence in the gap's metadata.answer)",
      ),
    reverted: change.extend({ reverted_at: z.string() }).optional().describe("the change undone (revert mode)"),
    history: z
      .array(historyEntry)
      .describe("status history of the atom (atom_id or revert mode), newest first, at most 50"),
  },
  // Not idempotent: a second run sees the first one's changes (and a revert cannot be repeated).
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  run: (services, args, ctx) => run(services, args as VerifyArgs, ctx),
  render: renderVerify,
  concise: conciseVerify,
};
