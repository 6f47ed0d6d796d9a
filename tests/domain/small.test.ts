import { describe, expect, test } from "bun:test";
import { meaningDifference } from "../../src/domain/meaning/meaning.ts";
import { reciprocalRankFusion } from "../../src/domain/rrf.ts";
import { TopK } from "../../src/domain/topk.ts";
import { parseTsvector } from "../../src/domain/tsvector.ts";

describe("parseTsvector", () => {
  test("lexemes, positions, weights and escapes", () => {
    expect(parseTsvector("'dog':8 'run':7,9B 'больниц':5 'it''s':1 'a\\\\b' 'x'")).toEqual([
      { lexeme: "dog", tf: 1 },
      { lexeme: "run", tf: 2 },
      { lexeme: "больниц", tf: 1 },
      { lexeme: "it's", tf: 1 },
      { lexeme: "a\\b", tf: 1 },
      { lexeme: "x", tf: 1 },
    ]);
    expect(parseTsvector("")).toEqual([]);
  });
});

describe("reciprocalRankFusion", () => {
  test("weights, ranks and deterministic ties", () => {
    const fused = reciprocalRankFusion(
      [
        { name: "lexical", weight: 1, ids: [1, 2, 3] },
        { name: "vector", weight: 1, ids: [3, 1] },
      ],
      60,
    );
    expect(fused.map((f) => f.id)).toEqual([1, 3, 2]);
    expect(fused[0].ranks).toEqual({ lexical: 1, vector: 2 });
    expect(fused[0].score).toBeCloseTo(1 / 61 + 1 / 62, 10);
  });
  test("a low-weight leg only breaks ties of the first", () => {
    const fused = reciprocalRankFusion([
      { name: "lexical", weight: 1, ids: [1, 2] },
      { name: "vector", weight: 0.01, ids: [2, 1, 9] },
    ]);
    expect(fused.map((f) => f.id)).toEqual([1, 2, 9]);
  });
});

describe("TopK", () => {
  test("keeps the k best, best first, ties by key", () => {
    const t = new TopK(3);
    for (const [k, s] of [
      [5, 0.1],
      [1, 0.9],
      [2, 0.5],
      [3, 0.9],
      [4, 0.7],
    ])
      t.push(k, s);
    expect(t.result()).toEqual([
      { key: 1, score: 0.9 },
      { key: 3, score: 0.9 },
      { key: 4, score: 0.7 },
    ]);
  });
});

describe("meaningDifference", () => {
  test("negation, numbers and dates block a merge; rewording does not", () => {
    expect(meaningDifference("The drug reduces risk.", "The drug does not reduce risk.")).toBe("negation differs");
    expect(meaningDifference("Препарат снижает риск.", "Препарат не снижает риск.")).toBe("negation differs");
    expect(meaningDifference("Written in 1892.", "Written in 1898.")).toBe("a number or date differs");
    expect(meaningDifference("Born on 5 March.", "Born on 5 May.")).toBe("a date differs");
    expect(meaningDifference("Marker zqa17 is set.", "Marker zqb17 is set.")).toBe("a code or identifier differs");
    expect(meaningDifference("It costs 3,5 rubles.", "It costs 3.5 rubles!")).toBeNull();
    expect(meaningDifference("The ward is dirty.", "The ward is very dirty.")).toBeNull();
    expect(meaningDifference("Палата грязная, очень грязная.", "палата — грязная, грязная!")).toBeNull();
    expect(
      meaningDifference("Aspirin increased the risk of bleeding.", "Aspirin decreased the risk of bleeding."),
    ).toBe("the words differ");
    expect(meaningDifference("The drug is effective.", "The drug is ineffective.")).toBe("the words differ");
    expect(meaningDifference("The capital is Canberra, not Sydney.", "The capital is Sydney, not Canberra.")).toBe(
      "the word order differs",
    );
    expect(meaningDifference("Он был бы рад.", "Он был рад.")).toBe("the words differ");
  });
});
