/** memory_infer tool: forward-chaining rules to a fixpoint. */
import { z } from "zod";
import { infer, MAX_MAX_ITERATIONS, MAX_MAX_NEW_EDGES, MAX_RULE_IDS } from "../../../core/inference/infer.ts";
import { id } from "../../schemas.ts";
import type { ToolDef } from "../../tool.ts";
import { conciseInfer, renderInfer } from "./render.ts";

/** Apply logical_rule atoms to the graph. */
export const memoryInfer: ToolDef = {
  name: "memory_infer",
  title: "Apply rules",
  description: "Apply the logical_rule atoms to the graph, deriving new links until nothing new follows.",
  details:
    "Forward-chain the `logical_rule` atoms over the graph's edges (atom links, code dependencies, atom–symbol links) " +
    'until nothing new follows. A rule is an atom stored with memory_store {type: "logical_rule"} whose content (or ' +
    'claim) is JSON: {"if": "imports", "then": "depends_on"} (every a-imports→b gives a-depends_on→b) or ' +
    '{"if": ["depends_on", "depends_on"], "then": "depends_on"} (a chain: a→b, b→c gives a→c). Kinds are single ' +
    "tokens (lower case, digits, _); any other rule is listed in `ignored` with the reason and never applied. Derived " +
    "edges are stored as inferred (source 'inference') with their justification (rule and premise edges), and are " +
    "retracted when a premise goes. Links of retracted or stale atoms are no premises. On a cycle a transitive rule " +
    "derives every pair, self-loops included, and stops. Hitting max_iterations or max_new_edges is an error and " +
    "nothing of the run is kept. Running it again adds only what is new. Sends a progress notification per round; " +
    "cancellation keeps nothing.",
  fieldDetails: {
    max_iterations: "most evaluation rounds (default 50)",
    max_new_edges: "most derived edges, all rules together (default 100000)",
  },
  inputSchema: {
    rule_ids: z.array(id).min(1).max(MAX_RULE_IDS).optional().describe("default all rules"),
    max_iterations: z.number().int().min(1).max(MAX_MAX_ITERATIONS).optional(),
    max_new_edges: z.number().int().min(1).max(MAX_MAX_NEW_EDGES).optional(),
  },
  outputSchema: {
    rules: z.array(
      z.object({
        rule_id: id.describe("the logical_rule atom"),
        if: z.array(z.string()).describe("the chain of edge kinds"),
        then: z.string().describe("the derived edge kind"),
        edges_added: z.number().int().describe("derived edges stored by this run"),
        iterations: z.number().int().describe("the round in which the rule derived its last new edge (0: none)"),
        skipped: z.number().int().describe("derived edges no table can hold (e.g. symbol → atom), not stored"),
      }),
    ),
    rules_total: z.number().int().optional().describe("rules applied (the list shows at most 30)"),
    ignored: z.array(z.object({ rule_id: id, reason: z.string() })).describe("rules not applied, with the reason"),
    ignored_total: z.number().int().optional(),
    iterations: z.number().int().describe("rounds run; the last derived nothing (the fixpoint)"),
    edges_added: z.number().int(),
    skipped: z.number().int(),
    retracted: z
      .number()
      .int()
      .describe("inferred edges retracted first because a premise went (deleted, or its atom retracted or stale)"),
    took_ms: z.number().int(),
  },
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  run: async (services, args, ctx) => {
    const a = args as { rule_ids?: number[]; max_iterations?: number; max_new_edges?: number };
    const r = await infer(
      services,
      { ruleIds: a.rule_ids, maxIterations: a.max_iterations, maxNewEdges: a.max_new_edges },
      ctx.signal,
      (round, edges) => ctx.progress(round, undefined, `round ${round}: ${edges} edge(s) derived so far`),
    );
    const byId = new Map(r.rules.map((x) => [x.ruleAtomId, x]));
    return {
      rules: r.applied.map((rule) => {
        const o = byId.get(rule.ruleAtomId);
        return {
          rule_id: rule.ruleAtomId,
          if: rule.body,
          then: rule.head,
          edges_added: o?.edgesAdded ?? 0,
          iterations: o?.iterations ?? 0,
          skipped: o?.skipped ?? 0,
        };
      }),
      ignored: r.ignored.map((x) => ({ rule_id: x.ruleAtomId, reason: x.reason })),
      iterations: r.iterations,
      edges_added: r.edgesAdded,
      skipped: r.skipped,
      retracted: r.retracted,
      took_ms: r.tookMs,
    };
  },
  render: renderInfer,
  concise: conciseInfer,
};
