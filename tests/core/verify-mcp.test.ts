/**
 * memory_verify through the MCP registry (SDK client and server over an in-memory transport, embedded database):
 * listed with honest annotations and schemas, a verification with progress notifications whose structured result
 * validates, a revert through the tool, and isError results for bad combinations.
 */
import { describe, expect, test } from "bun:test";
import { suiteMcpClient } from "../support/mcp-client.ts";
import { suiteServices } from "../support/services.ts";
import { effectiveHints } from "../../src/mcp/listing.ts";

interface Change {
  change_id: number;
  atom_id: number;
  from: string;
  to: string;
  evidence: number[];
}
interface Out {
  mode: string;
  checked: number;
  judge: string;
  changes: Change[];
  verdicts: Record<string, number>;
  reverted?: Change & { reverted_at: string };
  history: Array<Change & { actor: string; reverts?: number }>;
}

describe("memory_verify through the MCP registry", () => {
  const t = suiteServices("pglite");
  const mcp = suiteMcpClient(t);

  const call = (name: string, args: Record<string, unknown>) => mcp.client.callTool({ name, arguments: args });

  test("listed with schemas and annotations: writes, not destructive, not idempotent", async () => {
    const { tools } = await mcp.client.listTools();
    const v = tools.find((x) => x.name === "memory_verify");
    expect(effectiveHints(v?.annotations)).toMatchObject({
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: false,
    });
    expect(Object.keys(v?.inputSchema.properties ?? {}).sort()).toEqual([
      "atom_id",
      "doc_id",
      "limit",
      "response_format",
      "revert_change_id",
    ]);
    expect(v?.inputSchema.required ?? []).toEqual([]);
    expect(Object.keys(v?.outputSchema?.properties ?? {})).toEqual(
      expect.arrayContaining(["checked", "judge", "changes", "verdicts", "warnings", "history"]),
    );
  });

  test("verifies the candidates with progress, then reverts a change through the tool", async () => {
    const first =
      "Hubble's law states that galaxies recede at speeds proportional to their distance of 70 kilometres per second per megaparsec.";
    const second =
      "Hubble's law states that galaxies recede at speeds proportional to their distance of 50 kilometres per second per megaparsec.";
    const x = (await call("memory_store", { type: "fact", claim: first, source_uri: "https://example.org/hubble" }))
      .structuredContent as { atom_id: number };
    const y = (await call("memory_store", { type: "fact", claim: second, source_uri: "https://example.net/hubble" }))
      .structuredContent as { atom_id: number };
    const progress: Array<{ progress: number; total?: number }> = [];
    const res = await mcp.client.callTool({ name: "memory_verify", arguments: {} }, undefined, {
      onprogress: (p) => progress.push(p),
    });
    expect(res.isError).toBeFalsy();
    const out = res.structuredContent as unknown as Out;
    expect(out.mode).toBe("verify");
    expect(out.judge).toBe("heuristic");
    expect(out.checked).toBe(2);
    expect(out.verdicts.contradicts).toBe(2);
    expect(out.changes.map((c) => [c.atom_id, c.from, c.to]).sort()).toEqual(
      [
        [x.atom_id, "candidate", "contested"],
        [y.atom_id, "candidate", "contested"],
      ].sort(),
    );
    expect(progress.length).toBeGreaterThanOrEqual(3);
    expect(progress.at(-1)).toMatchObject({ progress: 2, total: 2 });

    const change = out.changes.find((c) => c.atom_id === x.atom_id)!;
    const undo = await call("memory_verify", { revert_change_id: change.change_id });
    expect(undo.isError).toBeFalsy();
    const u = undo.structuredContent as unknown as Out;
    expect(u.mode).toBe("revert");
    expect(u.changes[0]).toMatchObject({ atom_id: x.atom_id, from: "contested", to: "candidate" });
    expect(u.reverted?.change_id).toBe(change.change_id);
    expect(u.history.map((h) => [h.actor, h.to, "reverts" in h ? h.reverts : "absent"])).toEqual([
      ["revert", "candidate", change.change_id],
      ["verify", "contested", "absent"],
    ]);

    const one = (await call("memory_verify", { atom_id: y.atom_id })).structuredContent as unknown as Out;
    expect(one.history[0]).toMatchObject({ atom_id: y.atom_id, to: "contested", actor: "verify" });

    const twice = await call("memory_verify", { revert_change_id: change.change_id });
    expect(twice.isError).toBe(true);
    expect((twice.content as Array<{ text: string }>)[0].text).toMatch(/^INVALID_INPUT: .*already reverted/);
  }, 60_000);

  test("bad combinations are isError results with what to do", async () => {
    const both = await call("memory_verify", { atom_id: 1, doc_id: 1 });
    expect(both.isError).toBe(true);
    expect((both.content as Array<{ text: string }>)[0].text).toContain(
      "INVALID_INPUT: give atom_id or doc_id, not both",
    );
    const mixed = await call("memory_verify", { revert_change_id: 1, atom_id: 1 });
    expect((mixed.content as Array<{ text: string }>)[0].text).toContain("revert_change_id goes alone");
    const missing = await call("memory_verify", { doc_id: 99999 });
    expect((missing.content as Array<{ text: string }>)[0].text).toMatch(/^NOT_FOUND: no document '99999'/);
    const tooMany = await call("memory_verify", { limit: 5000 });
    expect(tooMany.isError).toBe(true);
  });
});
