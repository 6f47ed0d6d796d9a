/** memory_unmerge tool. */
import { z } from "zod";
import { id } from "../../schemas.ts";
import type { ToolDef } from "../../tool.ts";
import { renderUnmerge } from "./render-writes.ts";

/** Undo a near-duplicate merge. */
export const memoryUnmerge: ToolDef = {
  name: "memory_unmerge",
  title: "Undo a merge",
  description: "Undo a near-duplicate merge (merge_id from memory_store or memory_get).",
  details:
    "Undo a near-duplicate merge that memory_store or memory_ingest made (memory_store reports `merge.merge_id`): " +
    "the absorbed atom becomes a separate `candidate` again, the citation the merge copied onto the kept atom is " +
    "removed, and the change is recorded in the atom's status history. Use it when two atoms were merged although " +
    "they say different things. Undoing twice is an error.",
  fieldDetails: { merge_id: "the merge to undo" },
  inputSchema: { merge_id: id },
  outputSchema: {
    merge_id: id,
    kept_atom_id: id,
    absorbed_atom_id: id.describe("the atom that is a candidate again"),
    undone_at: z.string(),
  },
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  run: async (services, args) => {
    const m = await services.atomWrites.undoMerge(args.merge_id);
    return { merge_id: m.id, kept_atom_id: m.keptAtomId, absorbed_atom_id: m.absorbedAtomId, undone_at: m.undoneAt! };
  },
  render: renderUnmerge,
};
