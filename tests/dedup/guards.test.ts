/**
 * The guards added after review of decidePair (domain/meaning/dedup.ts), one block per defect, English and Russian:
 * comparison symbols and phrases; antonyms, quantifiers, rates and prefix negations under the paraphrase policy;
 * swapped roles and names at the start of a sentence; short contradictions under the lexical embedder's own
 * cosines and calibrated threshold.
 */
import { describe, expect, test } from "bun:test";
import { LexicalHashEmbedder } from "../../src/adapters/embedded/lexical-embedder.ts";
import { decidePair, dedupPolicy, type PairOutcome } from "../../src/domain/meaning/dedup.ts";
import { compareStatements } from "../../src/domain/meaning/meaning.ts";
import { readStatement } from "../../src/domain/meaning/statement.ts";
import { dot } from "./cosines.ts";

const SEM = { threshold: 0.9, paraphrase: true };
const LEX = { threshold: 0.34, paraphrase: false };
/** Outcomes under the paraphrase policy at cosine 0.95 and the lexical one at cosine 1 ("same statement" by cosine). */
const both = (a: string, b: string): [PairOutcome, PairOutcome] => [
  decidePair(a, b, 0.95, SEM).outcome,
  decidePair(a, b, 1, LEX).outcome,
];
const sem = (a: string, b: string) => decidePair(a, b, 0.95, SEM).outcome;

describe("1. comparison symbols and phrases", () => {
  test("comparators are read with the number they bound, in canonical form", () => {
    expect(readStatement("significant (p < 0.05)").comparisons).toEqual(["<0.05"]);
    expect(readStatement("It stays ≥ 10 C.").comparisons).toEqual([">=10"]);
    expect(readStatement("It stays >= 10 C.").comparisons).toEqual([">=10"]);
    expect(readStatement("Take at least 5 mg.").comparisons).toEqual([">=5"]);
    expect(readStatement("Take 5 mg or more.").comparisons).toEqual([">=5"]);
    expect(readStatement("Доза не менее 5 мг.")).toMatchObject({ comparisons: [">=5"], negations: 0 });
    expect(readStatement("Свыше $100 в месяц.").comparisons).toEqual([">100"]);
  });

  test("a comparison word without a number is not a comparator; 'тем не менее', 'not only' are neither", () => {
    expect(readStatement("now more than ever").comparisons).toEqual([]);
    expect(readStatement("Тем не менее, метод работает.")).toMatchObject({ comparisons: [], negations: 0 });
    expect(readStatement("Not only cats but also dogs.").negations).toBe(0);
    expect(readStatement("Он не только читал.").negations).toBe(0);
  });

  test("another comparator on the same quantity is a contradiction under both policies, never a merge", () => {
    const pairs: Array<[string, string]> = [
      [
        "The treatment effect was significant (p < 0.05) in the trial.",
        "The treatment effect was significant (p > 0.05) in the trial.",
      ],
      ["The sample stays >= 10 C.", "The sample stays <= 10 C."],
      ["The sample stays ≥ 10 C.", "The sample stays ≤ 10 C."],
      ["The cohort had more than 200 patients.", "The cohort had less than 200 patients."],
      ["Take at least 5 mg.", "Take at most 5 mg."],
      ["В пробе было больше 10 клеток.", "В пробе было меньше 10 клеток."],
      ["Доза составляет не менее 5 мг в сутки.", "Доза составляет не более 5 мг в сутки."],
      ["Отклонение не превышает 5%, p < 0,05.", "Отклонение не превышает 5%, p ≥ 0,05."],
    ];
    for (const [a, b] of pairs)
      expect({ a, outcomes: both(a, b) }).toEqual({ a, outcomes: ["contradiction", "contradiction"] });
  });

  test("one comparator in another spelling is the same statement", () => {
    expect(both("The sample stays ≥ 10 C.", "The sample stays >= 10 C.")).toEqual(["merge", "merge"]);
    expect(both("Доза не менее 5 мг.", "Доза не меньше 5 мг.")).toEqual(["merge", "merge"]);
    expect(sem("Take at least 5 mg.", "Take 5 mg or more.")).toBe("merge");
  });

  test("another comparator around another statement is another fact, kept", () => {
    expect(sem("Trial A was significant (p < 0.05).", "Trial B failed to recruit (p > 0.05) patients.")).toBe("keep");
  });
});

describe("2a. antonyms, quantifiers, rates and prefix negations under the paraphrase policy", () => {
  const opposite: Array<[string, string]> = [
    ["The patient is alive.", "The patient is dead."],
    ["The test passed.", "The test failed."],
    ["The claim is true.", "The claim is false."],
    ["Enable the option.", "Disable the option."],
    ["Install the package.", "Uninstall the package."],
    ["The effect was significant.", "The effect was insignificant."],
    ["The drug is safe.", "The drug is unsafe."],
    ["Это правда.", "Это неправда."],
    ["Это возможно.", "Это невозможно."],
    ["Курить можно.", "Курить нельзя."],
    ["All patients recovered.", "Some patients recovered."],
    ["Все пациенты выздоровели.", "Некоторые пациенты выздоровели."],
    ["Take the pill before meals.", "Take the pill after meals."],
    ["Принимать до еды.", "Принимать после еды."],
    ["Prices went up.", "Prices went down."],
    ["Take 5 mg per day.", "Take 5 mg per week."],
    ["Принимать 5 мг в день.", "Принимать 5 мг в неделю."],
    ["He always comes.", "He never comes."],
    ["Он всегда приходит.", "Он никогда не приходит."],
    ["Сервис включен.", "Сервис выключен."],
    ["Пациент жив.", "Пациент мертв."],
  ];
  test("an antonym, another quantifier or rate, or a negating prefix in the same statement is a contradiction", () => {
    for (const [a, b] of opposite)
      expect({ a, outcomes: both(a, b) }).toEqual({ a, outcomes: ["contradiction", "contradiction"] });
  });

  test("every negating prefix counts on an otherwise identical word, English and Russian", () => {
    const prefixed: Array<[string, string]> = [
      ["The result is likely.", "The result is unlikely."],
      ["The input is valid.", "The input is invalid."],
      ["The result is possible.", "The result is impossible."],
      ["The trade is legal.", "The trade is illegal."],
      ["The pattern is regular.", "The pattern is irregular."],
      ["The product is toxic.", "The product is non-toxic."],
      ["The witness was honest.", "The witness was dishonest."],
      ["Метод устойчив.", "Метод неустойчив."],
      ["Этот шаг законен.", "Этот шаг беззаконен."],
      ["Путь опасен.", "Путь безопасен."],
      ["Спор полезен.", "Спор бесполезен."],
    ];
    for (const [a, b] of prefixed)
      expect({ a, differs: compareStatements(a, b).differs }).toEqual({ a, differs: ["prefix negation"] });
  });

  test("a negated antonym or a negation spelt as a prefix is the same statement", () => {
    expect(sem("The patient is alive.", "The patient is not dead.")).toBe("merge");
    expect(sem("Путь безопасен.", "Путь не опасен.")).toBe("merge");
    expect(sem("The effect was not significant.", "The effect was insignificant.")).toBe("merge");
    expect(sem("Take 5 mg per day.", "Take 5 mg daily.")).toBe("merge");
    expect(sem("He never comes.", "He does not come.")).toBe("merge");
  });

  test("words that only look prefixed, and quantifier idioms, are none of these", () => {
    expect(compareStatements("They inform users.", "They form users.").differs).toEqual([]);
    expect(compareStatements("Он читал о неделе.", "Он читал о деле.").differs).not.toContain("prefix negation");
    expect(readStatement("It was not at all right, and they hate each other.").quantifiers).toEqual([]);
    expect(readStatement("Он все-таки пришел, все равно.").quantifiers).toEqual([]);
    expect(readStatement("It does not have any effect.").quantifiers).toEqual([]);
    expect(readStatement("It works on any system.").quantifiers).toEqual(["all"]);
    expect(readStatement("Every 5 days a dose.").quantifiers).toEqual([]);
  });

  test("rates are units: per, a/в after a count, every/каждый, daily/ежедневно, a slash", () => {
    expect(readStatement("5 mg/day").units).toEqual(["/day", "mg"]);
    expect(readStatement("twice a day").units).toEqual(["/day"]);
    expect(readStatement("сто верст в день").units).toEqual(["/day", "verst"]);
    expect(readStatement("Он ходил туда каждую неделю.").units).toEqual(["/week"]);
    expect(readStatement("Принимать ежедневно.").units).toEqual(["/day"]);
    expect(readStatement("A day later he left.").units).toEqual([]);
  });
});

describe("2b. roles and names at the start of a sentence", () => {
  test("the same names in swapped roles contradict; Russian case endings carry the roles within a clause", () => {
    expect(both("Alice likes Bob.", "Bob likes Alice.")).toEqual(["contradiction", "contradiction"]);
    expect(decidePair("Alice likes Bob.", "Bob likes Alice.", 0.95, SEM).reason).toBe(
      "the roles differ in the same statement",
    );
    expect(both("Алиса любит Боба.", "Боб любит Алису.")).toEqual(["contradiction", "contradiction"]);
    expect(sem("Алису любит Боб.", "Боб любит Алису.")).toBe("merge");
    expect(sem("Андрей ушел, а Никита остался.", "Никита ушел, а Андрей остался.")).toBe("contradiction");
  });

  test("a passive or a rewrite with the same names is no swap", () => {
    expect(sem("Mozilla released Firefox.", "Firefox was released by Mozilla.")).toBe("merge");
    expect(sem("Gecko is also used by Thunderbird.", "Thunderbird also uses Gecko.")).toBe("merge");
  });

  test("Latin names in a Russian sentence show no case: reordered, they are kept apart (no contradiction claimed)", () => {
    expect(sem("Компания Mozilla выпустила Firefox.", "Firefox выпустила компания Mozilla.")).toBe("keep");
  });

  test("another capitalized word at the start, absent from the other text, is another name", () => {
    expect(both("Smith wrote the paper.", "Jones wrote the paper.")).toEqual(["keep", "keep"]);
    expect(both("Firefox was released by Mozilla.", "Chrome was released by Mozilla.")).toEqual(["keep", "keep"]);
    expect(both("Мойсейка любит услуживать.", "Никита любит услуживать.")).toEqual(["keep", "keep"]);
    expect(compareStatements("Smith wrote the paper.", "Jones wrote the paper.").differs).toEqual(["entity"]);
  });

  test("a name the other text contains in any case, a stop word, or a rewritten sentence is no new name", () => {
    expect(sem("Aspirin reduces risk.", "The risk is reduced by aspirin.")).toBe("merge");
    expect(sem("Usually he gets up at eight.", "Normally he gets up at eight.")).toBe("merge");
    expect(
      sem(
        "Mozilla noted that roughly 85% of revenue comes from Google.",
        "According to Mozilla, about 85% of revenue comes from Google.",
      ),
    ).toBe("merge");
    expect(sem("Обычно он встает в восемь.", "Обыкновенно он встает в восемь.")).toBe("merge");
  });

  test("texts in capitals have no case: their words are compared", () => {
    expect(both("SMITH WROTE THE PAPER.", "JONES WROTE THE PAPER.")).toEqual(["keep", "keep"]);
    expect(both("Smith wrote the paper.", "JONES WROTE THE PAPER.")).toEqual(["keep", "keep"]);
    expect(both("Smith wrote the paper.", "SMITH WROTE THE PAPER!")).toEqual(["merge", "merge"]);
    expect(both("СМИТ НАПИСАЛ СТАТЬЮ.", "ДЖОНС НАПИСАЛ СТАТЬЮ.")).toEqual(["keep", "keep"]);
  });
});

describe("3. short contradictions under the lexical embedder's own cosine and calibrated threshold", () => {
  const embedder = new LexicalHashEmbedder();
  const policy = dedupPolicy(embedder);
  const lexical = (a: string, b: string) => {
    const cosine = dot(embedder.embed(a), embedder.embed(b));
    return { a, cosine: Math.round(cosine * 1000) / 1000, outcome: decidePair(a, b, cosine, policy).outcome };
  };
  const short: Array<[string, string]> = [
    ["Mozilla was founded in 1998.", "Mozilla was founded in 2003."],
    ["The dose is 5 mg.", "The dose is 5 g."],
    ["Mozilla основана в 1998 году.", "Mozilla основана в 2003 году."],
    ["Доза составляет 5 мг.", "Доза составляет 5 г."],
    ["Встреча в понедельник.", "Встреча во вторник."],
    ["Курить можно.", "Курить нельзя."],
    ["He always comes.", "He never comes."],
    ["Он всегда приходит.", "Он никогда не приходит."],
  ];

  test("each is a candidate at the calibrated threshold, and a contradiction", () => {
    expect(policy.threshold).toBe(0.34);
    for (const [a, b] of short) {
      const r = lexical(a, b);
      expect({ ...r, candidate: r.cosine >= policy.threshold }).toEqual({
        ...r,
        candidate: true,
        outcome: "contradiction",
      });
    }
  });

  test("в/во, к/ко, с/со, о/об/обо are one preposition", () => {
    expect(readStatement("Встреча во вторник, ко мне со всеми обо всем.").words).toEqual([
      "встреча",
      "в",
      "вторник",
      "к",
      "мне",
      "с",
      "всеми",
      "о",
      "всем",
    ]);
    expect(compareStatements("Он пришел со мной.", "Он пришел с мной.").sameWords).toBe(true);
  });

  test("unrelated short statements stay below the threshold", () => {
    const unrelated: Array<[string, string]> = [
      ["Red Shirt tottered.", "Are there any necessary ones?"],
      ["Курить можно.", "Встреча во вторник."],
      ["The dose is 5 mg.", "He always comes."],
      ["Никита тоже пожал плечами.", "Mozilla основана в 1998 году."],
    ];
    for (const [a, b] of unrelated)
      expect({ a, below: lexical(a, b).cosine < policy.threshold }).toEqual({ a, below: true });
  });
});

test("words that name Object.prototype members are ordinary words", () => {
  const policy = { threshold: 0.3, paraphrase: false };
  for (const w of ["constructor", "toString", "__proto__", "hasOwnProperty", "valueOf"]) {
    expect(decidePair(`The ${w} is called once.`, `The ${w} is called once!`, 0.99, policy).outcome).toBe("merge");
    expect(decidePair(`The ${w} is called 3 times.`, `The ${w} is called 4 times.`, 0.9, policy).outcome).toBe(
      "contradiction",
    );
  }
  expect(decidePair("5 ° constructor", "5 ° constructor", 1, policy).outcome).toBe("merge");
});
