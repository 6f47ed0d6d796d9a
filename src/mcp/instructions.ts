/**
 * The server's `instructions` (sent once, at initialize): what pegas-memory is and which tool to reach for, naming
 * only the tools of the toolsets that are on.
 */
import type { ToolsetName } from "../config.ts";

/** One sentence per toolset, in the order the instructions give them. */
const SENTENCES: ReadonlyArray<[ToolsetName, string]> = [
  ["search", "Before answering from memory, call memory_get_context and cite the sources it returns."],
  ["knowledge", "Save what you learn with memory_ingest (a text, URL or file) or memory_store (one fact)."],
  ["research", "memory_add_gap records what memory cannot answer yet."],
  ["code", "memory_store_code stores a repository for memory_search_code and memory_code_graph."],
  ["traces", "memory_trace_add keeps your plans and observations apart from knowledge."],
];

/** The instructions for the toolsets in `on`: one line on pegas-memory, then a sentence per toolset that is on. */
export function serverInstructions(on: readonly ToolsetName[]): string {
  return [
    "pegas-memory is your long-term memory, in any language (Russian and English are stemmed).",
    ...SENTENCES.filter(([set]) => on.includes(set)).map(([, s]) => s),
  ].join(" ");
}
