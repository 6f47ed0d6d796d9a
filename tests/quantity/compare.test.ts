/**
 * Comparing measurements (issue 24): same subject and conditions, values within the stated precision (else ± 5 %).
 */
import { describe, expect, test } from "bun:test";
import { compareQuantities, statedInterval } from "../../src/domain/quantity/compare.ts";
import { extractQuantities, type Quantity } from "../../src/domain/quantity/extract.ts";

const q = (s: string): Quantity => extractQuantities(s, /\p{Script=Cyrillic}/u.test(s) ? "ru" : "en")[0];

describe("compareQuantities", () => {
  const a = q("Cold start takes 1.2 s");
  const b = q("cold start: 1200 ms");
  const c = q("cold start takes 2 s");
  const arm = q("Cold start on the ARM board takes 2 s");

  test("the acceptance cases of issue 24", () => {
    expect(compareQuantities(a, b)).toBe("corroborates");
    expect(compareQuantities(b, a)).toBe("corroborates");
    expect(compareQuantities(a, c)).toBe("contradicts");
    expect(compareQuantities(b, c)).toBe("contradicts");
    expect(compareQuantities(a, arm)).toBe("unrelated");
    expect(compareQuantities(c, arm)).toBe("unrelated");
  });

  test("other subjects, other dimensions and MB against MiB", () => {
    expect(compareQuantities(a, q("Warm start takes 1.2 s"))).toBe("unrelated");
    expect(compareQuantities(a, q("cold start uses 12 MB"))).toBe("unrelated");
    expect(compareQuantities(q("the heap is 512 MB"), q("the heap is 512 MiB"))).toBe("contradicts");
    expect(compareQuantities(q("the heap is 512 MB"), q("the heap is 512 MB"))).toBe("corroborates");
  });

  test("other conditions are not compared", () => {
    const a = q("Median search latency is 12 ms at 100k atoms.");
    expect(compareQuantities(a, q("median search latency: 40 ms at 100k atoms"))).toBe("contradicts");
    expect(compareQuantities(a, q("Median search latency is 40 ms at 10k atoms."))).toBe("unrelated");
  });

  test("Russian, and ± 5 % when the precision is unknown", () => {
    expect(compareQuantities(q("Время запуска 1,2 с"), q("время запуска: 1200 мс"))).toBe("corroborates");
    expect(compareQuantities(q("время запуска 2 с"), q("Время запуска 1,2 с"))).toBe("contradicts");
    expect(statedInterval(q("the fare was two hundred yen"))).toEqual({ low: 190, high: 210 });
    expect(compareQuantities(q("the fare was two hundred yen"), q("the fare was 205 yen"))).toBe("corroborates");
    expect(compareQuantities(q("the fare was two hundred yen"), q("the fare was 215 yen"))).toBe("contradicts");
  });
});
