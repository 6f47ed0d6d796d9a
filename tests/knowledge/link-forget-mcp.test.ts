/**
 * memory_link and memory_forget through the MCP registry (SDK client, in-memory transport, embedded database):
 * links stored once with the agent's confidence, bad endpoints and kinds refused; a forgotten atom disappears from
 * search and the graph, keeps its tombstone with who/why/when in memory_get, has its links queued for withdrawal,
 * and comes back on undo; a whole ingested document is forgotten and restored with its atoms.
 */
import { describe, expect, test } from "bun:test";
import { sqlOf } from "../code/support.ts";
import { suiteMcpClient, toolCalls, type ToolOut } from "../support/mcp-client.ts";
import { suiteServices } from "../support/services.ts";

const t = suiteServices("pglite");
const mcp = suiteMcpClient(t);

type Out = ToolOut;
const { call, ok, text } = toolCalls(mcp);
const searchIds = async (query: string) =>
  (await ok("memory_search", { query, k: 20 })).hits.map((h: Out) => h.atom_id);

describe("memory_link over MCP", () => {
  test("an atom → atom link is stored once; the agent's confidence is updated; bad input is refused", async () => {
    const a = await ok("memory_store", { type: "fact", claim: "Кислород поддерживает горение." });
    const b = await ok("memory_store", { type: "fact", claim: "Свеча гаснет под стеклянным колпаком." });
    const first = await ok("memory_link", { src: b.atom_id, dst: `atom:${a.atom_id}`, kind: "cause" });
    expect(first).toMatchObject({
      table: "pm_atom_link",
      created: true,
      source: "agent",
      confidence: expect.closeTo(0.8, 5),
      src: `atom:${b.atom_id}`,
      dst: `atom:${a.atom_id}`,
      kind: "cause",
    });
    const again = await ok("memory_link", {
      src: `atom:${b.atom_id}`,
      dst: a.atom_id,
      kind: "cause",
      confidence: 0.95,
    });
    expect(again).toMatchObject({ link_id: first.link_id, created: false, confidence: expect.closeTo(0.95, 5) });
    const got = await ok("memory_get", { atom_id: a.atom_id, response_format: "detailed" });
    expect(got.links_in).toEqual([expect.objectContaining({ atom_id: b.atom_id, kind: "cause", source: "agent" })]);
    const graph = await ok("memory_query_graph", { node: a.atom_id, direction: "in", response_format: "detailed" });
    expect(graph.edges.map((e: Out) => e.key)).toEqual([first.edge_key]);

    for (const [args, code] of [
      [{ src: a.atom_id, dst: b.atom_id, kind: "depends on" }, "INVALID_INPUT"],
      [{ src: a.atom_id, dst: a.atom_id, kind: "related" }, "INVALID_INPUT"],
      [{ src: a.atom_id, dst: 987654, kind: "related" }, "NOT_FOUND"],
      [{ src: "doc:1", dst: a.atom_id, kind: "related" }, "INVALID_INPUT"],
      [{ src: "symbol:1", dst: a.atom_id, kind: "describes" }, "INVALID_INPUT"],
    ] as const) {
      const r = await call("memory_link", args);
      expect(r.isError).toBe(true);
      expect(text(r)).toStartWith(code);
    }
  });
});

describe("memory_forget over MCP", () => {
  test("an atom: gone from search and the graph, a tombstone with its reason, links withdrawn, undo restores it", async () => {
    const a = await ok("memory_store", { type: "fact", claim: "Лунная база Тихо построена в 2031 году." });
    const b = await ok("memory_store", {
      type: "fact",
      claim: "Лунная база Тихо снабжается с орбитальной станции.",
      links: [{ atom_id: a.atom_id, kind: "related" }],
    });
    expect(await searchIds("лунная база Тихо")).toContain(a.atom_id);

    const forgotten = await ok("memory_forget", { atom_id: a.atom_id, reason: "the source was a hoax" });
    expect(forgotten).toMatchObject({ undo: false, changed: 1, unchanged: [], links: 1 });
    expect(forgotten.changes[0]).toMatchObject({
      atom_id: a.atom_id,
      from: "candidate",
      to: "retracted",
    });
    const told = await call("memory_forget", { atom_id: b.atom_id, reason: "checking the text", undo: true });
    expect(text(told)).toStartWith("Restored 0 atom(s)");
    expect(text(told)).toContain(`Unchanged: atoms ${b.atom_id}.`);
    expect(await searchIds("лунная база Тихо")).not.toContain(a.atom_id);
    expect(await searchIds("лунная база Тихо")).toContain(b.atom_id);
    const tomb = await ok("memory_get", { atom_id: a.atom_id });
    expect(tomb.status).toBe("retracted");
    expect(tomb.status_history[0]).toMatchObject({ actor: "forget", reason: "the source was a hoax", to: "retracted" });
    const gone = await call("memory_query_graph", { node: a.atom_id });
    expect(text(gone)).toStartWith("NOT_FOUND");
    const left = (await ok("memory_query_graph", { node: b.atom_id })).edges as Array<{ kind: string }>;
    expect(left.filter((e) => e.kind !== "mentions")).toEqual([]); // the entities it mentions stay (issue 22)
    // The atom and its link went to the outbox, so the projections withdraw them.
    const queued = await sqlOf(t.services)`
      SELECT entity_type, entity_id FROM pm_outbox WHERE (entity_type = 'atom' AND entity_id = ${String(a.atom_id)})
          OR (entity_type = 'atom_link' AND entity_id IN (SELECT id::text FROM pm_atom_link WHERE dst_atom_id = ${a.atom_id}))`;
    expect(new Set(queued.map((r) => r.entity_type))).toEqual(new Set(["atom", "atom_link"]));

    const twice = await ok("memory_forget", { atom_id: a.atom_id, reason: "again" });
    expect(twice).toMatchObject({ changed: 0, unchanged: [a.atom_id] });
    const linkToRetracted = await call("memory_link", { src: b.atom_id, dst: a.atom_id, kind: "cause" });
    expect(text(linkToRetracted)).toStartWith("INVALID_INPUT");

    const undone = await ok("memory_forget", { atom_id: a.atom_id, reason: "it was real after all", undo: true });
    expect(undone.changes[0]).toMatchObject({ from: "retracted", to: "candidate" });
    expect(await searchIds("лунная база Тихо")).toContain(a.atom_id);
    const back = (await ok("memory_query_graph", { node: b.atom_id })).edges as Array<{ kind: string }>;
    expect(back.filter((e) => e.kind !== "mentions")).toHaveLength(1);
    const history = (await ok("memory_get", { atom_id: a.atom_id })).status_history;
    expect(history.map((h: Out) => h.actor)).toEqual(["forget-undo", "forget"]);
    expect(history[1].reverted_at).not.toBeNull();
    const undoAgain = await ok("memory_forget", { atom_id: a.atom_id, reason: "x", undo: true });
    expect(undoAgain).toMatchObject({ changed: 0, unchanged: [a.atom_id] });
  });

  test("a whole document and its atoms, then undo", async () => {
    const ingested = await ok("memory_ingest", {
      title: "Заметки о меркурии",
      text: "Меркурий — ближайшая к Солнцу планета.\n\nГод на Меркурии длится 88 земных суток.\n\nУ Меркурия нет спутников.",
    });
    const docId = ingested.doc_id;
    const before = await searchIds("Меркурий планета спутников суток");
    expect(before.length).toBeGreaterThan(0);
    const r = await ok("memory_forget", { doc_id: docId, reason: "duplicate notes" });
    expect(r.document_atoms).toBeGreaterThan(0);
    expect(r.changed).toBe(r.document_atoms);
    expect(await searchIds("Меркурий планета спутников суток")).toEqual([]);
    const [doc] = await sqlOf(t.services)`SELECT status FROM pm_document WHERE id = ${docId}`;
    expect(doc.status).toBe("retracted");
    const back = await ok("memory_forget", { doc_id: docId, reason: "needed after all", undo: true });
    expect(back.changed).toBe(r.changed);
    expect((await searchIds("Меркурий планета спутников суток")).sort()).toEqual([...before].sort());
  });

  test("truth maintenance: forgetting a premise atom retracts what was inferred through it; undo derives it again", async () => {
    const ids: number[] = [];
    for (const claim of [
      "Модуль A использует модуль B.",
      "Модуль B использует модуль C.",
      "Модуль C читает конфигурацию.",
    ]) {
      ids.push((await ok("memory_store", { type: "fact", claim })).atom_id);
    }
    await ok("memory_link", { src: ids[0], dst: ids[1], kind: "depends_on" });
    await ok("memory_link", { src: ids[1], dst: ids[2], kind: "depends_on" });
    const rule = await ok("memory_store", {
      type: "logical_rule",
      claim: "Зависимость транзитивна (проверка забывания)",
      content: '{"if": ["depends_on", "depends_on"], "then": "depends_on"}',
    });
    await ok("memory_infer", { rule_ids: [rule.atom_id] });
    const inferred = async () =>
      (await ok("memory_get", { atom_id: ids[0] })).links_out.filter((l: Out) => l.inferred).map((l: Out) => l.atom_id);
    expect(await inferred()).toEqual([ids[2]]);

    await ok("memory_forget", { atom_id: ids[1], reason: "module B was removed" });
    expect(await inferred()).toEqual([]);
    await ok("memory_forget", { atom_id: ids[1], reason: "module B is back", undo: true });
    expect(await inferred()).toEqual([ids[2]]);

    // The agent asserting the inferred edge makes it its own: forgetting the premise no longer retracts it.
    const asserted = await ok("memory_link", { src: ids[0], dst: ids[2], kind: "depends_on", confidence: 0.9 });
    expect(asserted).toMatchObject({ created: false, source: "agent" });
    await ok("memory_forget", { atom_id: ids[1], reason: "module B was removed again" });
    const out = (await ok("memory_get", { atom_id: ids[0], response_format: "detailed" })).links_out.filter(
      (l: Out) => l.status !== "retracted",
    );
    expect(out).toEqual([
      expect.objectContaining({ atom_id: ids[2], kind: "depends_on", inferred: false, source: "agent" }),
    ]);
  });

  test("a research gap answered by a forgotten atom is open again", async () => {
    const fact = await ok("memory_store", { type: "fact", claim: "Кратер Тихо имеет диаметр 85 километров." });
    const gap = (await ok("memory_add_gap", { question: "Какой диаметр у кратера Тихо?" })).gap;
    const sql = sqlOf(t.services);
    await sql`UPDATE pm_atom SET status = 'verified' WHERE id = ${fact.atom_id}`;
    await sql`UPDATE pm_research_gap SET status = 'answered', metadata = jsonb_set(metadata, '{answer}', ${sql.json({ atom_ids: [fact.atom_id], decided_by: "test" })}) WHERE id = ${gap.id}`;
    const r = await ok("memory_forget", { atom_id: fact.atom_id, reason: "the diameter was misread" });
    expect(r.gaps_reopened).toEqual([gap.id]);
    const open = (await ok("memory_list_gaps", { status: "open" })).gaps.map((g: Out) => g.id);
    expect(open).toContain(gap.id);
  });

  test("bad requests: no target, two targets, no reason, unknown ids", async () => {
    for (const [args, code] of [
      [{ reason: "x" }, "INVALID_INPUT"],
      [{ atom_id: 1, doc_id: 1, reason: "x" }, "INVALID_INPUT"],
      [{ atom_id: 1, reason: "   " }, "INVALID_INPUT"],
      [{ atom_id: 987654, reason: "x" }, "NOT_FOUND"],
      [{ doc_id: 987654, reason: "x" }, "NOT_FOUND"],
    ] as const) {
      const res = await call("memory_forget", args);
      expect(res.isError).toBe(true);
      expect(text(res)).toStartWith(code);
    }
  });
});
