/**
 * agent_reads (issue 20, item 6): what pegas-memory puts in an agent's context, in o200k tokens, measured as a
 * client receives it (the MCP SDK Client over stdio, spawned processes; bench/lib/mcp-tokens.ts).
 * (a) The catalog every request carries — names, descriptions and input schemas of all tools plus `instructions`,
 * every toolset on (the default) — beside the reference MCP memory server (`@modelcontextprotocol/server-memory`, a
 * dev dependency, started with `node` from where it is installed, in the same run, counted the same way).
 * (b) Per tool, the default answer (no `response_format`, no size arguments but the ones an agent would give) on a
 * store of the shared fixtures (HTML, PDF, EPUB and the English book; the Russian book is the measured ingest), in
 * both forms: the text content, and the JSON of the structured content. Arguments are realistic calls, in English
 * and Russian; ids come from earlier answers, read without assuming their shape (a failed call is measured too, as
 * the error the model would read). The benchmark measures only; the targets of issue 20 are printed beside.
 */
import { realpathSync } from "node:fs";
import { join } from "node:path";
import { TOKENIZER } from "../../src/core/context/context.ts";
import { ROOT, SHARED, tempDir } from "../lib/env.ts";
import {
  type AnswerCost,
  type CatalogCost,
  callAndCount,
  catalogCost,
  connectStdio,
  contentText,
  findId,
  idInText,
  type RawResult,
  type StdioServer,
} from "../lib/mcp-tokens.ts";
import { REFERENCE, referenceEntry } from "../lib/reference.ts";
import type { Benchmark, BenchOutcome, SummaryRow } from "../lib/report.ts";

/** pegas-memory from the sources (`bun main.ts serve`, the stdio server) on a fresh data dir. */
async function startPegas(): Promise<StdioServer> {
  const dir = tempDir("agent-reads");
  return connectStdio(
    "pegas-memory",
    process.execPath,
    [join(ROOT, "main.ts"), "--data-dir", join(dir, "db"), "serve"],
    {
      HOME: dir,
      XDG_CONFIG_HOME: join(dir, "config"),
      XDG_DATA_HOME: join(dir, "data"),
      PEGAS_LOG_LEVEL: "warn",
      PEGAS_INGEST_ROOTS: [realpathSync(join(SHARED, "fixtures")), realpathSync(join(ROOT, "src"))].join(":"),
    },
    dir,
  );
}

/** The reference memory server, started with `node` on its installed entry point. */
async function startReference(entry: string): Promise<StdioServer> {
  const dir = tempDir("agent-reads-ref");
  return connectStdio("reference", "node", [entry], { HOME: dir, MEMORY_FILE_PATH: join(dir, "memory.jsonl") });
}

/** `args` with the repository and shared paths written as `<repo>` and `<shared>` (results read the same anywhere). */
function portable(args: Record<string, unknown>): Record<string, unknown> {
  const swap = (v: unknown) =>
    typeof v === "string"
      ? v.replace(realpathSync(SHARED), "<shared>").replace(realpathSync(ROOT), "<repo>").replace(ROOT, "<repo>")
      : v;
  return Object.fromEntries(Object.entries(args).map(([k, v]) => [k, swap(v)]));
}

const FIXTURES = (rel: string) => realpathSync(join(SHARED, "fixtures", rel));

/** The fixtures store: every shared fixture but the Russian book (ingested as the measured memory_ingest call). */
async function fillStore(pegas: StdioServer): Promise<{ seconds: number; merge_id?: number }> {
  const t0 = performance.now();
  let mergeId: number | undefined;
  for (const rel of ["html", "pdf", "epub", "text/en_gutenberg_8868_botchan.txt"]) {
    const r = (await pegas.client.callTool({ name: "memory_ingest", arguments: { path: FIXTURES(rel) } }, undefined, {
      timeout: 1_800_000,
    })) as RawResult;
    if (r.isError) throw new Error(`ingest of ${rel} failed: ${contentText(r.content)}`);
    mergeId ??= findId(r.structuredContent, ["merge_id"]);
  }
  return { seconds: Math.round((performance.now() - t0) / 100) / 10, merge_id: mergeId };
}

/** The id of an atom in an answer: from its structured content, else from its text. */
function atomId(r: RawResult, keys = ["atom_id", "id"]): number | undefined {
  return findId(r.structuredContent, keys) ?? idInText(contentText(r.content));
}

/** Calls every tool with realistic arguments, in an order that gives later calls the ids they need. */
async function answerCosts(pegas: StdioServer, mergeFromStore: number | undefined): Promise<AnswerCost[]> {
  const costs: AnswerCost[] = [];
  const call = async (tool: string, label: string, args: Record<string, unknown>) => {
    const { cost, result } = await callAndCount(pegas.client, tool, label, args, 600_000);
    costs.push({ ...cost, args: portable(args) });
    return result;
  };
  await call("memory_ingest", "a Russian book (file)", { path: FIXTURES("text/ru_chekhov_palata_no6.txt") });
  const en = await call("memory_search", "English question", {
    query: "How does Emscripten produce standalone WebAssembly?",
  });
  await call("memory_search", "Russian question", { query: "Кто такой Иван Дмитрич Громов?" });
  await call("memory_get_context", "English question", { question: "How do I install Docker Engine on Ubuntu?" });
  await call("memory_get_context", "Russian question", {
    question: "Почему доктор Андрей Ефимыч Рагин сам оказался в палате № 6?",
  });
  const hit = atomId(en) ?? 1;
  await call("memory_get", "a search hit", { atom_id: hit });
  const stored = await call("memory_store", "an agent's fact", {
    type: "fact",
    claim: "Docker Engine installs on Ubuntu 24.04 (Noble) from Docker's apt repository.",
    confidence: 0.8,
  });
  const storedId = atomId(stored) ?? hit;
  const again = await call("memory_store", "a near-duplicate of it", {
    type: "fact",
    claim: "Docker Engine is installed on Ubuntu 24.04 Noble from the Docker apt repository.",
  });
  await call("memory_link", "relate two atoms", { src: storedId, dst: hit, kind: "related", confidence: 0.7 });
  await call("memory_query_graph", "an atom's neighbourhood", { node: hit });
  await call("memory_verify", "one atom", { atom_id: storedId });
  await call("memory_infer", "no rules stored", {});
  await call("memory_add_gap", "an open question", {
    question: "Which Ubuntu releases does Docker Engine support?",
    reason: "the installation guide names only some",
    priority: 3,
  });
  await call("memory_list_gaps", "open gaps", {});
  await call("memory_trace_add", "an observation", {
    kind: "observation",
    content: "The Docker guide asks to remove the distribution's docker.io package before installing.",
    session: "bench",
  });
  await call("memory_trace_search", "a session's traces", { query: "docker", session: "bench" });
  await call("memory_store_code", "a small repository (src/domain)", {
    path: realpathSync(join(ROOT, "src", "domain")),
    repo: "pegas-domain",
  });
  const code = await call("memory_search_code", "a symbol by words", { query: "monotone progress reporter" });
  const symbol = findIdName(code.structuredContent) ?? "ProgressReporter";
  await call("memory_code_graph", "a symbol's uses", { repo: "pegas-domain", symbol });
  await call("memory_stats", "the store", {});
  // With no merge found in any answer, the error for merge 1 is what the model reads: measured all the same.
  const mergeId = findId(again.structuredContent, ["merge_id"]) ?? mergeFromStore ?? 1;
  await call("memory_unmerge", "undo a merge", { merge_id: mergeId });
  await call("memory_forget", "retract the agent's fact", { atom_id: storedId, reason: "superseded by the guide" });
  return costs;
}

/** A symbol's name in a memory_search_code answer (`name` or the last part of `qualified_name`). */
function findIdName(value: unknown): string | undefined {
  if (Array.isArray(value)) return value.map(findIdName).find((x) => x !== undefined);
  if (!value || typeof value !== "object") return undefined;
  const o = value as Record<string, unknown>;
  if (typeof o.name === "string" && o.name) return o.name;
  if (typeof o.qualified_name === "string") return o.qualified_name.split(/[.:#/]/).pop();
  return Object.values(o)
    .map(findIdName)
    .find((x) => x !== undefined);
}

/** Issue 20's bound on a tool's default answer, as text for the table. */
function targetOf(tool: string): string {
  if (tool === "memory_get_context") return "≤ budget_tokens in both forms";
  if (tool === "memory_search") return "≤ 1,500 in both forms (k=10)";
  return "≤ 4,000";
}

function catalogRows(pegas: CatalogCost, ref: CatalogCost | string, refVersion: string | null): SummaryRow[] {
  const rows: SummaryRow[] = [
    {
      metric: `pegas-memory tools/list + instructions (${pegas.tools} tools)`,
      value: pegas.total_tokens,
      unit: "tokens",
      target: "≤ 3,000",
    },
  ];
  if (typeof ref === "string") rows.push({ metric: "reference memory server tools/list", value: null });
  else
    rows.push({
      metric: `${REFERENCE} ${refVersion ?? ""} tools/list + instructions (${ref.tools} tools)`,
      value: ref.total_tokens,
      unit: "tokens",
    });
  return rows;
}

function answerRows(costs: AnswerCost[]): SummaryRow[] {
  const byTool = new Map<string, AnswerCost[]>();
  for (const c of costs) byTool.set(c.tool, [...(byTool.get(c.tool) ?? []), c]);
  return [...byTool].map(([tool, cs]) => {
    const text = Math.max(...cs.map((c) => c.text_tokens));
    const json = cs.some((c) => c.json_tokens !== null) ? Math.max(...cs.map((c) => c.json_tokens ?? 0)) : null;
    const errors = cs.filter((c) => c.is_error).length;
    return {
      metric: `${tool} default answer, text / JSON of structured content${cs.length > 1 ? ` (max of ${cs.length})` : ""}${errors ? ` (${errors} error)` : ""}`,
      value: `${text} / ${json ?? "none"}`,
      unit: "tokens",
      target: targetOf(tool),
    };
  });
}

/** The agent_reads benchmark (see module doc). */
export const agentReadsBench: Benchmark = {
  name: "agent_reads",
  description:
    "o200k tokens an agent reads: tools/list + instructions beside the reference MCP memory server, and each tool's default answer (text and structured JSON) on the fixtures store",
  async run(): Promise<BenchOutcome> {
    const notes: string[] = [];
    let ref: CatalogCost | string;
    let refVersion: string | null = null;
    try {
      const entry = referenceEntry();
      refVersion = entry.version;
      const server = await startReference(entry.path);
      try {
        ref = await catalogCost(server.client);
      } finally {
        await server.close();
      }
    } catch (err) {
      ref = (err as Error).message;
      notes.push(`reference server not measured: ${ref}`);
    }
    const pegas = await startPegas();
    try {
      const catalog = await catalogCost(pegas.client);
      const store = await fillStore(pegas);
      const costs = await answerCosts(pegas, store.merge_id);
      const listed = new Set(catalog.per_tool.map((t) => t.name));
      const missing = [...listed].filter((t) => !costs.some((c) => c.tool === t));
      if (missing.length) notes.push(`tools without a measured answer: ${missing.join(", ")}`);
      return {
        params: {
          tokenizer: TOKENIZER,
          pegas_memory: "bun main.ts serve (stdio), every toolset, default configuration, embedded database",
          reference: typeof ref === "string" ? null : `${REFERENCE}@${refVersion} (node, stdio)`,
          store: "shared/fixtures html, pdf, epub and text/en_gutenberg_8868_botchan.txt, ingested over MCP",
          store_ingest_s: store.seconds,
          catalog_count: "JSON of {name, description, inputSchema} per tool + instructions",
          answer_count: "text content (blocks joined by newlines) and JSON.stringify(structuredContent)",
        },
        results: {
          catalog: { pegas_memory: catalog, reference: ref },
          answers: costs,
        },
        summary: [...catalogRows(catalog, ref, refVersion), ...answerRows(costs)],
        notes,
      };
    } finally {
      await pegas.close();
    }
  },
};
