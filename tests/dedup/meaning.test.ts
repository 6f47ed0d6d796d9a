/** Unit tests of the statement features (domain/meaning/statement.ts), the comparison and the pair decision. */
import { describe, expect, test } from "bun:test";
import { decidePair, dedupPolicy } from "../../src/domain/meaning/dedup.ts";
import { lightStem } from "../../src/domain/meaning/light-stem.ts";
import { compareStatements, meaningDifference } from "../../src/domain/meaning/meaning.ts";
import { canonicalDigits, foldNumberRun } from "../../src/domain/meaning/number-words.ts";
import { readStatement } from "../../src/domain/meaning/statement.ts";

const LEX = { threshold: 0.34, paraphrase: false };
const SEM = { threshold: 0.9, paraphrase: true };
const outcome = (a: string, b: string, policy = SEM, cosine = 0.95) => decidePair(a, b, cosine, policy).outcome;

describe("numbers and units", () => {
  test("digits in every spelling reach one canonical form", () => {
    expect(["1,000", "1 000", "1000", "1000.0"].map(canonicalDigits)).toEqual(["1000", "1000", "1000", "1000"]);
    expect(canonicalDigits("3,5")).toBe("3.5");
    expect(canonicalDigits("1.2.3")).toBe("1.2.3");
  });

  test("number words fold into values, English and Russian, in any case form", () => {
    expect(readStatement("Twenty-five patients").numbers).toEqual(["25"]);
    expect(readStatement("в двухстах пятидесяти верстах").numbers).toEqual(["250"]);
    expect(readStatement("They paid $163 million.").numbers).toEqual(["163000000"]);
    expect(readStatement("две тысячи рублей").numbers).toEqual(["2000"]);
    expect(readStatement("шестьдесят-семьдесят рублей").numbers).toEqual(["60", "70"]);
    expect(readStatement("pages 10-20").numbers).toEqual(["10", "20"]);
    expect(readStatement("In the 6th year").numbers).toEqual(["6"]);
    expect(
      foldNumberRun([
        { value: 1, multiplier: false, word: true },
        { value: 1000, multiplier: true, word: true },
        { value: 5, multiplier: false, word: true },
      ]),
    ).toEqual([1005]);
  });

  test("units after numbers (or currency before them) are read in canonical form", () => {
    expect(readStatement("5 mg").units).toEqual(["mg"]);
    expect(readStatement("5mg").units).toEqual(["mg"]);
    expect(readStatement("за тридцать километрах").units).toEqual(["km"]);
    expect(readStatement("It was -5 °C at night.")).toMatchObject({ numbers: ["-5"], units: ["°c"] });
    expect(readStatement("up 33% from $123").units).toEqual(["$", "%"]);
    expect(readStatement("в 1881 г.").units).toEqual(["year"]);
    expect(readStatement("Five patients").units).toEqual([]);
  });
});

describe("negations, dates, entities, directions", () => {
  test("Russian negative concord counts one negation; contractions count as 'not'", () => {
    expect(readStatement("Он никогда не был там.").negations).toBe(1);
    expect(readStatement("Ни рыба ни мясо.").negations).toBe(1);
    expect(readStatement("Ничего нет.").negations).toBe(1);
    expect(readStatement("It doesn't work and I cannot fix it.")).toMatchObject({
      negations: 2,
      negatedWords: ["fix", "work"],
    });
    expect(readStatement("The drug reduces risk.").negations).toBe(0);
  });

  test("months count only as months: 'may' needs a number beside it", () => {
    expect(readStatement("Born on 5 May.").dates).toEqual(["month:5"]);
    expect(readStatement("The drug may reduce risk.").dates).toEqual([]);
    expect(readStatement("в конце июня").dates).toEqual(["month:6"]);
    expect(readStatement("По субботам он ходил в церковь.").dates).toEqual(["weekday:6"]);
  });

  test("named entities: capitals not at a sentence start, inner capitals anywhere, Cyrillic case forms matched", () => {
    expect(readStatement("He lives in Berlin. Paris is far.")).toMatchObject({
      entities: ["berlin"],
      initialCaps: ["he", "paris"],
    });
    expect(readStatement("OkCupid asked users.").entities).toEqual(["okcupid"]);
    expect(lightStem("москве")).toBe(lightStem("москва"));
    expect(lightStem("андрея")).toBe(lightStem("андрей"));
    // A sentence-initial "Москва" counts as the entity the other text names mid-sentence ("в Москве").
    expect(compareStatements("Он живет в Москве.", "Москва — город, где он живет.").differs).toEqual([]);
    expect(compareStatements("Он живет в Москве.", "Казань — город, где он живет.").differs).toEqual(["entity"]);
  });

  test("citation markers are not numbers", () => {
    expect(readStatement("It is supported.[52]").numbers).toEqual([]);
    expect(readStatement("метод Качмажа [12], [14,15]").numbers).toEqual([]);
  });

  test("an increase against a decrease is a direction conflict; the same direction is not", () => {
    expect(compareStatements("Aspirin increased the risk.", "Aspirin decreased the risk.").differs).toEqual([
      "direction",
    ]);
    expect(compareStatements("Aspirin increased the risk.", "Aspirin raised the risk.").differs).toEqual([]);
    expect(compareStatements("Риск повышается.", "Риск снижается.").differs).toEqual(["direction"]);
  });
});

describe("decidePair", () => {
  test("below the threshold, or at a NaN cosine, nothing is a candidate", () => {
    expect(decidePair("Same text.", "Same text.", 0.5, SEM)).toMatchObject({ outcome: "keep" });
    expect(decidePair("Same text.", "Same text.", Number.NaN, SEM)).toMatchObject({ outcome: "keep" });
    expect(decidePair("$$$ %%%", "— —", 0.99, SEM)).toMatchObject({ outcome: "keep" });
    expect(decidePair("$$$  %%%", "$$$ %%%", 0.99, LEX)).toMatchObject({ outcome: "merge" });
  });

  test("restatements merge under both policies; paraphrases only under the semantic one", () => {
    expect(outcome("The ward is dirty.", "the ward is very dirty!", LEX)).toBe("merge");
    expect(outcome("Палата грязная.", "палата — грязная!", LEX)).toBe("merge");
    expect(outcome("The medicine lowers blood pressure.", "Blood pressure goes down with the medicine.", LEX)).toBe(
      "keep",
    );
    expect(outcome("Лекарство снижает давление.", "Под действием лекарства давление снижается.", SEM)).toBe("merge");
  });

  test("a negation, number, date, unit or direction in the same statement is a contradiction", () => {
    expect(outcome("The drug reduces risk.", "The drug does not reduce risk.")).toBe("contradiction");
    expect(outcome("Препарат снижает риск.", "Препарат не снижает риск.", LEX)).toBe("contradiction");
    expect(outcome("Water boils at 100 °C.", "Water boils at 90 °C.")).toBe("contradiction");
    expect(outcome("Масса образца 5 кг.", "Масса образца 5 г.")).toBe("contradiction");
    expect(outcome("The trail is 10 km long.", "The trail is 10 miles long.", LEX)).toBe("contradiction");
    expect(outcome("У него есть книга.", "У него нет книги.")).toBe("contradiction");
    expect(outcome("Written in 1892.", "Written in 1898.", LEX)).toBe("contradiction");
  });

  test("the same pattern about another fact or another entity is kept, not contradicted", () => {
    expect(outcome("Water boils at 100 °C.", "Water freezes at 0 °C.")).toBe("keep");
    expect(outcome("The capital of France is Paris.", "The capital of Germany is Berlin.")).toBe("keep");
    expect(outcome("Он живет в Москве.", "Он живет в Казани.")).toBe("keep");
    // Issue 21: which name is negated swaps the claim itself — a contradiction, not another fact.
    expect(outcome("The capital is Canberra, not Sydney.", "The capital is Sydney, not Canberra.")).toBe(
      "contradiction",
    );
    expect(outcome("In 1892 Chekhov wrote the story.", "In 1898 Chekhov published the story.")).toBe("keep");
  });

  test("meaningDifference keeps its reasons, and names units and entities", () => {
    expect(meaningDifference("5 mg daily.", "5 g daily.")).toBe("a unit differs");
    expect(meaningDifference("He went to Paris.", "He went to Berlin.")).toBe("a named entity differs");
    expect(meaningDifference("It costs 3,5 rubles.", "It costs 3.5 rubles!")).toBeNull();
  });
});

describe("dedupPolicy", () => {
  test("per embedder kind, with the configured threshold winning", () => {
    expect(dedupPolicy({ kind: "lexical", nearDupThreshold: 0.34 })).toEqual({ threshold: 0.34, paraphrase: false });
    expect(dedupPolicy({ kind: "neural", nearDupThreshold: 0.9 })).toEqual({ threshold: 0.9, paraphrase: true });
    expect(dedupPolicy({ kind: "neural", nearDupThreshold: 0.9 }, 0.85)).toEqual({ threshold: 0.85, paraphrase: true });
    expect(() => dedupPolicy({ kind: "lexical", nearDupThreshold: 0.34 }, 1.5)).toThrow(RangeError);
  });
});

test("a text in capitals only merges with the same words in normal case; another name in capitals still differs", () => {
  const policy = { threshold: 0.5, paraphrase: false };
  expect(
    decidePair("The Eiffel Tower was completed in 1889.", "THE EIFFEL TOWER WAS COMPLETED IN 1889!", 0.99, policy)
      .outcome,
  ).toBe("merge");
  expect(
    decidePair("The Eiffel Tower was completed in 1889.", "THE BLACKPOOL TOWER WAS COMPLETED IN 1889!", 0.9, policy)
      .outcome,
  ).toBe("keep");
  expect(
    decidePair("Эйфелева башня построена в 1889 году.", "ЭЙФЕЛЕВА БАШНЯ ПОСТРОЕНА В 1887 ГОДУ.", 0.9, policy).outcome,
  ).toBe("contradiction");
});
