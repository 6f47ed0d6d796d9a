/**
 * Entities for the agent over MCP (issue 22, item 2), on a store holding Chekhov's «Палата № 6» (embedded database):
 * «Кто такой Андрей Ефимыч?» brings the passage introducing him as the hospital's doctor first; memory_get of an
 * entity (by name in any case, or entity:<id>) gives a cited profile within its token budget, an ambiguous name its
 * candidates, an unknown one a clear error; memory_query_graph walks from an entity to the atoms naming it.
 */
import { describe, expect, test } from "bun:test";
import { countTokens } from "gpt-tokenizer/encoding/o200k_base";
import { suiteMcpClient, toolCalls, type ToolOut } from "../support/mcp-client.ts";
import { fixture, suiteServices } from "../support/services.ts";

const t = suiteServices("pglite", { ingest_roots: [fixture("")] });
const mcp = suiteMcpClient(t);
const { call, ok, text } = toolCalls(mcp, 120_000);
const INTRO = "Доктор Андрей Ефимыч Рагин – замечательный человек в своем роде.";

describe("who is X, over MCP", () => {
  test("search and context lead with the introducing passage; the profile cites it first", async () => {
    await ok("memory_ingest", { path: fixture("text/ru_chekhov_palata_no6.txt") });
    const s = await call("memory_search", { query: "Кто такой Андрей Ефимыч?", k: 5 });
    const [first] = (s.structuredContent as ToolOut).hits as ToolOut[];
    const atom = await ok("memory_get", { atom_id: first.atom_id });
    expect(atom.content).toContain(INTRO);
    const c = await call("memory_get_context", { question: "Кто такой Андрей Ефимыч?", budget_tokens: 800 });
    expect(text(c).split("\n")[0]).toContain(`(atom ${first.atom_id})`);

    const r = await call("memory_get", { entity: "Андрея Ефимыча" });
    expect(r.isError).toBeFalsy();
    const body = text(r);
    expect(body).toStartWith("entity:");
    expect(body).toContain("person · Андрей Ефимыч");
    const statements = body.split("\n").filter((l) => l.startsWith("- atom "));
    expect(statements[0]).toContain(INTRO);
    expect(statements[0]).toMatch(/\[1\]$/u);
    expect(body).toContain("[1] Антон Павлович Чехов. Палата No 6 — line 56");
    expect(body).toMatch(/- entity:\d+ · person · Иван Дмитрич/u);
    expect(countTokens(body)).toBeLessThanOrEqual(1200);
    const profile = (r.structuredContent as ToolOut).entity as ToolOut;
    expect(new Set(profile.statements.map((st: ToolOut) => st.sentence)).size).toBe(profile.statements.length);

    const byId = await ok("memory_get", { entity: `entity:${profile.entity_id}` });
    expect((byId.entity as ToolOut).statements[0].atom_id).toBe(profile.statements[0].atom_id);
    const small = await call("memory_get", { entity: "Андрей Ефимыч", max_tokens: 300 });
    expect(countTokens(text(small))).toBeLessThanOrEqual(300);
    expect(text(small)).toContain("more statement(s)");
    // the hint names only arguments memory_get takes: following it must not be refused as an unknown argument
    expect(text(small)).toContain("raise max_tokens");
    expect(text(small)).not.toContain("`statements`");
  }, 120_000);

  test("a name two entities answer to lists both; unknown names and two targets are clear errors", async () => {
    const named = await ok("memory_get", { entity: "Хоботов" });
    await t.services.entities.addAlias((named.entity as ToolOut).entity_id, "Никита", "никита");
    const r = await call("memory_get", { entity: "Никита" });
    expect(text(r)).toStartWith("2 entities answer to this name");
    expect(((r.structuredContent as ToolOut).candidates as ToolOut[]).map((c) => c.name).sort()).toEqual([
      "Евгений Федорыч Хоботов", // «Хоботов» resolved on write to the full name the text gives
      "Никита",
    ]);
    const none = await call("memory_get", { entity: "Воланд" });
    expect(none.isError).toBe(true);
    expect(text(none)).toContain("NOT_FOUND");
    const both = await call("memory_get", { atom_id: 1, entity: "Никита" });
    expect(both.isError).toBe(true);
    expect(text(both)).toContain("either atom_id or entity");
  });

  test("memory_query_graph walks from an entity to the atoms naming it, and on to the entities beside it", async () => {
    const e = (await ok("memory_get", { entity: "Михаил Аверьяныч" })).entity as ToolOut;
    const r = await call("memory_query_graph", { node: `entity:${e.entity_id}`, depth: 2, limit: 60 });
    expect(r.isError).toBeFalsy();
    const g = r.structuredContent as ToolOut;
    expect(g.nodes.some((n: ToolOut) => n.label === "Atom")).toBe(true);
    expect(g.edges.some((x: ToolOut) => x.kind === "mentions")).toBe(true);
    expect(text(r)).toMatch(/entity:\d+ · person · Андрей Ефимыч/u);
  });
});
