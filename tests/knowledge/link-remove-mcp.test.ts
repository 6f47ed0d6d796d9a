/**
 * memory_link's `remove` through the MCP registry (SDK client validating structured content against the output
 * schema, in-memory transport, embedded database): the tool lists `remove` and is marked destructive; a link made
 * by memory_link is removed (what was removed, how many inferred edges went), leaves memory_query_graph and
 * memory_get, and the inferred edge it justified goes with it; removing again is NOT_FOUND; an inferred link and a
 * `confidence` with `remove` are refused; linking without `remove` still answers as before.
 */
import { describe, expect, test } from "bun:test";
import { suiteMcpClient, toolCalls, type ToolOut } from "../support/mcp-client.ts";
import { suiteServices } from "../support/services.ts";
import { effectiveHints } from "../../src/mcp/listing.ts";

const t = suiteServices("pglite");
const mcp = suiteMcpClient(t);
const { call, ok, text } = toolCalls(mcp);

describe("memory_link remove over MCP", () => {
  test("the tool's schema offers remove (default false) and it is marked destructive", async () => {
    const tool = (await mcp.client.listTools()).tools.find((x) => x.name === "memory_link")!;
    expect(tool.inputSchema.properties).toHaveProperty("remove");
    expect(tool.inputSchema.required ?? []).not.toContain("remove");
    expect(tool.description).toContain("remove: true");
    expect(effectiveHints(tool.annotations)).toMatchObject({ readOnlyHint: false, destructiveHint: true });
  });

  test("link, infer, remove: the link and the edge it alone justified leave the graph; again → NOT_FOUND", async () => {
    const ids: number[] = [];
    for (const claim of ["Сервис A вызывает сервис B.", "Сервис B читает базу C.", "База C хранит заказы."])
      ids.push((await ok("memory_store", { type: "fact", claim })).atom_id);
    const ab = await ok("memory_link", { src: ids[0], dst: ids[1], kind: "depends_on" });
    expect(ab).toMatchObject({ created: true, source: "agent" });
    expect(ab).not.toHaveProperty("removed");
    await ok("memory_link", { src: ids[1], dst: ids[2], kind: "depends_on" });
    const rule = await ok("memory_store", {
      type: "logical_rule",
      claim: "Зависимость транзитивна (проверка удаления связи)",
      content: '{"if": ["depends_on", "depends_on"], "then": "depends_on"}',
    });
    expect((await ok("memory_infer", { rule_ids: [rule.atom_id] })).edges_added).toBe(1);

    const inferred = await call("memory_link", { src: ids[0], dst: ids[2], kind: "depends_on", remove: true });
    expect(inferred.isError).toBe(true);
    expect(text(inferred)).toStartWith("INVALID_INPUT");
    expect(text(inferred)).toContain(`atom:${ids[0]} -depends_on-> atom:${ids[1]}`);
    const withConfidence = await call("memory_link", {
      src: ids[0],
      dst: ids[1],
      kind: "depends_on",
      remove: true,
      confidence: 0.5,
    });
    expect(text(withConfidence)).toStartWith("INVALID_INPUT");

    const removed = await ok("memory_link", { src: `atom:${ids[0]}`, dst: ids[1], kind: "depends_on", remove: true });
    expect(removed).toEqual({
      link_id: ab.link_id,
      table: "pm_atom_link",
      edge_key: ab.edge_key,
      src: `atom:${ids[0]}`,
      dst: `atom:${ids[1]}`,
      kind: "depends_on",
      removed: true,
      source: "agent",
      confidence: expect.closeTo(0.8, 5),
      inferred_retracted: 1,
      inferred_rederived: 0,
    });
    expect((await ok("memory_query_graph", { node: ids[0] })).edges).toEqual([]);
    expect((await ok("memory_get", { atom_id: ids[0] })).links_out).toEqual([]);
    expect((await ok("memory_get", { atom_id: ids[1] })).links_out.map((l: ToolOut) => l.atom_id)).toEqual([ids[2]]);

    const again = await call("memory_link", { src: ids[0], dst: ids[1], kind: "depends_on", remove: true });
    expect(again.isError).toBe(true);
    expect(text(again)).toStartWith(`NOT_FOUND: no link atom:${ids[0]} -depends_on-> atom:${ids[1]}`);
    // remove: false is the plain link: the same link again is stored anew.
    expect(await ok("memory_link", { src: ids[0], dst: ids[1], kind: "depends_on", remove: false })).toMatchObject({
      created: true,
      source: "agent",
    });
  });
});
