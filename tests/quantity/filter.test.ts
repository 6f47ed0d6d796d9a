/**
 * The measurement filter of a search query (domain/quantity/filter.ts), the measured ranking (core/search/measured.ts)
 * and the measurement rule of dedup (domain/meaning/quantity-pair.ts), English and Russian.
 */
import { describe, expect, test } from "bun:test";
import { rankMeasured, rangeOf } from "../../src/core/search/measured.ts";
import { decidePair } from "../../src/domain/meaning/dedup.ts";
import { quantityRelation } from "../../src/domain/meaning/quantity-pair.ts";
import { claimQuantities, mayStateQuantity } from "../../src/domain/quantity/atom-quantities.ts";
import { parseQuantityFilter } from "../../src/domain/quantity/filter.ts";
import type { QuantityRow } from "../../src/ports/store/quantities.ts";

const f = (q: string) => {
  const p = parseQuantityFilter(q);
  if (!p) throw new Error(`no filter in '${q}'`);
  return p;
};

describe("parseQuantityFilter", () => {
  test("comparisons in symbols and English words, across units", () => {
    expect(f("cold start < 1.5 s")).toMatchObject({
      canonicalUnit: "s",
      high: 1.5,
      highOpen: true,
      rest: "cold start",
    });
    expect(f("startup under 200ms")).toMatchObject({ high: 0.2, highOpen: true, rest: "startup", text: "under 200ms" });
    expect(f("heap >= 512 MiB")).toMatchObject({ canonicalUnit: "B", low: 2 ** 29, lowOpen: false, rest: "heap" });
    expect(f("heap at least 512 MB").low).toBe(512e6);
    expect(f("latency between 1 and 2 s")).toMatchObject({ low: 1, high: 2, lowOpen: false, highOpen: false });
    expect(f("cold start 1.5 s or less")).toMatchObject({ high: 1.5, highOpen: false, rest: "cold start" });
    expect(f("price ≤ $20")).toMatchObject({ canonicalUnit: "USD", high: 20 });
    expect(f("temperature above 30 °C")).toMatchObject({ canonicalUnit: "°C", low: 30, lowOpen: true });
    expect(f("startup = 1.2 s")).toMatchObject({ low: 1.15, high: 1.25 });
  });

  test("Russian: «меньше», «не более», «до», «от … до …», «от»", () => {
    expect(f("время запуска меньше 200 мс")).toMatchObject({ high: 0.2, highOpen: true, rest: "время запуска" });
    expect(f("время запуска не более 1,5 с")).toMatchObject({ high: 1.5, highOpen: false, rest: "время запуска" });
    expect(f("цена до 500 руб.")).toMatchObject({ canonicalUnit: "RUB", high: 500 });
    expect(f("задержка от 1 до 2 с")).toMatchObject({ low: 1, high: 2, rest: "задержка" });
    expect(f("задержка между 1 и 2 с")).toMatchObject({ low: 1, high: 2, rest: "задержка" });
    expect(f("время запуска 2 с и меньше")).toMatchObject({ high: 2, highOpen: false, rest: "время запуска" });
    expect(f("память от 1 ГБ")).toMatchObject({ canonicalUnit: "B", low: 1e9 });
    expect(f("температура выше 20 °C")).toMatchObject({ low: 20, lowOpen: true });
  });

  test("a measurement without a comparison, or a comparison without a unit, is no filter", () => {
    expect(parseQuantityFilter("startup 149 ms")).toBeNull();
    expect(parseQuantityFilter("время запуска 200 мс")).toBeNull();
    expect(parseQuantityFilter("more than 5 widgets")).toBeNull();
    expect(parseQuantityFilter("p < 0.05")).toBeNull();
    expect(parseQuantityFilter("how does search rank Russian text")).toBeNull();
  });

  test("a bound inside a sentence is searched as words; a symbol or a short subject makes a filter", () => {
    for (const q of [
      "90% of sudden infant death syndrome (SIDS) deaths happen in newborns aged less than 6 months.",
      "Hematopoietic Stem Cell purification reaches purity rates above 90%.",
      "В скольких домохозяйствах проживают дети в возрасте до 18 лет?",
      "Where did Caroline move from 4 years ago?",
    ])
      expect(parseQuantityFilter(q)).toBeNull();
    expect(f("startup time of the server under 200 ms")).toMatchObject({
      high: 0.2,
      rest: "startup time of the server",
    });
    expect(f("время запуска сервера на ARM-плате меньше 200 мс").high).toBe(0.2);
    expect(f("newborns aged in the first weeks of their life after delivery < 6 months").dimension).toBe("time");
  });

  test("store ranges keep 1200 × 0.001 s inside a closed 1.2 s bound and outside an open one", () => {
    const ms = 1200 * 0.001;
    const closed = rangeOf(f("x ≤ 1.2 s"));
    expect(ms <= closed.high!).toBe(true);
    const open = rangeOf(f("x < 1.2 s"));
    expect(ms < open.high!).toBe(false);
  });
});

describe("rankMeasured", () => {
  const row = (atomId: number, subject: string, claim: string): QuantityRow => ({
    atomId,
    low: 1,
    high: 1,
    dimension: "time",
    canonicalUnit: "s",
    unit: "s",
    subject,
    conditions: [],
    sigDigits: 1,
    plusMinus: 0.5,
    approximate: false,
    quote: "1 s",
    start: 0,
    end: 3,
    claim,
  });

  test("the subject's words rank first; atoms sharing half the words or fewer are left out; no words keeps all", () => {
    const rows = [
      row(1, "warm start", "Warm start takes 1 s"),
      row(2, "cold start", "Cold start takes 1 s"),
      row(3, "kettle", "The kettle boils in 1 s"),
      row(5, "start", "The cold start of the service takes 1 s"),
    ];
    expect(rankMeasured(rows, "cold start").map((r) => r.id)).toEqual([2, 5]);
    expect(rankMeasured(rows, "service start").map((r) => r.id)).toEqual([5]);
    expect(rankMeasured(rows, "").map((r) => r.id)).toEqual([1, 2, 3, 5]);
    expect(rankMeasured([row(4, "время запуска", "Время запуска 1 с")], "время запуска").length).toBe(1);
  });
});

describe("measurements in dedup", () => {
  const policy = { threshold: 0.6, paraphrase: false };

  test("same value in other units corroborates, another value contradicts, other conditions neither", () => {
    expect(quantityRelation("Cold start takes 1.2 s", "cold start: 1200 ms")?.kind).toBe("corroborate");
    expect(quantityRelation("cold start: 1200 ms", "cold start takes 2 s")?.kind).toBe("contradict");
    expect(quantityRelation("Cold start takes 1.2 s", "Cold start on the ARM board takes 2 s")).toBeNull();
    expect(decidePair("Cold start takes 1.2 s", "cold start: 1200 ms", 0.3, policy).kind).toBe("corroborate");
    expect(decidePair("cold start: 1200 ms", "cold start takes 2 s", 0.3, policy).outcome).toBe("contradiction");
  });

  test("Russian", () => {
    expect(quantityRelation("Время запуска 1,2 с", "время запуска: 1200 мс")?.kind).toBe("corroborate");
    expect(quantityRelation("время запуска: 1200 мс", "Время запуска составляет 3 с")?.kind).toBe("contradict");
  });

  test("the old false positives stay apart: numbered subjects, other things, 10 km against 10 miles", () => {
    expect(quantityRelation("Widget 5 weighs 22 kilograms.", "Widget 6 weighs 25 kilograms.")).toBeNull();
    expect(decidePair("Widget 5 weighs 22 kilograms.", "Widget 6 weighs 25 kilograms.", 0.9, policy).outcome).toBe(
      "keep",
    );
    expect(quantityRelation("The trail is 10 km long.", "The trail is 10 miles long.")?.kind).toBe("contradict");
    expect(quantityRelation("Cold start takes 1.2 s", "The kettle boils in 1.2 s")).toBeNull();
    expect(quantityRelation("The server has 16 GB of RAM", "The server is 16 years old")).toBeNull();
  });
});

describe("claimQuantities", () => {
  test("reads only text with a digit, or a number word beside a unit word, and skips overlong claims", () => {
    expect(mayStateQuantity("no numbers here")).toBe(false);
    expect(mayStateQuantity("it took twenty minutes")).toBe(true);
    expect(mayStateQuantity("заняло полчаса")).toBe(true);
    expect(mayStateQuantity("no one came, and the two of them left")).toBe(false);
    expect(mayStateQuantity("в двухстах верстах от города")).toBe(true);
    expect(claimQuantities("it took twenty minutes").map((q) => q.canonicalLow)).toEqual([1200]);
    expect(claimQuantities(`${"word ".repeat(500)} 5 ms`)).toEqual([]);
  });
});
