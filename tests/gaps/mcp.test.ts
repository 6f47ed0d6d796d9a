/**
 * memory_add_gap and memory_list_gaps through the MCP registry (SDK client, in-memory transport, embedded database):
 * listed with input and output schemas and annotations; structured results match their output schemas exactly
 * (checked strictly, no undeclared field); a repeat raises the priority; bad input is an `isError` result and
 * writes nothing; memory_stats counts the suggested gaps.
 */
import { describe, expect, test } from "bun:test";
import { z } from "zod";
import { memoryAddGap } from "../../src/mcp/tools/research/memory-add-gap.ts";
import { memoryListGaps } from "../../src/mcp/tools/research/memory-list-gaps.ts";
import { memoryVerify } from "../../src/mcp/tools/research/memory-verify.ts";
import { settleSearchMisses } from "../../src/core/gaps/miss.ts";
import { suiteMcpClient, toolCalls, type ToolOut } from "../support/mcp-client.ts";
import { suiteServices } from "../support/services.ts";
import { effectiveHints } from "../../src/mcp/listing.ts";
import { portableOutput } from "../../src/mcp/portable-output.ts";

const t = suiteServices("pglite");
const mcp = suiteMcpClient(t);

type Out = ToolOut;
const { call, ok, text } = toolCalls(mcp);

describe("research gap tools over MCP", () => {
  test("listed with schemas and annotations", async () => {
    const { tools } = await mcp.client.listTools();
    const add = tools.find((x) => x.name === "memory_add_gap");
    const list = tools.find((x) => x.name === "memory_list_gaps");
    expect(add?.inputSchema.required).toEqual(["question"]);
    expect(Object.keys(add?.outputSchema?.properties ?? {})).toEqual([
      "gap",
      "created",
      "duplicate_of",
      "previous_priority",
      "decided_by",
    ]);
    expect(effectiveHints(add?.annotations)).toMatchObject({
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: false,
    });
    expect(Object.keys(list?.inputSchema.properties ?? {})).toEqual(["status", "limit", "offset", "response_format"]);
    expect(list?.annotations).toMatchObject({ readOnlyHint: true });
  });

  test("add, repeat, list and suggested gaps; results match the output schemas strictly", async () => {
    const addOut = z.object(portableOutput(memoryAddGap)).strict();
    const listOut = z.object(portableOutput(memoryListGaps)).strict();
    const a = await ok("memory_add_gap", {
      question: "Сколько весит самый большой колокол в мире?",
      reason: "для заметки о литье",
      priority: 2,
    });
    expect(a).not.toHaveProperty("duplicate_of");
    expect(addOut.parse(a)).toMatchObject({
      created: true,
      gap: { priority: 2, status: "open", reason: "для заметки о литье" },
    });
    const b = await ok("memory_add_gap", { question: "Какой вес у самого большого колокола в мире?" });
    expect(addOut.parse(b)).toMatchObject({
      created: false,
      duplicate_of: a.gap.id,
      previous_priority: 2,
      gap: { priority: 3 },
    });
    await ok("memory_add_gap", { question: "Who cast the Tsar Bell?", priority: 5 });
    await ok("memory_search", { query: "zeppelin mooring mast" });
    await ok("memory_search", { query: "Zeppelin mooring masts" });
    await settleSearchMisses();
    const l = await ok("memory_list_gaps", {});
    expect((listOut.parse(l) as Out).gaps.map((g: Out) => g.priority)).toEqual([5, 3]);
    expect(l.gaps[1].metadata.repeat_count).toBe(1);
    expect(l.suggested.map((x: Out) => x.query)).toContain("Zeppelin mooring masts");
    expect((await ok("memory_list_gaps", { status: "all", limit: 1 })).gaps as Out[]).toHaveLength(1);
    const st = await ok("memory_stats", {});
    expect(st.suggested_gaps).toBe(l.suggested_total);
  });

  test("memory_verify answers a gap and says so in gaps_answered (valid against its output schema)", async () => {
    const verifyOut = z.object(portableOutput(memoryVerify)).strict();
    const gap = await ok("memory_add_gap", { question: "In which year was the Shukhov radio tower completed?" });
    const claim = "The Shukhov radio tower in Moscow was completed in 1922.";
    const a = await ok("memory_store", {
      type: "fact",
      claim,
      source_uri: "https://one.example.org/tower",
      quote: claim,
    });
    await ok("memory_store", { type: "fact", claim, source_uri: "https://two.example.net/shukhov", quote: claim });
    const v = verifyOut.parse(await ok("memory_verify", { atom_id: a.atom_id })) as Out;
    expect(v.changes.map((c: Out) => c.to)).toContain("verified");
    expect(v.gaps_answered).toEqual([
      { gap_id: gap.gap.id, atom_ids: [a.atom_id], decided_by: "search-top3+key-terms" },
    ]);
    const answered = (await ok("memory_list_gaps", { status: "answered" })).gaps as Out[];
    expect(answered.map((g) => g.id)).toContain(gap.gap.id);
  });

  test("bad input is an isError result and writes nothing", async () => {
    const before = (await ok("memory_list_gaps", { status: "all" })).total;
    for (const args of [{ question: "" }, { question: "Why?", priority: 9 }, { priority: 3 }, { question: "   " }]) {
      const r = await call("memory_add_gap", args);
      expect(r.isError).toBe(true);
      expect(text(r).length).toBeGreaterThan(10);
    }
    expect((await call("memory_list_gaps", { status: "closed" })).isError).toBe(true);
    expect((await ok("memory_list_gaps", { status: "all" })).total).toBe(before);
  });
});
