/**
 * memory_forget tool: retract atoms, a whole document or an entity with its sources (a tombstone kept for audit), or
 * undo that.
 */
import { z } from "zod";
import { type ForgetArgs, forget, MAX_FORGET_ATOMS, MAX_REASON } from "../../../core/knowledge/link-forget.ts";
import { id, statusChange } from "../../schemas.ts";
import type { ToolDef } from "../../tool.ts";
import { entityBrief as briefShape } from "./render-entity.ts";
import { conciseForget, renderForget } from "./render-writes.ts";

const entityBrief = z.object(briefShape);

/** Changes listed in a result (the count says how many in all). */
const LISTED = 200;

/** Forget (or restore) knowledge. */
export const memoryForget: ToolDef = {
  name: "memory_forget",
  title: "Forget",
  description:
    "Retract atoms, a document (with its atoms), or an entity (atoms naming it, documents wholly about it); undo: true restores.",
  details:
    "Retract what should no longer count: one atom (`atom_id`), several (`atom_ids`, at most " +
    MAX_FORGET_ATOMS +
    "), or " +
    "a whole document (`doc_id`: the document and every atom distilled from it), or an entity with its sources " +
    "(`entity`: entity:<id> or a name, as memory_get takes it): every atom that mentions it (entities merged into it " +
    "included) and every document all of whose atoms mention it; a document that also says other things stays, with " +
    "its other atoms. A name several entities answer to retracts nothing and lists the candidates. A retracted atom is a tombstone: " +
    "memory_search, memory_get_context and the graph no longer show it, its links are withdrawn from the " +
    "projections, and it stays in the database for audit (memory_get shows it, with who/why/when in its status " +
    "history). `reason` is required and recorded. `undo: true` with the same target restores each atom to its status " +
    "before the forget. Atoms already retracted (or, on undo, not retracted by a forget) are listed as unchanged.",
  fieldDetails: {
    atom_id: "one atom to retract",
    atom_ids: "several atoms to retract",
    doc_id: "a document and all its atoms",
    reason: "why: recorded in each atom's status history",
    entity: "entity:<id> or a name: the atoms that mention it and the documents wholly about it",
    undo: "restore what an earlier memory_forget retracted",
  },
  inputSchema: {
    atom_id: id.optional(),
    atom_ids: z.array(id).min(1).max(MAX_FORGET_ATOMS).optional(),
    doc_id: id.optional(),
    entity: z.string().min(1).max(300).optional().describe("entity:<id> or name"),
    reason: z.string().min(1).max(MAX_REASON),
    undo: z.boolean().optional(),
  },
  outputSchema: {
    undo: z.boolean(),
    changed: z.number().int().describe("atoms whose status changed"),
    changes: z
      .array(
        statusChange
          .partial({ reason: true, evidence: true })
          .extend({ actor: z.string().optional(), created_at: z.string().optional() }),
      )
      .describe(`the recorded changes (at most 100 listed)`),
    unchanged: z.array(id).describe("atoms left as they were"),
    links: z.number().int().describe("links withdrawn from the projections (restored on undo)"),
    document_atoms: z.number().int().optional().describe("with doc_id: the document's atoms"),
    gaps_reopened: z.array(id).describe("research gaps open again: the atoms that answered them are retracted"),
    entity: entityBrief.optional().describe("with entity: the entity forgotten (or restored)"),
    documents: z.array(id).optional().describe("with entity: documents retracted with it (restored on undo)"),
    candidates: z
      .array(entityBrief.extend({ atoms: z.number().int() }))
      .optional()
      .describe("an ambiguous name: the entities it may mean; nothing was retracted"),
  },
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  run: async (services, args) => {
    const a = args as ForgetArgs;
    const r = await forget(services, a);
    return {
      undo: a.undo === true,
      changed: r.changes.length,
      changes: r.changes.slice(0, LISTED).map((c) => ({
        change_id: c.id,
        atom_id: c.atom_id,
        from: c.from_status,
        to: c.to_status,
        reason: c.reason,
        evidence: c.evidence,
        actor: c.actor,
        created_at: c.created_at,
      })),
      unchanged: r.unchanged,
      links: r.links,
      gaps_reopened: r.gapsReopened ?? [],
      ...(r.atoms !== undefined ? { document_atoms: r.atoms } : {}),
      ...(r.entity ? { entity: r.entity, documents: r.documents ?? [] } : {}),
      ...(r.candidates ? { candidates: r.candidates } : {}),
    };
  },
  render: renderForget,
  concise: conciseForget,
};
