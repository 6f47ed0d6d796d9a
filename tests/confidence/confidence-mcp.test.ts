/**
 * Confidence with its reasons over MCP (SDK client, in-memory transport, embedded database): memory_get shows the
 * computed confidence and its signed reasons in the text and in the concise structured content; memory_get_context
 * marks a contested statement "low confidence: contested" within its budget and leaves a verified one unmarked.
 */
import { describe, expect, test } from "bun:test";
import { suiteMcpClient, toolCalls, type ToolOut } from "../support/mcp-client.ts";
import { suiteServices } from "../support/services.ts";

const t = suiteServices("pglite");
const mcp = suiteMcpClient(t);
const { call, ok, text } = toolCalls(mcp, 120_000);

describe("confidence reasons over MCP", () => {
  test("a contested statement: low confidence with its reasons in memory_get and a short tag in the context", async () => {
    const a = await ok("memory_store", {
      type: "fact",
      claim: "Андрей Ефимыч Рагин служит в больнице двадцать лет.",
      source_uri: "https://example.org/palata-6",
    });
    const c = await ok("memory_store", {
      type: "fact",
      claim: "Андрей Ефимыч Рагин не служит в больнице двадцать лет.",
      source_uri: "https://example.com/other",
    });
    expect(c.contradicts.map((x: ToolOut) => x.atom_id)).toContain(a.atom_id);
    await ok("memory_verify", { atom_id: a.atom_id });

    const r = await call("memory_get", { atom_id: a.atom_id });
    const got = r.structuredContent as ToolOut;
    expect(got.status).toBe("contested");
    expect(got.confidence).toBeLessThan(0.2);
    expect(got.confidence_reasons[0]).toMatch(/^−\d\.\d\d contested by 1 atom\(s\)$/);
    expect(got.confidence_reasons).toContain("+0.50 1 source site(s): example.org");
    expect(text(r)).toContain(`Confidence ${got.confidence.toFixed(2)}: ${got.confidence_reasons[0]}; `);

    const ctx = await ok("memory_get_context", {
      question: "Сколько лет Рагин служит в больнице?",
      budget_tokens: 400,
    });
    expect(ctx.markdown).toContain(`(atom ${a.atom_id}, low confidence: contested)`);
    expect(ctx.markdown).not.toContain(`contested, low confidence`);
  });

  test("a statement two independent sites confirm: verified, high confidence, no tag in the context", async () => {
    const claim = "The Mozilla Foundation was founded in July 2003 to oversee the Mozilla open source projects.";
    const a = await ok("memory_store", { type: "fact", claim, source_uri: "https://en.wikipedia.org/wiki/Mozilla" });
    await ok("memory_store", {
      type: "fact",
      claim: `${claim.slice(0, -1)}!`,
      source_uri: "https://www.britannica.com/topic/Mozilla-Foundation",
    });
    await ok("memory_verify", { atom_id: a.atom_id });
    const r = await call("memory_get", { atom_id: a.atom_id });
    const got = r.structuredContent as ToolOut;
    expect(got.status).toBe("verified");
    expect(got.confidence).toBeGreaterThan(0.9);
    expect(got.confidence_reasons[0]).toMatch(/^\+\d\.\d\d verified by independent sites$/);
    expect(got.confidence_reasons.join(" ")).toContain("2 source site(s): britannica.com, wikipedia.org");
    expect(text(r)).toMatch(/\nConfidence 0\.9\d: \+\d\.\d\d verified by independent sites; /);

    const detailed = await ok("memory_get", { atom_id: a.atom_id, response_format: "detailed" });
    expect(detailed.confidence_reasons).toEqual(got.confidence_reasons);
    const ctx = await ok("memory_get_context", { question: "When was the Mozilla Foundation founded?" });
    const line = (ctx.markdown as string).split("\n").find((l) => l.includes(`(atom ${a.atom_id},`));
    expect(line).toEndWith(`(atom ${a.atom_id}, verified)`);
  });
});
