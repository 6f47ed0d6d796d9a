/**
 * memory_query_graph through the MCP registry (SDK client, in-memory transport, embedded database, SQL graph
 * reads): a neighbourhood with its edges, a shortest path, counters, kind and direction filters, and clear errors.
 */
import { describe, expect, test } from "bun:test";
import { suiteMcpClient, toolCalls, type ToolOut } from "../support/mcp-client.ts";
import { suiteServices } from "../support/services.ts";

const t = suiteServices("pglite");
const mcp = suiteMcpClient(t);

type Out = ToolOut;
const { call, ok, text } = toolCalls(mcp);

describe("memory_query_graph over MCP", () => {
  test("neighbours, path and counters over agent links", async () => {
    const a = await ok("memory_store", { type: "fact", claim: "Громов живёт в палате номер шесть." });
    const b = await ok("memory_store", {
      type: "fact",
      claim: "Палата номер шесть стоит во дворе больницы.",
      links: [{ atom_id: a.atom_id, kind: "supports" }],
    });
    const c = await ok("memory_store", {
      type: "fact",
      claim: "The hospital yard is overgrown with burdock.",
      links: [{ atom_id: b.atom_id, kind: "related" }],
    });

    const around = await ok("memory_query_graph", { node: b.atom_id, response_format: "detailed" });
    expect(around.mode).toBe("neighbours");
    expect(around.root).toBe(`atom:${b.atom_id}`);
    expect(around.nodes.map((n: Out) => n.id).sort()).toEqual(
      [`atom:${a.atom_id}`, `atom:${b.atom_id}`, `atom:${c.atom_id}`].sort(),
    );
    expect(around.edges).toHaveLength(2);
    expect(around.edges.find((e: Out) => e.kind === "supports")).toMatchObject({
      src: `atom:${b.atom_id}`,
      dst: `atom:${a.atom_id}`,
      inferred: false,
      source: "agent",
    });

    const outOnly = await ok("memory_query_graph", {
      node: `atom:${b.atom_id}`,
      direction: "out",
      kinds: ["supports"],
    });
    expect(outOnly.nodes.map((n: Out) => n.id).sort()).toEqual([`atom:${a.atom_id}`, `atom:${b.atom_id}`].sort());

    const path = await ok("memory_query_graph", { from: c.atom_id, to: a.atom_id });
    expect(path).toMatchObject({ mode: "path", found: true });
    expect(path.edges.map((e: Out) => e.kind)).toEqual(["related", "supports"]);
    const none = await ok("memory_query_graph", { from: a.atom_id, to: c.atom_id });
    expect(none).toMatchObject({ mode: "path", found: false, nodes: [], edges: [] });

    const counters = await ok("memory_query_graph", {});
    expect(counters.mode).toBe("counters");
    expect(counters.counters.edges.supports.extracted).toBeGreaterThanOrEqual(1);
    expect(counters.counters.nodes.Atom).toBeGreaterThanOrEqual(3);
  });

  test("entity merges: the absorbed entity's mentions on the root, one edge per atom, and back on undo", async () => {
    const a = await ok("memory_store", {
      type: "fact",
      claim: "Ms. Kiyo wrote to Botchan; Botchan loved Master Darling.",
    });
    const b = await ok("memory_store", { type: "fact", claim: "Letters to Master Darling went unanswered." });
    const [botchan] = await t.services.entities.entitiesByKeys(["botchan"]);
    const [darling] = await t.services.entities.entitiesByKeys(["darling"]);
    const merge = await t.services.entities.mergeEntities({
      fromEntityId: darling.id,
      intoEntityId: botchan.id,
      reason: "Kiyo's name for Botchan",
      actor: "agent",
    });
    const via = await ok("memory_query_graph", { node: `entity:${darling.id}`, response_format: "detailed" });
    expect(via.root).toBe(`entity:${botchan.id}`);
    expect(via.nodes.map((n: Out) => n.id).sort()).toEqual(
      [`entity:${botchan.id}`, `atom:${a.atom_id}`, `atom:${b.atom_id}`].sort(),
    );
    const mentions = (via.edges as Out[]).filter((e) => e.kind === "mentions");
    expect(mentions.map((e) => `${e.src}>${e.dst}`).sort()).toEqual(
      [`atom:${a.atom_id}>entity:${botchan.id}`, `atom:${b.atom_id}>entity:${botchan.id}`].sort(),
    );
    const text1 = text(await call("memory_query_graph", { node: `atom:${a.atom_id}` }));
    expect(text1).not.toContain(`entity:${darling.id}`);
    await t.services.entities.undoEntityMerge(merge.id);
    const back = await ok("memory_query_graph", { node: `entity:${darling.id}` });
    expect(back.root).toBe(`entity:${darling.id}`);
    expect(back.nodes.map((n: Out) => n.id).sort()).toEqual(
      [`entity:${darling.id}`, `atom:${a.atom_id}`, `atom:${b.atom_id}`].sort(),
    );
  });

  test("errors: unknown node, node with from, a half path, filters on counters", async () => {
    const unknown = await call("memory_query_graph", { node: 999999 });
    expect(unknown.isError).toBe(true);
    expect(text(unknown)).toStartWith("NOT_FOUND");
    const both = await call("memory_query_graph", { node: 1, from: 1, to: 2 });
    expect(text(both)).toStartWith("INVALID_INPUT");
    const half = await call("memory_query_graph", { from: 1 });
    expect(text(half)).toStartWith("INVALID_INPUT");
    const filtered = await call("memory_query_graph", { kinds: ["supports"] });
    expect(text(filtered)).toStartWith("INVALID_INPUT");
    const malformed = await call("memory_query_graph", { node: "atom:x" });
    expect(text(malformed)).toStartWith("INVALID_INPUT");
  });
});
