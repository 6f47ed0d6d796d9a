/** memory_link tool: the agent asserts a relation between two nodes, or (`remove: true`) takes one back. */
import { z } from "zod";
import { type LinkArgs, linkNodes, unlinkNodes } from "../../../core/knowledge/link-forget.ts";
import { invalidInput } from "../../../errors.ts";
import { id } from "../../schemas.ts";
import type { ToolDef } from "../../tool.ts";
import { renderLink } from "./render-writes.ts";

const endpoint = z.union([id, z.string().min(1).max(40)]).describe("atom id, atom:<id> or symbol:<id>");

/**
 * Assert a relation (`{src, dst, kind, confidence?}` → the stored link, `created`), or remove one
 * (`{src, dst, kind, remove: true}` → the removed link, `removed: true`, inferred edges retracted and re-derived).
 * Errors: INVALID_INPUT (endpoints, kind, confidence; a link that cannot be removed), NOT_FOUND, STORE_UNAVAILABLE.
 */
export const memoryLink: ToolDef = {
  name: "memory_link",
  title: "Link nodes",
  description:
    "Assert a relation between two atoms or code symbols (e.g. supports, contradicts, depends_on); remove: true deletes it.",
  details:
    "Assert a relation the agent knows between two nodes: atom → atom (e.g. supports, contradicts, cause, " +
    "depends_on, reference, related), atom → code symbol (e.g. describes, defines) or symbol → symbol (e.g. calls, " +
    "depends_on). `kind` is one lower-case token. The link is stored with source `agent` and reaches the graph " +
    "(memory_query_graph, memory_get, rules of memory_infer). Linking the same nodes with the same kind again keeps " +
    "one link and updates the agent's confidence (an extracted or verified link keeps its own). A retracted atom " +
    "cannot be linked; a symbol → atom link is refused (give it from the atom). " +
    "With `remove: true` the link src -kind-> dst is deleted instead (no confidence): it leaves the graph, and what " +
    "memory_infer derived from it is retracted unless another justification holds it. The agent's links can be " +
    "removed, and atom → atom links from extraction, dedup or verification; an inferred link cannot (remove a " +
    "premise or forget its rule; the error names them), nor one memory_store_code made (it would come back on the " +
    "next store). An unknown link is NOT_FOUND. A removed link that applied rules still imply from live premises " +
    "is derived again (inferred) by the next memory_infer.",
  fieldDetails: {
    confidence: "0..1, default 0.8; not with remove",
    remove: "true: delete the link src -kind-> dst instead of asserting it (default false)",
  },
  inputSchema: {
    src: endpoint,
    dst: endpoint,
    kind: z.string().min(1).max(64).describe("one lower-case token"),
    confidence: z.number().min(0).max(1).optional(),
    remove: z.boolean().optional(),
  },
  outputSchema: {
    link_id: id.describe("row id in its table (of the removed row with remove)"),
    table: z.enum(["pm_atom_link", "pm_atom_symbol_link", "pm_code_dependency"]),
    edge_key: z.string().describe("the edge's key in memory_query_graph: <table>:<link_id>"),
    src: z.string(),
    dst: z.string(),
    kind: z.string(),
    created: z.boolean().optional().describe("link: false when this link already existed"),
    removed: z.boolean().optional().describe("remove: true, the link is gone"),
    source: z.string().describe("agent, or the source of the link that already existed (or was removed)"),
    confidence: z.number(),
    inferred_retracted: z
      .number()
      .int()
      .optional()
      .describe("remove: inferred edges that depended on the link and are gone"),
    inferred_rederived: z
      .number()
      .int()
      .optional()
      .describe("remove: inferred edges that depended on it but another justification holds (stored again, new ids)"),
  },
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  run: async (services, args) => {
    const a = args as LinkArgs & { remove?: boolean };
    const ends = (r: { src: { kind: string; id: number }; dst: { kind: string; id: number } }) => ({
      src: `${r.src.kind}:${r.src.id}`,
      dst: `${r.dst.kind}:${r.dst.id}`,
    });
    if (a.remove === true) {
      if (a.confidence !== undefined)
        throw invalidInput(
          "confidence has no meaning when removing a link",
          "leave it out, or drop remove to assert the link",
        );
      const r = await unlinkNodes(services, a);
      return {
        link_id: r.linkId,
        table: r.table,
        edge_key: `${r.table}:${r.linkId}`,
        ...ends(r),
        kind: r.kind,
        removed: true,
        source: r.source,
        confidence: r.confidence,
        inferred_retracted: r.inferredRetracted,
        inferred_rederived: r.inferredRederived,
      };
    }
    const r = await linkNodes(services, a);
    return {
      link_id: r.linkId,
      table: r.table,
      edge_key: `${r.table}:${r.linkId}`,
      ...ends(r),
      kind: r.kind,
      created: r.created,
      source: r.source,
      confidence: r.confidence,
    };
  },
  render: renderLink,
};
