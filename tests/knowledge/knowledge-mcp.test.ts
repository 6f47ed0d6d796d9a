/**
 * memory_store (merge, contradicts, links) and memory_unmerge through the MCP registry (SDK client, in-memory
 * transport, embedded database): structured results validate against the output schemas; errors are isError.
 */
import { describe, expect, test } from "bun:test";
import { suiteMcpClient } from "../support/mcp-client.ts";
import { suiteServices } from "../support/services.ts";

const t = suiteServices("pglite");
const mcp = suiteMcpClient(t);

const call = async (name: string, args: Record<string, unknown>) => mcp.client.callTool({ name, arguments: args });
const text = (r: Awaited<ReturnType<typeof call>>) => (r.content as Array<{ text: string }>)[0].text;

describe("knowledge tools over MCP", () => {
  test("store, merge, contradiction, link, unmerge", async () => {
    const a = (await call("memory_store", { type: "fact", claim: "Рагин служит в больнице двадцать лет." }))
      .structuredContent as Record<string, any>;
    const b = (
      await call("memory_store", {
        type: "fact",
        claim: "Рагин служит в больнице двадцать лет!",
        links: [{ atom_id: a.atom_id, kind: "reference" }],
      })
    ).structuredContent as Record<string, any>;
    expect(b).toMatchObject({ atom_id: a.atom_id, created: false, near_duplicate_of: { atom_id: a.atom_id } });
    const c = (await call("memory_store", { type: "fact", claim: "Рагин не служит в больнице двадцать лет." }))
      .structuredContent as Record<string, any>;
    expect(c.contradicts.map((x: { atom_id: number }) => x.atom_id)).toContain(a.atom_id);

    const undone = await call("memory_unmerge", { merge_id: b.merge.merge_id });
    expect(undone.isError).toBeFalsy();
    expect(undone.structuredContent).toMatchObject({
      merge_id: b.merge.merge_id,
      kept_atom_id: a.atom_id,
      absorbed_atom_id: b.merge.absorbed_atom_id,
    });
    const again = await call("memory_unmerge", { merge_id: b.merge.merge_id });
    expect(again.isError).toBe(true);
    expect(text(again)).toStartWith("INVALID_INPUT");
    const bad = await call("memory_store", { type: "fact", claim: "x", links: [{ atom_id: 424242, kind: "cause" }] });
    expect(bad.isError).toBe(true);
    expect(text(bad)).toStartWith("NOT_FOUND");
  });
});
