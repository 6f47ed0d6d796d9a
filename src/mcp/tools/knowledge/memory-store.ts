/** memory_store tool. */
import { z } from "zod";
import { MAX_CLAIM_CHARS, MAX_CONTENT_CHARS, storeAtom } from "../../../core/knowledge/store-atom.ts";
import { atomType, id } from "../../schemas.ts";
import { withoutNulls } from "../../render.ts";
import type { ToolDef } from "../../tool.ts";
import { renderStore } from "./render-writes.ts";

/** Store one typed atom from the agent. */
export const memoryStore: ToolDef = {
  name: "memory_store",
  title: "Store an atom",
  description:
    "Store one thing you learned as an atom, citing its source; duplicates merge, contradictions get linked.",
  details:
    "Store one piece of knowledge as a typed atom (text, definition, logical_rule, code, table, fact). The same type " +
    "and content returns the existing atom (created=false); a near-duplicate with the same meaning (no negation, " +
    "number, unit, date or name differs) is merged into it (`merge`, undoable) and gains the citation; a stored atom " +
    "with the same claim negated or with another number/date is kept and listed in `contradicts` (run memory_verify " +
    'to settle it). A newer value of the same property of the same subject ("now works at", «переехал в») ' +
    'supersedes the older atom, kept as `superseded` (memory_verify revert_change_id undoes it); "also works at" does not. Give source_uri (and quote) to cite evidence, and `links` to relate the atom to stored atoms. ' +
    'Dates in the claim ("yesterday", «в прошлом году») resolve against observed_at (else now).',
  fieldDetails: {
    observed_at: "when the source said it, ISO 8601",
    links: "relations from the new atom to stored atoms",
    type: "atom type",
    content: "longer body; defaults to the claim",
    confidence: "0..1, default 0.5",
  },
  inputSchema: {
    type: atomType,
    claim: z.string().min(1).max(MAX_CLAIM_CHARS).describe("one statement"),
    content: z.string().max(MAX_CONTENT_CHARS).optional(),
    confidence: z.number().min(0).max(1).optional(),
    source_uri: z.string().optional().describe("URI of the evidence"),
    quote: z.string().optional().describe("verbatim from the source"),
    observed_at: z.string().optional(),
    links: z
      .array(
        z.object({
          atom_id: id,
          kind: z
            .string()
            .regex(/^[a-z][a-z0-9_]{0,63}$/)
            .describe("e.g. cause, depends_on"),
          confidence: z.number().min(0).max(1).optional(),
        }),
      )
      .max(50)
      .optional(),
  },
  outputSchema: {
    atom_id: id,
    created: z.boolean(),
    near_duplicate_of: z
      .object({ atom_id: id, cosine: z.number() })
      .optional()
      .describe("the atom this one was merged into"),
    merge: z
      .object({ merge_id: id, absorbed_atom_id: id })
      .optional()
      .describe("the merge record (undo: `pegas-memory unmerge <merge_id>`)"),
    contradicts: z
      .array(z.object({ atom_id: id, cosine: z.number(), reason: z.string() }))
      .describe("stored atoms with the same claim negated or with another number/date"),
    supersedes: z
      .array(z.object({ atom_id: id, change_id: id, reason: z.string() }))
      .optional()
      .describe("older atoms this one replaced"),
    superseded_by: z
      .object({ atom_id: id, change_id: id, reason: z.string() })
      .optional()
      .describe("a stored atom that replaces this one"),
    links_added: z.number().int(),
    citation_added: z.boolean(),
    doc_id: id.optional().describe("the cited document"),
    warnings: z.array(z.string()),
  },
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  run: async (services, args, ctx) => withoutNulls({ ...(await storeAtom(services, args, ctx.signal)) }),
  render: renderStore,
};
