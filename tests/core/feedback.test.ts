/** Pseudo-relevance feedback (core/search/feedback.ts) and tsvector positions (domain/tsvector.ts), pure. */
import { describe, expect, test } from "bun:test";
import { expandQuery } from "../../src/core/search/feedback.ts";
import { tsvectorPositions } from "../../src/domain/tsvector.ts";

describe("relevance feedback", () => {
  test("terms of the best atoms join the query below its own terms", () => {
    const q = [
      { lexeme: "vitamin", tf: 1 },
      { lexeme: "d", tf: 1 },
    ];
    const fb = [
      { lexeme: "vitamin", tf: 2 },
      { lexeme: "calcitriol", tf: 2 },
      { lexeme: "bone", tf: 1 },
    ];
    const out = expandQuery(q, [{ lexemes: fb, score: 10 }], { docs: 10, terms: 2, originalWeight: 0.9 });
    const w = new Map(out.map((l) => [l.lexeme, l.tf]));
    expect([...w.keys()].sort()).toEqual(["calcitriol", "d", "vitamin"]);
    expect(w.get("d")).toBeCloseTo(1, 5);
    expect(w.get("calcitriol")!).toBeGreaterThan(0);
    expect(w.get("calcitriol")!).toBeLessThan(w.get("d")!);
    expect(w.get("vitamin")!).toBeGreaterThan(w.get("d")!);
  });

  test("no feedback leaves the query as it is", () => {
    const q = [{ lexeme: "a", tf: 1 }];
    expect(expandQuery(q, [], { docs: 10, terms: 30, originalWeight: 0.9 })).toEqual(q);
  });

  test("tsvector positions, quotes and weights", () => {
    const p = tsvectorPositions("'don''t':3 'lake':1,4B 'x'");
    expect(p.get("don't")).toEqual([3]);
    expect(p.get("lake")).toEqual([1, 4]);
    expect(p.get("x")).toEqual([]);
  });
});
