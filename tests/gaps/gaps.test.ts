/**
 * Research gaps on both backends: a reworded question raises the open gap's priority instead of adding one (English
 * and Russian); another number, date or subject is another gap; bad input is refused with nothing written; the list
 * is ordered by priority, then age; repeated search misses are logged, suggested and counted.
 */
import { describe, expect, test } from "bun:test";
import { addGap, listGaps } from "../../src/core/gaps/gaps.ts";
import { settleSearchMisses } from "../../src/core/gaps/miss.ts";
import { ingest } from "../../src/core/documents/ingest.ts";
import { search } from "../../src/core/search/search.ts";
import { stats } from "../../src/core/projections/stats.ts";
import { rejectsWith } from "../support/errors.ts";
import { pgSkipReason } from "../support/pg.ts";
import { suiteServices } from "../support/services.ts";
import { sqlOf } from "../core/verify-support.ts";

for (const backend of ["pglite", "postgres"] as const) {
  const skip = backend === "postgres" ? await pgSkipReason() : null;
  describe.skipIf(skip !== null)(`research gaps on ${backend}`, () => {
    const t = suiteServices(backend, {}, { skip });

    test("a reworded question raises the open gap's priority and records the repeat (English)", async () => {
      const s = t.services;
      const first = await addGap(s, {
        question: "What is the boiling point of water at sea level?",
        reason: "needed for the kettle note",
      });
      expect(first).toMatchObject({ created: true, duplicate_of: null, gap: { priority: 3, status: "open" } });
      const again = await addGap(s, { question: "At sea level, what is the boiling point of water?" });
      expect(again.created).toBe(false);
      expect(again.duplicate_of).toBe(first.gap.id);
      expect(again.previous_priority).toBe(3);
      expect(again.gap.priority).toBe(4);
      expect(again.decided_by).toContain("key terms");
      expect(again.gap.metadata.repeat_count).toBe(1);
      expect((again.gap.metadata.repeats as Array<{ question: string }>)[0].question).toBe(
        "At sea level, what is the boiling point of water?",
      );
      // A higher given priority wins over the +1 raise; the cap is 5.
      expect(
        (await addGap(s, { question: "what is the boiling point of water at sea level", priority: 5 })).gap.priority,
      ).toBe(5);
      expect((await addGap(s, { question: "What is the boiling-point of water at sea level?" })).gap.priority).toBe(5);
      // Another subject, another number, another year: new gaps.
      expect((await addGap(s, { question: "What is the freezing point of water at sea level?" })).created).toBe(true);
      expect((await addGap(s, { question: "What was the population of Kazan in 1990?" })).created).toBe(true);
      expect((await addGap(s, { question: "What was the population of Kazan in 2010?" })).created).toBe(true);
      // A word that only names the kind of answer ("year") is no key term.
      const when = await addGap(s, { question: "When was the Shukhov tower completed?" });
      expect((await addGap(s, { question: "In which year was the Shukhov tower completed?" })).duplicate_of).toBe(
        when.gap.id,
      );
    });

    test("a reworded question raises the open gap's priority (Russian)", async () => {
      const s = t.services;
      const first = await addGap(s, { question: "Какова температура кипения воды на уровне моря?", priority: 2 });
      expect(first.created).toBe(true);
      const again = await addGap(s, { question: "При какой температуре кипит вода на уровне моря?" });
      expect(again).toMatchObject({ created: false, duplicate_of: first.gap.id, previous_priority: 2 });
      expect(again.gap.priority).toBe(3);
      const yo = await addGap(s, { question: "какова температура кипения воды на уровне моря" });
      expect(yo.duplicate_of).toBe(first.gap.id);
      expect((await addGap(s, { question: "Какова температура замерзания воды на уровне моря?" })).created).toBe(true);
      expect((await addGap(s, { question: "Сколько жителей было в Казани в 1990 году?" })).created).toBe(true);
      expect((await addGap(s, { question: "Сколько жителей было в Казани в 2010 году?" })).created).toBe(true);
      const when = await addGap(s, { question: "Когда была построена Шуховская башня?" });
      expect((await addGap(s, { question: "В каком году была построена Шуховская башня?" })).duplicate_of).toBe(
        when.gap.id,
      );
    });

    test("two concurrent adds of one question give one gap", async () => {
      const q = { question: "Which metro line opened first in Kazan?" };
      const [x, y] = await Promise.all([addGap(t.services, q), addGap(t.services, q)]);
      expect([x.created, y.created].sort()).toEqual([false, true]);
      expect(x.gap.id).toBe(y.gap.id);
    });

    test("bad input is refused and nothing is written", async () => {
      const s = t.services;
      const before = (await listGaps(s, { status: "all", limit: 200 })).total;
      await rejectsWith(addGap(s, { question: "   " }), "INVALID_INPUT");
      await rejectsWith(addGap(s, { question: "Why?", priority: 6 }), "INVALID_INPUT");
      await rejectsWith(addGap(s, { question: "Why?", priority: 0 }), "INVALID_INPUT");
      await rejectsWith(addGap(s, { question: "x".repeat(2001) }), "INVALID_INPUT");
      await rejectsWith(addGap(s, { question: 42 as unknown as string }), "INVALID_INPUT");
      await rejectsWith(listGaps(s, { status: "closed" as never }), "INVALID_INPUT");
      await rejectsWith(listGaps(s, { limit: 0 }), "INVALID_INPUT");
      expect((await listGaps(s, { status: "all", limit: 200 })).total).toBe(before);
    });

    test("gaps are listed most urgent first, then oldest first", async () => {
      const s = t.services;
      const low = await addGap(s, { question: "Which rivers flow into Lake Onega?", priority: 1 });
      const top = await addGap(s, { question: "Who designed the Shukhov radio tower?", priority: 5 });
      const { gaps, total } = await listGaps(s, {});
      expect(total).toBe(gaps.length);
      for (let i = 1; i < gaps.length; i++) {
        const [a, b] = [gaps[i - 1], gaps[i]];
        expect(a.priority > b.priority || (a.priority === b.priority && a.created_at <= b.created_at)).toBe(true);
      }
      expect(gaps.at(-1)!.id).toBe(low.gap.id);
      expect(gaps.findIndex((g) => g.id === top.gap.id)).toBeLessThan(gaps.findIndex((g) => g.priority < 5));
      expect((await listGaps(s, { limit: 2 })).gaps).toHaveLength(2);
      // Pages by offset: consecutive pages of one put together are the whole list, in order.
      const paged = [
        ...(await listGaps(s, { limit: 2 })).gaps,
        ...(await listGaps(s, { limit: 2, offset: 2 })).gaps,
        ...(await listGaps(s, { limit: 200, offset: 4 })).gaps,
      ];
      expect(paged.map((g) => g.id)).toEqual(gaps.map((g) => g.id));
      expect((await listGaps(s, { offset: total })).gaps).toEqual([]);
      await rejectsWith(listGaps(s, { offset: -1 }), "INVALID_INPUT");
      expect((await listGaps(s, { status: "answered" })).gaps).toEqual([]);
    });

    test("searches that miss are logged; a query missed twice is suggested and counted", async () => {
      const s = t.services;
      await ingest(s, { text: "The Shukhov tower in Moscow is a hyperboloid steel lattice structure built in 1922." });
      // Each miss is recorded in the background: settled one by one, so that "the latest wording" is well defined.
      for (const query of [
        "Shukhov tower hyperboloid", // found: no miss
        "quantum chromodynamics lattice gauge",
        "Quantum chromodynamics: lattice gauge?", // the same query up to normalization
        "квантовая хромодинамика на решётке",
        "квантовой хромодинамики на решетке", // Russian: case endings and ё/е aside
        "bioluminescent fungi", // once only: not suggested
      ]) {
        await search(s, { query });
        await settleSearchMisses();
      }
      const { suggested, suggested_total } = await listGaps(s, {});
      const queries = suggested.map((x) => x.query);
      expect(queries).toContain("Quantum chromodynamics: lattice gauge?");
      expect(queries).toContain("квантовой хромодинамики на решетке");
      expect(queries).not.toContain("bioluminescent fungi");
      expect(queries.some((q) => q.includes("Shukhov"))).toBe(false);
      expect(suggested.find((x) => x.query.startsWith("Quantum"))).toMatchObject({ misses: 2 });
      expect(suggested[0].best_score).toBeLessThan(0.5);
      const st = await stats(s);
      expect(st.suggested_gaps).toBe(suggested_total);
      expect(st.search_misses).toBeGreaterThanOrEqual(5);
      // A listing that does not want them (the admin page's answered list) gets none, and the same gaps.
      const bare = await listGaps(s, { suggestions: false });
      expect(bare.suggested).toEqual([]);
      expect(bare.suggested_total).toBe(0);
      expect(suggested_total).toBeGreaterThan(0);
      expect(bare.gaps).toEqual((await listGaps(s, {})).gaps);
      // Once a gap asks it, the repeated miss is no longer suggested.
      await addGap(s, { question: "quantum chromodynamics lattice gauge" });
      expect((await listGaps(s, {})).suggested.map((x) => x.query)).not.toContain(
        "Quantum chromodynamics: lattice gauge?",
      );
      // A rewording merged into that gap consumes its own misses too.
      await search(s, { query: "quantum chromodynamics lattice" });
      await search(s, { query: "quantum chromodynamics lattice" });
      await settleSearchMisses();
      expect((await listGaps(s, {})).suggested.map((x) => x.query)).toContain("quantum chromodynamics lattice");
      const merged = await addGap(s, { question: "quantum chromodynamics lattice" });
      expect(merged.created).toBe(false);
      expect((await listGaps(s, {})).suggested.map((x) => x.query)).not.toContain("quantum chromodynamics lattice");
      // A query found once knowledge came in is no longer suggested.
      await ingest(s, { text: "Bioluminescent fungi glow green in the dark forests of Brazil." });
      await search(s, { query: "bioluminescent fungi" });
      await search(s, { query: "bioluminescent fungi" });
      await settleSearchMisses();
      expect((await listGaps(s, {})).suggested.map((x) => x.query)).not.toContain("bioluminescent fungi");
    });

    test("the miss log keeps the newest 100,000 rows", async () => {
      const s = t.services;
      const sql = sqlOf(s);
      const [{ n }] = await sql`SELECT count(*) AS n FROM pm_search_miss`;
      expect(Number(n)).toBeGreaterThan(0);
      await sql`SELECT setval('pm_search_miss_id_seq', 100999)`; // the next miss is number 101,000: a pruning one
      await search(s, { query: "ornithopter wing loading" });
      await settleSearchMisses();
      const rows = await sql`SELECT id FROM pm_search_miss ORDER BY id`;
      expect(rows.map((r) => Number(r.id))).toEqual([101000]);
    });
  });
}
