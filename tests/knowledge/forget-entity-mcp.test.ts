/**
 * memory_forget of an entity over MCP (issue 22; embedded database, and PostgreSQL when a server answers): every atom that mentions the entity is
 * retracted with a recorded reason, a document all of whose atoms mention it goes with it, a document that also says
 * other things stays with its other atoms, atoms that do not name it stay; undo restores exactly that. An ambiguous
 * name retracts nothing and lists the candidates; an unknown name and two targets are clear errors.
 */
import { describe, expect, test } from "bun:test";
import { sqlOf } from "../code/support.ts";
import { suiteMcpClient, toolCalls, type ToolOut } from "../support/mcp-client.ts";
import { pgSkipReason } from "../support/pg.ts";
import { suiteServices } from "../support/services.ts";

const pgSkip = await pgSkipReason();

for (const backend of ["pglite", "postgres"] as const) {
  describe.skipIf(backend === "postgres" && pgSkip !== null)(`memory_forget of an entity (${backend})`, () => {
    const t = suiteServices(backend, { chunk_chars: 100 }); // a paragraph per chunk
    const mcp = suiteMcpClient(t);
    const { call, ok, text } = toolCalls(mcp, 60_000);

    const statuses = async (ids: number[]) =>
      Object.fromEntries(
        (await sqlOf(t.services)`SELECT id, status FROM pm_atom WHERE id = ANY(${ids}::bigint[])`).map((r) => [
          Number(r.id),
          String(r.status),
        ]),
      );
    const docStatus = async (id: number) =>
      String((await sqlOf(t.services)`SELECT status FROM pm_document WHERE id = ${id}`)[0].status);
    const docAtoms = async (id: number) =>
      (await sqlOf(t.services)`SELECT id FROM pm_atom WHERE doc_id = ${id} ORDER BY id`).map((r) => Number(r.id));

    test("its atoms and the documents wholly about it go; a mixed document keeps its other atoms; undo restores", async () => {
      const whole = await ok("memory_ingest", {
        title: "О Королёве",
        text: "Сергей Королёв руководил созданием первой межконтинентальной ракеты Р-7 в 1957 году.",
      });
      const mixed = await ok("memory_ingest", {
        title: "Смешанные заметки",
        text:
          "Сергей Королёв родился в Житомире в 1907 году и учился в Одессе в строительной профессиональной школе.\n\n" +
          "Кофейное дерево цветёт белыми цветами три дня в году, а плоды созревают через восемь месяцев после цветения.",
      });
      const stored = await ok("memory_store", {
        type: "fact",
        claim: "Сергей Королёв учился в Киевском политехническом институте.",
      });
      const other = await ok("memory_store", { type: "fact", claim: "Чай выращивают на склонах гор в Китае." });
      const wholeAtoms = await docAtoms(whole.doc_id);
      const mixedAtoms = await docAtoms(mixed.doc_id);
      const korolev = await sqlOf(
        t.services,
      )`SELECT id FROM pm_atom WHERE doc_id = ${mixed.doc_id} AND content LIKE '%Королёв%'`;
      const mixedAbout = korolev.map((r) => Number(r.id));
      const mixedOther = mixedAtoms.filter((id) => !mixedAbout.includes(id));
      expect(mixedAbout.length).toBeGreaterThan(0);
      expect(mixedOther.length).toBeGreaterThan(0); // a paragraph per chunk: the coffee atoms never name him

      const profile = (await ok("memory_get", { entity: "Сергей Королёв" })).entity as ToolOut;
      const r = await call("memory_forget", { entity: "Сергея Королёва", reason: "privacy request" });
      expect(r.isError).toBeFalsy();
      const out = r.structuredContent as ToolOut;
      expect(out.entity).toMatchObject({ entity_id: profile.entity_id, name: "Сергей Королев" });
      expect(out.documents).toEqual([whole.doc_id]);
      expect(text(r)).toContain(`Documents retracted (all their atoms name it): ${whole.doc_id}.`);
      const after = await statuses([...wholeAtoms, ...mixedAtoms, stored.atom_id, other.atom_id]);
      for (const id of [...wholeAtoms, ...mixedAbout, stored.atom_id]) expect(after[id]).toBe("retracted");
      for (const id of [...mixedOther, other.atom_id]) expect(after[id]).toBe("candidate");
      expect(out.changed).toBe(wholeAtoms.length + mixedAbout.length + 1);
      expect(await docStatus(whole.doc_id)).toBe("retracted");
      expect(await docStatus(mixed.doc_id)).toBe("active");
      const tomb = await ok("memory_get", { atom_id: stored.atom_id });
      expect(tomb.status_history[0]).toMatchObject({ actor: "forget", reason: "privacy request" });
      const hits = (await ok("memory_search", { query: "Сергей Королёв", k: 20 })).hits as ToolOut[];
      expect(hits.map((h) => h.atom_id)).not.toContain(stored.atom_id);

      const undo = await ok("memory_forget", {
        entity: `entity:${profile.entity_id}`,
        reason: "withdrawn",
        undo: true,
      });
      expect(undo).toMatchObject({ undo: true, changed: out.changed, documents: [whole.doc_id] });
      const back = await statuses([...wholeAtoms, ...mixedAtoms, stored.atom_id]);
      expect(Object.values(back).every((s) => s === "candidate")).toBe(true);
      expect(await docStatus(whole.doc_id)).toBe("active");
    }, 60_000);

    test("an ambiguous name retracts nothing and lists the candidates; bad targets are errors", async () => {
      const a = await ok("memory_store", { type: "fact", claim: "Иван Петров изобрёл паровой двигатель в 1890 году." });
      const b = await ok("memory_store", { type: "fact", claim: "Михаил Ломоносов основал университет в 1755 году." });
      const tesla = ((await ok("memory_get", { entity: "Иван Петров" })).entity as ToolOut).entity_id;
      const musk = ((await ok("memory_get", { entity: "Михаил Ломоносов" })).entity as ToolOut).entity_id;
      await t.services.entities.addAlias(tesla, "Изобретатель", "изобретатель");
      await t.services.entities.addAlias(musk, "Изобретатель", "изобретатель");
      const r = await call("memory_forget", { entity: "Изобретатель", reason: "x" });
      expect(text(r)).toStartWith("Nothing retracted: 2 entities answer to this name");
      const out = r.structuredContent as ToolOut;
      expect(out.changed).toBe(0);
      expect((out.candidates as ToolOut[]).map((c) => c.entity_id).sort()).toEqual([tesla, musk].sort());
      expect(Object.values(await statuses([a.atom_id, b.atom_id]))).toEqual(["candidate", "candidate"]);

      const none = await call("memory_forget", { entity: "Воланд", reason: "x" });
      expect(text(none)).toStartWith("NOT_FOUND");
      const unknownId = await call("memory_forget", { entity: "entity:987654", reason: "x" });
      expect(text(unknownId)).toStartWith("NOT_FOUND");
      const two = await call("memory_forget", { entity: "Иван Петров", atom_id: a.atom_id, reason: "x" });
      expect(text(two)).toStartWith("INVALID_INPUT");
      expect((await statuses([a.atom_id]))[a.atom_id]).toBe("candidate");
    }, 60_000);
  });
}
