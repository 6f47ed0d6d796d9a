/**
 * "When" questions rank dated evidence (src/core/search/when-boost.ts): the question detector in English and
 * Russian; any other question gets the fused ranking untouched (the store is not even asked); end to end on PGlite,
 * a turn that dates the event ("yesterday", resolved against observed_at) outranks undated turns that match the
 * question's words as well, for "When…?" and «Когда…?», and shows its rank in the `dated` leg.
 */
import { describe, expect, test } from "bun:test";
import { storeAtom } from "../../src/core/knowledge/store-atom.ts";
import { search } from "../../src/core/search/search.ts";
import {
  bareMonths,
  candidateDepth,
  PERIOD_WINDOW,
  rankDatedForWhen,
  WINDOW,
} from "../../src/core/search/when-boost.ts";
import type { FusedItem } from "../../src/domain/rrf.ts";
import { asksWhen } from "../../src/domain/time/when-question.ts";
import { suiteServices } from "../support/services.ts";

describe("asksWhen", () => {
  test("questions that ask when, in English and Russian", () => {
    for (const q of [
      "When did Caroline go to the LGBTQ support group?",
      "when is the art show",
      "What year did Melanie start painting?",
      "How long ago was Caroline's 18th birthday?",
      "On what date did the store open?",
      "Когда Андрей Ефимыч уехал в Москву?",
      "А когда это было?",
      "В каком году построили флигель?",
      "Как давно доктор служит в больнице?",
    ])
      expect({ q, when: asksWhen(q) }).toEqual({ q, when: true });
  });

  test("questions that do not, even with the word inside", () => {
    for (const q of [
      "What did Caroline do when she felt sad?",
      "Who supports Caroline when she has a negative experience?",
      "Where does Alice work?",
      "Кто такой Андрей Ефимыч?",
      "Что делал доктор, когда скучал?",
      "Никогда не говори никогда",
    ])
      expect({ q, when: asksWhen(q) }).toEqual({ q, when: false });
  });
});

describe("the dated leg", () => {
  const fused: FusedItem[] = [1, 2, 3].map((id, i) => ({ id, score: 1 / (61 + i), ranks: { lexical: i + 1 } }));
  const refusing = {
    searchReads: {
      atomTimes: () => {
        throw new Error("asked the store for a question that does not ask when");
      },
    },
  } as never;

  test("another question keeps the fused list itself", async () => {
    expect(await rankDatedForWhen(refusing, "Where does Alice work?", fused, 60)).toBe(fused);
  });

  const event = { start: "2024-01-01T00:00:00.000Z", end: "2024-01-02T00:00:00.000Z", granularity: "day" };
  const times = new Map<number, object>([
    [3, { event }],
    [2, { observedAt: "2024-01-01T10:00:00.000Z" }],
  ]);
  const dated = { searchReads: { atomTimes: async () => times } } as never;

  test("a when question lifts the dated candidate and records its rank", async () => {
    const out = await rankDatedForWhen(dated, "When did Alice join?", fused, 60);
    expect(out.map((f) => f.id)).toEqual([3, 1, 2]);
    expect(out[0].ranks).toEqual({ lexical: 3, dated: 1 });
  });

  test("a dated candidate that matches the question's words far less than the best is not lifted", async () => {
    // Atom 3 scores a fifth of the best lexical match: a passage that merely holds a date (XQuAD-ru, «Когда…?»).
    const weak = new Map([
      [1, 10],
      [2, 9],
      [3, 2],
    ]);
    expect(await rankDatedForWhen(dated, "When did Alice join?", fused, 60, weak)).toBe(fused);
    const close = new Map([
      [1, 10],
      [2, 9],
      [3, 8],
    ]);
    expect((await rankDatedForWhen(dated, "When did Alice join?", fused, 60, close)).map((f) => f.id)).toEqual([
      3, 1, 2,
    ]);
  });

  test("a question naming a date lifts what happened or was said near it, nothing else", async () => {
    const on = await rankDatedForWhen(dated, "What did Alice say on 1 January 2024?", fused, 60);
    expect(on.map((f) => `${f.id}:${f.ranks.dated ?? "-"}`)).toEqual(["2:1", "3:2", "1:-"]);
    const far = await rankDatedForWhen(dated, "What did Alice say in March 2023?", fused, 60);
    expect(far).toBe(fused);
  });

  test("a month named without a year, in English and Russian; not a modal verb, not a dated month", () => {
    expect(bareMonths("When did Melanie go camping in June?")).toEqual([5]);
    expect(bareMonths("Which country was Tim visiting in the second week of November?")).toEqual([10]);
    expect(bareMonths("Что Маша делала в мае?")).toEqual([4]);
    expect(bareMonths("You may go in the morning")).toEqual([]);
    expect(bareMonths("What did Joanna do in July 2022?")).toEqual([]);
    expect(bareMonths("Что было в мае 2023 года?")).toEqual([]);
    expect(candidateDepth("Which outdoor spot did Joanna visit in May?")).toBe(PERIOD_WINDOW);
  });

  test("a bare month lifts what was said or set in that month of any year", async () => {
    const times = new Map<number, object>([
      [3, { observedAt: "2022-06-20T10:00:00Z" }],
      [2, { event: { start: "2021-07-01T00:00:00.000Z", end: "2021-07-02T00:00:00.000Z", granularity: "day" } }],
    ]);
    const said = { searchReads: { atomTimes: async () => times } };
    const out = await rankDatedForWhen(said as never, "Where did Alice go camping in June?", fused, 60);
    expect(out.map((f) => `${f.id}:${f.ranks.dated ?? "-"}`)).toEqual(["3:1", "1:-", "2:-"]);
  });

  test("a named period reads deeper and lets its atoms vote as fully as the words", async () => {
    expect(candidateDepth("What did Alice accomplish in January 2024?")).toBe(PERIOD_WINDOW);
    expect(candidateDepth("Что Алиса сделала в марте 2024 года?")).toBe(PERIOD_WINDOW);
    expect(candidateDepth("When did Alice join?")).toBe(0);
    // 300 candidates; the one said in January 2024 stands far below the plain window.
    const deep: FusedItem[] = Array.from({ length: 300 }, (_, i) => ({
      id: i + 1,
      score: 1 / (61 + i),
      ranks: { lexical: i + 1 },
    }));
    const far = WINDOW + 50;
    const said = { searchReads: { atomTimes: async () => new Map([[far, { observedAt: "2024-01-15T10:00:00Z" }]]) } };
    const named = await rankDatedForWhen(said as never, "What did Alice accomplish in January 2024?", deep, 60);
    expect(named.findIndex((f) => f.id === far)).toBeLessThan(10);
    expect(named.find((f) => f.id === far)?.ranks.dated).toBe(1);
    const eventOnly = new Map([[far, { event }]]);
    const when = { searchReads: { atomTimes: async () => eventOnly } };
    expect(await rankDatedForWhen(when as never, "When did Alice join?", deep, 60)).toBe(deep);
  });
});

describe("end to end on PGlite", () => {
  const t = suiteServices("pglite");
  const store = (claim: string, observed_at: string) =>
    storeAtom(t.services, { type: "text", claim, observed_at, source_uri: "https://chat.example/s1" });

  test("the turn that dates the event comes first for when, not for other questions", async () => {
    await store("Caroline: the LGBTQ support group meets in the library, the support group is great.", "2023-05-01");
    await store("Caroline: my LGBTQ support group friends helped me a lot at the support group.", "2023-05-02");
    const dated = await store("Caroline: I went to a LGBTQ support group yesterday.", "2023-05-08T13:56:00Z");
    await store("Каролина: группа поддержки собирается в библиотеке, группа поддержки прекрасная.", "2023-05-01");
    const ru = await store("Каролина: вчера я ходила в группу поддержки.", "2023-05-08");
    const when = await search(t.services, { query: "When did Caroline go to the LGBTQ support group?", k: 5 });
    expect(when.hits[0].atom_id).toBe(dated.atom_id);
    expect(when.hits[0].ranks.dated).toBe(1);
    const whenRu = await search(t.services, { query: "Когда Каролина ходила в группу поддержки?", k: 5 });
    expect(whenRu.hits[0].atom_id).toBe(ru.atom_id);
    const other = await search(t.services, { query: "Did Caroline go to the LGBTQ support group?", k: 5 });
    expect(other.hits.every((h) => h.ranks.dated === undefined)).toBe(true);
  });
});
