/**
 * Quantitative facts through the MCP tools (issue 24 acceptance), on PGlite and on PostgreSQL: "Cold start takes
 * 1.2 s" and "cold start: 1200 ms" from two sites corroborate (linked `related`, and memory_verify finds the second
 * site), "cold start takes 2 s" contradicts both, "Cold start on the ARM board takes 2 s" contradicts nothing
 * (other conditions); `cold start < 1.5 s` finds the first two only; the same in Russian; and the measurements are
 * stored beside their atoms.
 */
import { describe, expect, test } from "bun:test";
import { suiteMcpClient, toolCalls, type ToolOut } from "../support/mcp-client.ts";
import { pgUnavailable } from "../support/pg.ts";
import { suiteServices } from "../support/services.ts";

const pgSkip = await pgUnavailable();
if (pgSkip) console.log(`skipping the PostgreSQL quantities suite: ${pgSkip}`);

function scenario(backend: "pglite" | "postgres", skip: string | null): void {
  describe.skipIf(Boolean(skip))(`quantities over MCP (${backend})`, () => {
    const t = suiteServices(backend, {}, { skip });
    const mcp = suiteMcpClient(t);
    const { ok } = toolCalls(mcp);
    const ids = (out: ToolOut) => (out.hits as ToolOut[]).map((h) => h.atom_id as number).sort((a, b) => a - b);
    const contradicted = (out: ToolOut) => (out.contradicts as ToolOut[]).map((c) => c.atom_id as number).sort();
    const s: Record<string, number> = {};
    const store = async (claim: string, site: string) =>
      ok("memory_store", { type: "fact", claim, source_uri: `https://${site}/notes` });

    test("1.2 s and 1200 ms from two sites corroborate; 2 s contradicts; on the ARM board does not", async () => {
      s.a = (await store("Cold start takes 1.2 s", "alpha.example.org")).atom_id;
      const b = await store("cold start: 1200 ms", "beta.example.net");
      s.b = b.atom_id;
      expect(b.created).toBe(true);
      expect(b.contradicts).toEqual([]);
      const got = await ok("memory_get", { atom_id: s.b, response_format: "detailed" });
      expect(got.links_out).toContainEqual(expect.objectContaining({ atom_id: s.a, kind: "related" }));
      const c = await store("cold start takes 2 s", "gamma.example.com");
      s.c = c.atom_id;
      expect(contradicted(c)).toEqual([s.a, s.b].sort());
      expect((c.contradicts as ToolOut[])[0].reason).toMatch(/beyond the stated precision|number differs/);
      const arm = await store("Cold start on the ARM board takes 2 s", "delta.example.com");
      s.arm = arm.atom_id;
      expect(arm.contradicts).toEqual([]);
    });

    test("memory_verify counts the other site's 1200 ms as corroboration", async () => {
      const v = await ok("memory_verify", { atom_id: s.a, response_format: "detailed" });
      // 1200 ms (another site) corroborates and raises its confidence; 2 s contradicts; the ARM board is new.
      expect(v.verdicts).toEqual({ new: 1, duplicate: 0, corroborates: 1, contradicts: 1 });
      expect(v.confidence_raised).toBe(1);
      const a = await ok("memory_get", { atom_id: s.a });
      expect(a.status).toBe("contested"); // 2 s contradicts it; corroboration does not hide that
    });

    test("a filtered search `cold start < 1.5 s` finds the first two, not the 2 s ones", async () => {
      expect(ids(await ok("memory_search", { query: "cold start < 1.5 s" }))).toEqual([s.a, s.b].sort((x, y) => x - y));
      expect(ids(await ok("memory_search", { query: "cold start under 1300 ms" }))).toEqual(
        [s.a, s.b].sort((x, y) => x - y),
      );
      const slow = ids(await ok("memory_search", { query: "cold start >= 2 s" }));
      expect(slow).toEqual([s.c, s.arm].sort((x, y) => x - y));
      expect(ids(await ok("memory_search", { query: "cold start between 1 and 1.1 s" }))).toEqual([]);
      expect(ids(await ok("memory_search", { query: "cold start < 1.5 MB" }))).toEqual([]);
    });

    test("Russian: «время запуска меньше 1,5 с», ranges «от … до …», and the reader's conditions", async () => {
      const r1 = (await store("Время запуска составляет 1,2 с", "ru-one.example.ru")).atom_id;
      const r2 = await store("время запуска: 1200 мс", "ru-two.example.ru");
      expect(r2.contradicts).toEqual([]);
      const r3 = await store("Время запуска составляет 3 с", "ru-three.example.ru");
      expect(contradicted(r3)).toEqual([r1, r2.atom_id].sort());
      const fast = ids(await ok("memory_search", { query: "время запуска меньше 1,5 с" }));
      expect(fast).toEqual([r1, r2.atom_id].sort((x, y) => x - y));
      expect(ids(await ok("memory_search", { query: "время запуска от 2 до 4 с" }))).toEqual([r3.atom_id]);
    });

    test("the measurements are stored beside their atoms, in the canonical unit", async () => {
      const rows = await t.services.quantities.quantitiesOfAtoms([s.a, s.b, s.arm]);
      const of = (id: number) => rows.find((r) => r.atomId === id)!;
      expect(of(s.a)).toMatchObject({ low: 1.2, high: 1.2, canonicalUnit: "s", unit: "s", dimension: "time" });
      expect(of(s.b)).toMatchObject({ canonicalUnit: "s", unit: "ms", quote: "1200 ms" });
      expect(of(s.b).low).toBeCloseTo(1.2, 9);
      expect(of(s.a).subject.toLowerCase()).toBe("cold start");
      expect(of(s.arm).conditions.join(" ")).toContain("ARM board");
      expect(of(s.a).plusMinus).toBeCloseTo(0.05, 9);
    });

    test("memory_get shows an atom's measurements: one text line and compact structured entries", async () => {
      const { call, text } = toolCalls(mcp);
      const a = await call("memory_get", { atom_id: s.a });
      expect(text(a)).toContain("Quantities: 1.2 s (Cold start).");
      expect((a.structuredContent as ToolOut).quantities).toEqual([
        { value: 1.2, unit: "s", quote: "1.2 s", subject: "Cold start" },
      ]);
      const b = await call("memory_get", { atom_id: s.b, response_format: "detailed" });
      expect(text(b)).toContain("Quantities: 1.2 s = «1200 ms» (cold start).");
      expect((b.structuredContent as ToolOut).quantities).toEqual([
        { value: expect.closeTo(1.2, 9), unit: "s", quote: "1200 ms", subject: "cold start" },
      ]);
      const arm = await ok("memory_get", { atom_id: s.arm });
      expect(arm.quantities).toEqual([
        { value: 2, unit: "s", quote: "2 s", subject: "Cold start", conditions: ["on the ARM board"] },
      ]);
      const ru = await store("Холодный старт занимает от 1 до 2 секунд.", "ru-range.example.ru");
      expect(text(await call("memory_get", { atom_id: ru.atom_id }))).toContain(
        "Quantities: 1–2 s = «1 до 2 секунд» (Холодный старт).",
      );
      const about = await store("Холодный старт занимает около 2 секунд на ARM.", "ru-about.example.ru");
      const got = await call("memory_get", { atom_id: about.atom_id });
      expect(text(got)).toContain("Quantities: ≈2 s = «2 секунд» (Холодный старт, на ARM).");
      expect((got.structuredContent as ToolOut).quantities).toEqual([
        {
          value: 2,
          unit: "s",
          quote: "2 секунд",
          subject: "Холодный старт",
          conditions: ["на ARM"],
          approximate: true,
        },
      ]);
      const none = await store("The annex has no roof.", "plain.example.org");
      const plain = await call("memory_get", { atom_id: none.atom_id });
      expect(text(plain)).not.toContain("Quantities");
      expect(plain.structuredContent as ToolOut).not.toHaveProperty("quantities");
    });
  });
}

scenario("pglite", null);
scenario("postgres", pgSkip);
