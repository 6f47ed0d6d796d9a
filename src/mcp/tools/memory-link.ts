/** memory_link tool: the agent asserts a relation between two nodes. */
import { z } from "zod";
import { DEFAULT_LINK_CONFIDENCE, type LinkArgs, linkNodes } from "../../core/link-forget.ts";
import { id } from "../schemas.ts";
import type { ToolDef } from "../tool.ts";

const endpoint = z.union([id, z.string().min(1).max(40)]).describe("an atom id (12 or \"atom:12\") or a code symbol (\"symbol:34\")");

/** Assert a relation. */
export const memoryLink: ToolDef = {
  name: "memory_link",
  title: "Link two atoms or symbols",
  description:
    "Assert a relation the agent knows between two nodes: atom → atom (e.g. supports, contradicts, cause, " +
    "depends_on, reference, related), atom → code symbol (e.g. describes, defines) or symbol → symbol (e.g. calls, " +
    "depends_on). `kind` is one lower-case token. The link is stored with source `agent` and reaches the graph " +
    "(memory_query_graph, memory_get, rules of memory_infer). Linking the same nodes with the same kind again keeps " +
    "one link and updates the agent's confidence (an extracted or verified link keeps its own). A retracted atom " +
    "cannot be linked; a symbol → atom link is refused (give it from the atom).",
  inputSchema: {
    src: endpoint,
    dst: endpoint,
    kind: z.string().min(1).max(64).describe("relation kind: one token, ^[a-z][a-z0-9_]{0,63}$"),
    confidence: z.number().min(0).max(1).optional().describe(`0..1, default ${DEFAULT_LINK_CONFIDENCE}`),
  },
  outputSchema: {
    link_id: id.describe("row id in its table"),
    table: z.enum(["pm_atom_link", "pm_atom_symbol_link", "pm_code_dependency"]),
    edge_key: z.string().describe("the edge's key in memory_query_graph: <table>:<link_id>"),
    src: z.string(),
    dst: z.string(),
    kind: z.string(),
    created: z.boolean().describe("false when this link already existed"),
    source: z.string().describe("agent, or the source of the link that already existed"),
    confidence: z.number(),
  },
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  run: async (services, args) => {
    const r = await linkNodes(services, args as LinkArgs);
    return {
      link_id: r.linkId, table: r.table, edge_key: `${r.table}:${r.linkId}`, src: `${r.src.kind}:${r.src.id}`, dst: `${r.dst.kind}:${r.dst.id}`,
      kind: r.kind, created: r.created, source: r.source, confidence: r.confidence,
    };
  },
};
