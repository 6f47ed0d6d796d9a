/**
 * Issue 20, item 2: every tool whose answer can grow keeps its default answer under 4,000 o200k tokens in both forms
 * (the text content, and the JSON of the structured content a client may hand the model instead) and says how to get
 * more. Measured through the MCP registry on a copy of the shared fixtures store (tests/support/fixtures-store.ts,
 * Chekhov's «Палата № 6» among them) plus the shapes that make answers grow: an atom with 60 links, 24 long
 * research gaps, 12 long traces with metadata, a forgotten document.
 * The code tools are measured on this repository in tests/code/e2e.test.ts.
 */
import { beforeAll, describe, expect, test } from "bun:test";
import { countTokens } from "gpt-tokenizer/encoding/o200k_base";
import { suiteMcpClient, toolCalls, type ToolOut } from "../support/mcp-client.ts";
import { suiteFixturesStore } from "../support/fixtures-store.ts";
import { fixturePath } from "../support/shared.ts";

const t = suiteFixturesStore();
const mcp = suiteMcpClient(t);
const { call } = toolCalls(mcp, 120_000);

/** Most tokens a default answer may hold, in either form. */
const LIMIT = 4000;

/** Calls a tool and checks both forms of its answer against {@link LIMIT}; returns the text and structured content. */
async function sized(name: string, args: Record<string, unknown>): Promise<{ text: string; sc: ToolOut }> {
  const r = await call(name, args);
  const text = (r.content as Array<{ text: string }>)[0].text;
  if (r.isError) throw new Error(`${name}: ${text}`);
  const json = JSON.stringify(r.structuredContent);
  expect({ name, text: countTokens(text) <= LIMIT, json: countTokens(json) <= LIMIT }).toEqual({
    name,
    text: true,
    json: true,
  });
  // Written for a model: no JSON keys, no nulls.
  expect(text).not.toMatch(/"\w+":/);
  expect(text).not.toMatch(/\bnull\b/);
  return { text, sc: r.structuredContent as ToolOut };
}

let doc: ToolOut;
let hub: number;
const linked: number[] = [];

beforeAll(async () => {
  // Already in the store: the answer of an unchanged file, and its document id.
  doc = (await sized("memory_ingest", { path: fixturePath("text/ru_chekhov_palata_no6.txt") })).sc;
  const sql = (t.services.maintenance as unknown as { db: { sql: any } }).db.sql;
  const atoms: Array<{ id: number }> = await sql`
    SELECT DISTINCT a.id FROM pm_atom a JOIN pm_citation c ON c.atom_id = a.id
     WHERE c.doc_id = ${doc.doc_id} AND a.status <> 'retracted' ORDER BY a.id LIMIT 61`;
  hub = atoms[0].id;
  for (const a of atoms.slice(1)) {
    const r = await call("memory_link", { src: a.id, dst: hub, kind: linked.length % 2 ? "supports" : "related" });
    if (!r.isError) linked.push(a.id);
  }
}, 300_000);

describe("default answers stay under 4,000 tokens in both forms", () => {
  test("memory_get of an atom with 60 links: 10 per list, and the call for the next page", async () => {
    expect(linked.length).toBeGreaterThan(40);
    const { text, sc } = await sized("memory_get", { atom_id: hub });
    expect(sc.links_in).toHaveLength(10);
    expect(text).toContain("call memory_get with links_offset 10 for more");
    // The passage's citation points at its quote (the first sentence), not at the whole chunk.
    expect(text).toMatch(/\[1\] Антон Павлович Чехов\. Палата No 6 — lines? \d/);
  });

  test("memory_query_graph around it: 25 nodes with their claims, and how to narrow", async () => {
    const { text, sc } = await sized("memory_query_graph", { node: hub });
    expect(sc.nodes.length).toBeLessThanOrEqual(25);
    expect(sc.truncated).toBe(true);
    expect(text).toContain("narrow with kinds, direction or depth, or raise limit");
    expect(sc.nodes.find((n: ToolOut) => n.id === `atom:${hub}`).claim.length).toBeGreaterThan(0);
    await sized("memory_query_graph", { node: hub, depth: 2 });
    await sized("memory_query_graph", { from: linked[0], to: linked[1], direction: "both" });
  });

  test("memory_list_gaps over 24 long gaps: 20 by default, cut questions, and the offset of the next page", async () => {
    for (let i = 0; i < 24; i++) {
      await call("memory_add_gap", {
        question: `Почему опыт номер ${i} с ${"очень длинным описанием условий ".repeat(30)} не удался в случае ${i * 7}?`,
        reason: "it is needed for the report ".repeat(60),
        priority: 1 + (i % 5),
      });
    }
    const { text, sc } = await sized("memory_list_gaps", {});
    expect(sc.gaps).toHaveLength(20);
    expect(text).toContain("call memory_list_gaps with offset 20");
  });

  test("memory_trace_search over long traces: hits cut, metadata kept when small, the cursor of the next page", async () => {
    for (let i = 0; i < 12; i++) {
      await call("memory_trace_add", {
        kind: "observation",
        content: `Попытка ${i}: прокси снова упал. ${"Длинный журнал ошибок прокси и повторов. ".repeat(100)}`,
        session: "size",
        metadata: { tool: "fetch", attempt: i, log: "x".repeat(i % 2 ? 5000 : 10) },
      });
    }
    const { text, sc } = await sized("memory_trace_search", { query: "прокси упал" });
    expect(sc.hits).toHaveLength(10);
    expect(sc.hits[0].truncated).toBe(true);
    expect(text).toContain("call memory_trace_search again with cursor");
    await sized("memory_trace_search", {});
  });

  test("memory_verify, memory_infer and memory_stats", async () => {
    await sized("memory_verify", {});
    await sized("memory_verify", { atom_id: hub });
    await call("memory_store", { type: "logical_rule", claim: '{"if": ["related", "supports"], "then": "near"}' });
    await sized("memory_infer", {});
    await sized("memory_stats", {});
  });

  test("memory_forget of the whole document and its undo: grouped changes, not one record each", async () => {
    const { text, sc } = await sized("memory_forget", { doc_id: doc.doc_id, reason: "size check" });
    expect(sc.changed).toBeGreaterThan(100);
    expect(text).toMatch(/^Retracted \d+ atom\(s\)/);
    await sized("memory_forget", { doc_id: doc.doc_id, reason: "size check", undo: true });
  });
});
