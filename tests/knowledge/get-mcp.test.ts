/**
 * memory_get through the MCP registry (SDK client, in-memory transport, embedded database): an atom whole with its
 * citation, links out and in (with the other atom's claim), contradiction links, the merge that absorbed it and
 * the unmerge in its status history; unknown ids and bad limits are clear errors.
 */
import { describe, expect, test } from "bun:test";
import { suiteMcpClient, toolCalls, type ToolOut } from "../support/mcp-client.ts";
import { suiteServices } from "../support/services.ts";

const t = suiteServices("pglite");
const mcp = suiteMcpClient(t);

type Out = ToolOut;
const { call, ok, text } = toolCalls(mcp);

describe("memory_get over MCP", () => {
  test("an atom whole: citation, links out and in with the other claim, contradiction, merge and unmerge", async () => {
    const a = await ok("memory_store", {
      type: "fact",
      claim: "Андрей Ефимыч Рагин служит в больнице двадцать лет.",
      source_uri: "https://example.org/palata-6",
      quote: "служит в больнице двадцать лет",
    });
    const b = await ok("memory_store", {
      type: "text",
      claim: "Больница в уездном городе запущена.",
      links: [{ atom_id: a.atom_id, kind: "supports", confidence: 0.8 }],
    });
    const c = await ok("memory_store", {
      type: "fact",
      claim: "Андрей Ефимыч Рагин не служит в больнице двадцать лет.",
    });
    expect(c.contradicts.map((x: Out) => x.atom_id)).toContain(a.atom_id);

    const got = await ok("memory_get", { atom_id: a.atom_id, response_format: "detailed" });
    expect(got).toMatchObject({
      atom_id: a.atom_id,
      type: "fact",
      status: "candidate",
      claim: "Андрей Ефимыч Рагин служит в больнице двадцать лет.",
    });
    expect(got).not.toHaveProperty("merged_into");
    expect(got.citations).toHaveLength(1);
    expect(got.citations[0]).toMatchObject({
      uri: "https://example.org/palata-6",
      quote: "служит в больнице двадцать лет",
    });
    const incoming = got.links_in.find((l: Out) => l.atom_id === b.atom_id);
    expect(incoming).toMatchObject({
      kind: "supports",
      confidence: expect.closeTo(0.8, 5),
      source: "agent",
      inferred: false,
      claim: "Больница в уездном городе запущена.",
      status: "candidate",
    });
    const contra = [...got.links_in, ...got.links_out].find((l: Out) => l.atom_id === c.atom_id);
    expect(contra).toMatchObject({ kind: "contradicts" });
    expect(got.links_in_total + got.links_out_total).toBe(got.links_in.length + got.links_out.length);

    const fromB = await ok("memory_get", { atom_id: b.atom_id });
    expect(fromB.links_out).toEqual([
      expect.objectContaining({ atom_id: a.atom_id, kind: "supports", claim: got.claim }),
    ]);
    expect(fromB.links_in).toEqual([]);

    // A restatement is merged into `a`: the absorbed atom says so, until the merge is undone.
    const dup = await ok("memory_store", {
      type: "fact",
      claim: "Андрей Ефимыч Рагин служит в больнице двадцать лет!",
    });
    expect(dup.merge).toBeDefined();
    const absorbed = await ok("memory_get", { atom_id: dup.merge.absorbed_atom_id });
    expect(absorbed.merged_into).toEqual({ merge_id: dup.merge.merge_id, atom_id: a.atom_id });
    await ok("memory_unmerge", { merge_id: dup.merge.merge_id });
    const after = await ok("memory_get", { atom_id: dup.merge.absorbed_atom_id });
    expect(after).not.toHaveProperty("merged_into");
    expect(after.status).toBe("candidate");
    expect(after.status_history[0]).toMatchObject({ actor: "unmerge", to: "candidate" });
  });

  test("the text content is written for a model: atom line, numbered source, links; concise drops internals", async () => {
    const a = await ok("memory_store", {
      type: "fact",
      claim: "Доктор Хоботов приходит в палату по вторникам.",
      source_uri: "https://example.org/palata-6/hobotov",
      quote: "приходит в палату по вторникам",
    });
    const b = await ok("memory_store", {
      type: "text",
      claim: "Khobotov is the district doctor.",
      links: [{ atom_id: a.atom_id, kind: "supports" }],
    });
    const r = await call("memory_get", { atom_id: a.atom_id });
    const shown = text(r);
    expect(shown).toStartWith(`atom ${a.atom_id} · fact · candidate`);
    expect(shown).toContain("Claim: Доктор Хоботов приходит в палату по вторникам. [1]");
    expect(shown).toContain("[1] https://example.org/palata-6/hobotov");
    expect(shown).toContain(`- supports ← atom ${b.atom_id} · text · candidate — Khobotov is the district doctor.`);
    expect(shown).not.toContain("null");
    expect(shown).not.toContain('":');
    const concise = r.structuredContent as Out;
    expect(concise.links_in[0]).not.toHaveProperty("confidence");
    expect(concise.links_in[0]).not.toHaveProperty("created_at");
  });

  test("times and supersession: shown only when present, in text and structured content", async () => {
    const old = await ok("memory_store", {
      type: "fact",
      claim: "Mila works at Northwind.",
      observed_at: "2024-01-15",
    });
    const plain = await call("memory_get", { atom_id: old.atom_id });
    expect(text(plain)).toContain("Said 2024-01-15.");
    expect(text(plain)).not.toContain("Superseded");
    expect(plain.structuredContent).toMatchObject({ observed_at: "2024-01-15T00:00:00.000Z" });
    expect(plain.structuredContent).not.toHaveProperty("event");
    const now = await ok("memory_store", {
      type: "fact",
      claim: "Since March 2025 Mila works at Contoso.",
      observed_at: "2025-04-02T13:56:00Z",
    });
    expect(now.supersedes.map((x: Out) => x.atom_id)).toEqual([old.atom_id]);
    const newer = await call("memory_get", { atom_id: now.atom_id });
    expect(text(newer)).toContain("Said 2025-04-02 13:56Z · happened 2025-03 (month).");
    expect(text(newer)).toContain(`Supersedes atom ${old.atom_id}.`);
    expect(newer.structuredContent).toMatchObject({
      event: { start: "2025-03-01T00:00:00.000Z", end: "2025-04-01T00:00:00.000Z", granularity: "month" },
      supersedes: [old.atom_id],
    });
    const older = await call("memory_get", { atom_id: old.atom_id });
    expect(text(older)).toContain(`Superseded by atom ${now.atom_id}.`);
    expect(older.structuredContent).toMatchObject({ superseded_by: [now.atom_id] });
    const undated = await ok("memory_store", { type: "text", claim: "Northwind sells tea." });
    const bare = await call("memory_get", { atom_id: undated.atom_id });
    expect(text(bare)).not.toMatch(/Said|happened|Supersede/);
    for (const k of ["observed_at", "event", "superseded_by", "supersedes"])
      expect(bare.structuredContent).not.toHaveProperty(k);
  });

  test("limits: max_links caps each list and the totals still count all", async () => {
    const hub = await ok("memory_store", { type: "text", claim: "Палата номер шесть стоит во дворе больницы." });
    for (let i = 0; i < 4; i++) {
      await ok("memory_store", {
        type: "text",
        claim: `Во флигеле живёт пациент номер ${i + 1}, и у него своя история.`,
        links: [{ atom_id: hub.atom_id, kind: "related" }],
      });
    }
    const got = await ok("memory_get", { atom_id: hub.atom_id, max_links: 2 });
    expect(got.links_in).toHaveLength(2);
    expect(text(await call("memory_get", { atom_id: hub.atom_id, max_links: 2 }))).toContain(
      "(2 of 4 from 0: call memory_get with links_offset 2 for more)",
    );
    expect(got.links_in_total).toBe(4);
    expect(got.links_in[0].link_id).toBeGreaterThan(got.links_in[1].link_id); // newest first
    // links_offset pages on: the two pages together are the four links, newest first, and the totals stay whole.
    const next = await ok("memory_get", { atom_id: hub.atom_id, max_links: 2, links_offset: 2 });
    expect(next.links_in_total).toBe(4);
    const ids = [...got.links_in, ...next.links_in].map((l: { link_id: number }) => l.link_id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    expect(new Set(ids).size).toBe(4);
    const past = await ok("memory_get", { atom_id: hub.atom_id, max_links: 2, links_offset: 10 });
    expect(past.links_in).toEqual([]);
    expect(past.links_in_total).toBe(4);
  });

  test("an unknown atom is NOT_FOUND with what to do; a bad max_links is refused", async () => {
    const missing = await call("memory_get", { atom_id: 987654 });
    expect(missing.isError).toBe(true);
    expect(text(missing)).toStartWith("NOT_FOUND: no atom '987654'");
    expect(text(missing)).toContain("memory_search");
    const bad = await call("memory_get", { atom_id: 1, max_links: 0 });
    expect(bad.isError).toBe(true);
  });
});
