/**
 * locomo: evidence retrieval over long conversations (LoCoMo development split, protocol of
 * ../shared/bench/locomo/README.md), driven through the MCP tools in process as a client would, with the embedded
 * default (PGlite, no model). Per conversation a fresh store; every turn one `memory_store` (type text, claim = quote
 * = "<speaker>: <text>", source_uri locomo://<sample_id>/<dia_id>, observed_at = its session's date, so that
 * "yesterday" in a turn dates it; LOCOMO_NO_DATES=1 leaves them out as before). Per question with evidence:
 * `memory_search {query, k: 10}` → evidence recall@10 over the `locomo://` URIs of the answer's text content;
 * `memory_get_context {question, budget_tokens: 1000}` → the same recall over the URIs cited in its text content,
 * and that text's size in o200k tokens (and the JSON of its structured content's). `LOCOMO_CONVS=0,2` runs a subset.
 */
import { countTokens } from "gpt-tokenizer/encoding/o200k_base";
import { setLogLevel } from "../../src/log.ts";
import { pgliteServices } from "../lib/env.ts";
import {
  LOCOMO_CATEGORIES,
  type LocomoConversation,
  loadLocomo,
  locomoUris,
  storeTurns,
  turnUri,
} from "../lib/locomo.ts";
import { inProcessClient, type ToolAnswer } from "../lib/mcp-inproc.ts";
import type { Benchmark, BenchOutcome, SummaryRow } from "../lib/report.ts";
import { mean, round } from "../lib/stats.ts";

const K = 10;
/** LOCOMO_NO_DATES=1: the protocol without session dates (the figures before issue 22). */
const NO_DATES = process.env.LOCOMO_NO_DATES === "1";
const BUDGET = 1000;

/** One question's outcome. */
interface Asked {
  category: number;
  searchRecall: number;
  contextRecall: number;
  contextTokens: number;
  contextJsonTokens: number;
}

function recall(evidence: string[], sampleId: string, uris: string[]): number {
  const found = new Set(uris);
  return evidence.filter((d) => found.has(turnUri(sampleId, d))).length / evidence.length;
}

/** URIs the client reads: the text content's, or the structured content's when the text names none. */
function urisOf(a: ToolAnswer): { uris: string[]; fromText: boolean } {
  const text = locomoUris(a.text);
  if (text.length || !a.structured) return { uris: text, fromText: true };
  return { uris: locomoUris(JSON.stringify(a.structured)), fromText: false };
}

async function runConversation(
  conv: LocomoConversation,
): Promise<{ asked: Asked[]; storeMs: number; fromJson: number }> {
  const { services, dispose } = await pgliteServices();
  const client = await inProcessClient(services);
  try {
    const t0 = performance.now();
    await storeTurns(client, conv, !NO_DATES);
    const storeMs = performance.now() - t0;
    const asked: Asked[] = [];
    let fromJson = 0;
    for (const q of conv.questions) {
      const s = urisOf(await client.call("memory_search", { query: q.question, k: K }));
      if (!s.fromText) fromJson++;
      const searchRecall = recall(q.evidence, conv.sampleId, s.uris.slice(0, 50));
      const c = await client.call("memory_get_context", { question: q.question, budget_tokens: BUDGET });
      asked.push({
        category: q.category,
        searchRecall,
        contextRecall: recall(q.evidence, conv.sampleId, locomoUris(c.text)),
        contextTokens: countTokens(c.text),
        contextJsonTokens: c.structured ? countTokens(JSON.stringify(c.structured)) : 0,
      });
    }
    return { asked, storeMs, fromJson };
  } finally {
    await client.close();
    await dispose();
  }
}

function aggregate(asked: Asked[]) {
  const pct = (xs: number[]) => round(100 * mean(xs), 1);
  const byCategory: Record<string, { questions: number; search_recall_at_10: number; context_recall: number }> = {};
  for (const [n, name] of Object.entries(LOCOMO_CATEGORIES)) {
    const qs = asked.filter((a) => a.category === Number(n));
    if (qs.length)
      byCategory[name] = {
        questions: qs.length,
        search_recall_at_10: pct(qs.map((a) => a.searchRecall)),
        context_recall: pct(qs.map((a) => a.contextRecall)),
      };
  }
  const tokens = asked.map((a) => a.contextTokens);
  const json = asked.map((a) => a.contextJsonTokens);
  return {
    questions: asked.length,
    search_recall_at_10: pct(asked.map((a) => a.searchRecall)),
    context_recall: pct(asked.map((a) => a.contextRecall)),
    context_text_tokens: {
      mean: round(mean(tokens)),
      max: Math.max(...tokens),
      over_budget: tokens.filter((t) => t > BUDGET).length,
    },
    context_json_tokens: {
      mean: round(mean(json)),
      max: Math.max(...json),
      over_budget: json.filter((t) => t > BUDGET).length,
    },
    by_category: byCategory,
  };
}

/** The LoCoMo benchmark (see module doc). */
export const locomoBench: Benchmark = {
  name: "locomo",
  description:
    "LoCoMo dev: memory_search evidence recall@10 and memory_get_context recall at 1,000 tokens (MCP, no model)",
  async run(): Promise<BenchOutcome> {
    setLogLevel("warn");
    const all = loadLocomo();
    const pick = process.env.LOCOMO_CONVS?.split(",").map(Number);
    const convs = pick ? all.filter((_, i) => pick.includes(i)) : all;
    const asked: Asked[] = [];
    const perConversation: Record<string, unknown> = {};
    let fromJson = 0;
    for (const conv of convs) {
      const r = await runConversation(conv);
      asked.push(...r.asked);
      fromJson += r.fromJson;
      perConversation[conv.sampleId] = {
        turns: conv.turns.length,
        store_ms_per_turn: round(r.storeMs / conv.turns.length, 1),
        ...aggregate(r.asked),
      };
      process.stderr.write(`locomo: ${conv.sampleId} ${JSON.stringify(aggregate(r.asked))}\n`);
    }
    const overall = aggregate(asked);
    const cats = Object.entries(overall.by_category)
      .map(([name, c]) => `${name} ${c.search_recall_at_10}/${c.context_recall}`)
      .join(", ");
    const summary: SummaryRow[] = [
      {
        metric: `LoCoMo dev (${convs.length} conversations, ${overall.questions} questions) memory_search evidence recall@10`,
        value: overall.search_recall_at_10,
        unit: "%",
        target: "≥ 68 (DRAGON 66.2, BM25 ≈ 60 in the paper)",
      },
      {
        metric: "LoCoMo dev memory_get_context recall at 1,000 tokens",
        value: overall.context_recall,
        unit: "%",
        target: "≥ 66",
      },
      {
        metric:
          "LoCoMo dev context tokens, text mean / max / over budget; JSON of structured content mean / max / over",
        value: `${overall.context_text_tokens.mean} / ${overall.context_text_tokens.max} / ${overall.context_text_tokens.over_budget}; ${overall.context_json_tokens.mean} / ${overall.context_json_tokens.max} / ${overall.context_json_tokens.over_budget}`,
        target: "0 over budget",
      },
      { metric: "LoCoMo dev recall per category (search / context)", value: cats },
    ];
    return {
      params: {
        protocol: NO_DATES
          ? "../shared/bench/locomo/README.md; turn text only (no session dates)"
          : "../shared/bench/locomo/README.md; each turn's observed_at = its session's date (session_N_date_time, as UTC)",
        store:
          "fresh embedded PGlite store per conversation, one memory_store per turn, through the MCP tools in process",
        search: { k: K },
        context: { budget_tokens: BUDGET, tokenizer: "o200k_base" },
        recall:
          "share of a question's evidence turns whose locomo:// URI appears in the tool's text content (the structured content's when the text names none); mean over questions",
        evidence_ids: 'malformed ids normalised ("D8:6; D9:17" → two, "D:11:26" → D11:26, bare "D" dropped)',
        conversations: convs.map((c) => c.sampleId),
      },
      results: { overall, per_conversation: perConversation, search_uris_from_structured_content: fromJson },
      summary,
    };
  },
};
