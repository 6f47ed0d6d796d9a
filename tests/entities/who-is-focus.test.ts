/**
 * Entity focus (src/core/search/entity-focus): which questions ask who or what one thing is, how a sentence scores
 * as that thing's introduction, and the reordering itself over stand-in reads (a question without a focus gets the
 * very same list back).
 */
import { describe, expect, test } from "bun:test";
import type { AtomFilter } from "../../src/domain/atom.ts";
import { introductionScore, nameStems } from "../../src/core/search/entity-focus/introduction.ts";
import { questionFocus } from "../../src/core/search/entity-focus/question.ts";
import { focusOnEntities, type Ranked } from "../../src/core/search/entity-focus/rerank.ts";
import type { AtomView } from "../../src/ports/store/atom-reads.ts";

describe("the focus of a question", () => {
  test("who/what-is questions, Russian names in any case, a bare name", () => {
    expect(questionFocus("Кто такой Андрей Ефимыч?")?.names[0]).toBe("Андрей Ефимыч");
    expect(questionFocus("Что известно об Иване Дмитриче?")?.keys).toEqual(["иван дмитрич"]);
    expect(questionFocus("Расскажи о Евгении Федорыче")?.keys).toEqual(["евгений федорыч"]);
    expect(questionFocus("Who is Mr. Koga?")?.names[0]).toBe("Koga");
    expect(questionFocus("What is Firefox OS?")?.names[0]).toBe("Firefox OS");
    expect(questionFocus("What is photochemical internalization?")?.names).toEqual(["photochemical internalization"]);
    expect(questionFocus("Андрей Ефимыч")?.names).toEqual(["Андрей Ефимыч"]);
  });

  test("other ways to ask, and where the name comes from, leave the name alone", () => {
    expect(questionFocus("What does HDBR mean?")?.names).toEqual(["HDBR"]);
    expect(questionFocus("What is meant by Rust?")?.names).toEqual(["Rust"]);
    expect(questionFocus("Who exactly is Kantaro?")?.names).toEqual(["Kantaro"]);
    expect(questionFocus("Who was Ikagin in the novel?")?.names).toEqual(["Ikagin"]);
    expect(questionFocus("Who is Kantaro in Botchan?")?.names).toEqual(["Kantaro"]);
    expect(questionFocus("Что означает Байконур?")?.keys).toEqual(["байконур"]);
    expect(questionFocus("Кто этот Хоботов?")?.keys).toEqual(["хоботов"]);
    expect(questionFocus("Кто такой Никита в рассказе «Палата № 6»?")?.keys).toEqual(["никита"]);
    expect(questionFocus("Кто такая Дарьюшка из повести Чехова?")?.keys).toEqual(["дарьюшка"]);
    expect(questionFocus("Кто такой Никита в палате?")).toBeNull();
  });

  test("a relation to a name is a one-hop focus; other words beside a name are not", () => {
    expect(questionFocus("Кто был единственным приятелем доктора Андрея Ефимыча?")).toEqual({
      names: ["Андрей Ефимыч"],
      keys: ["андрей ефимыч"],
      hop: true,
    });
    expect(questionFocus("Кем был отец Ивана Дмитрича?")?.hop).toBe(true);
    expect(questionFocus("What was Melanie's favorite book from her childhood?")).toBeNull();
  });

  test("factoid questions, claims and other words beside a name have none", () => {
    for (const q of [
      "When was Tesla born?",
      "В каком году Тесла переехал в Нью-Йорк?",
      "0-dimensional biomaterials show inductive properties.",
      "What is the capital of France?",
      "What is the role of the immune system in sepsis and how does it change over time?",
    ])
      expect({ q, focus: questionFocus(q) }).toEqual({ q, focus: null });
  });
});

describe("a sentence as an introduction", () => {
  const ragin = nameStems("Андрей Ефимыч");
  test("the sentence that presents someone outranks one where he merely acts, in any case", () => {
    const intro = introductionScore("Доктор Андрей Ефимыч Рагин – замечательный человек в своем роде.", ragin);
    const acts = introductionScore("В августе Андрей Ефимыч получил от городского головы письмо.", ragin);
    const dative = introductionScore("Андрею Ефимычу в первый же день пришлось отыскивать квартиру.", ragin);
    expect(intro).toBeGreaterThan(acts + 2);
    expect(dative).toBeGreaterThan(0);
    expect(intro).toBeGreaterThan(dative + 2);
  });

  test("English copulas, appositives, naming verbs and roles; dialogue and narration weigh less", () => {
    const kiyo = nameStems("Kiyo");
    expect(introductionScore("Kiyo is a poor wrinkled woman.", kiyo)).toBeGreaterThanOrEqual(3);
    expect(introductionScore("Kiyo is going to Nobeoka.", kiyo)).toBeLessThan(1);
    expect(
      introductionScore("But our maid Kiyo, who had been with us for ten years, interceded.", kiyo),
    ).toBeGreaterThan(2);
    expect(introductionScore('"Kiyo is a fool," he said.', kiyo)).toBeLessThan(
      introductionScore("Kiyo is a fool.", kiyo),
    );
    const clown = nameStems("Clown");
    expect(
      introductionScore("Mr. Yoshikawa is the teacher of drawing whom I had nicknamed Clown.", clown),
    ).toBeGreaterThan(2.5);
    expect(introductionScore("Сторож Никита бьет больных.", nameStems("Никита"))).toBeGreaterThan(
      introductionScore("Никита бьет больных.", nameStems("Никита")),
    );
  });

  test("a copula that is not the name's own, an ordinal event, an ellipsis dash and a keyword list define nothing", () => {
    const porcupine = nameStems("Porcupine");
    const nickname = introductionScore("I gave this priest from this time the nickname of Porcupine.", porcupine);
    // The copula of a reported belief or of the noun governing the name ("the face of Clown was …").
    expect(introductionScore("I thought Porcupine was a better sport.", porcupine)).toBeLessThan(nickname);
    expect(introductionScore("Porcupine was a better sport.", porcupine)).toBeGreaterThan(nickname);
    expect(introductionScore("Think how I might, the face of Clown was a degrading type.", nameStems("Clown"))).toBe(
      0.2,
    );
    const squash = nameStems("Hubbard Squash");
    expect(
      introductionScore("I never knew our friend Hubbard Squash was a fellow of such gallantry.", squash),
    ).toBeLessThan(introductionScore("Our friend Hubbard Squash was a fellow of such gallantry.", squash));
    // "was the first to …" tells what happened, "is the senior instructor" what the name is.
    expect(
      introductionScore("When I came here, Porcupine was the first to treat me to ice water.", porcupine),
    ).toBeLessThan(nickname);
    expect(introductionScore("Porcupine is the senior instructor.", porcupine)).toBeGreaterThan(nickname);
    // «а Михаил Аверьяныч – с веселым видом»: a dash before a preposition stands for a verb.
    const misha = nameStems("Михаил Аверьяныч");
    const ellipsis = "Первую бутылку выпивают молча: доктор – задумавшись, а Михаил Аверьяныч – с веселым видом.";
    const intro = "К вечеру приходит почтмейстер, Михаил Аверьяныч, единственный во всем городе человек.";
    expect(introductionScore(ellipsis, misha)).toBeLessThan(1);
    expect(introductionScore(intro, misha)).toBeGreaterThan(2);
    expect(introductionScore("Михаил Аверьяныч – почтмейстер.", misha)).toBeGreaterThan(3);
    const engine = nameStems("Docker Engine");
    expect(
      introductionScore("docker, installation, install, Docker Engine, docker editions, stable, edge", engine),
    ).toBeLessThan(1);
  });

  test("a long form's copula defines the abbreviation in parentheses after it", () => {
    const hdbr = nameStems("HDBR");
    const defined = "Head-down tilt bed rest (HDBR) is considered an excellent terrestrial model to mimic spaceflight.";
    const used = "We investigated the effects of long-term head-down tilt bed rest (HDBR) with an exercise.";
    expect(introductionScore(defined, hdbr)).toBeGreaterThan(introductionScore(used, hdbr) + 1.5);
  });

  test("a Russian term named after someone is one focus: head noun and genitive name", () => {
    expect(questionFocus("Что такое метод Качмажа?")).toEqual({ names: ["метод Качмажа"], keys: ["метод качмажа"] });
    expect(questionFocus("Кем был отец Ивана Дмитрича?")?.hop).toBe(true);
    expect(questionFocus("Кто такой доктор Рагин?")?.names).toEqual(["Рагин"]);
  });

  test("an appositive opened by an article after the name introduces it", () => {
    const m = nameStems("Marionette");
    const text = "Marionette, the framework that allows Firefox to be tested with automation, is now compatible.";
    expect(introductionScore(text, m)).toBeGreaterThan(2);
    expect(introductionScore("Marionette, the tests and the docs are done.", m)).toBeLessThan(2);
  });

  test("a possessive after the copula defines like an article", () => {
    const webmaker = nameStems("Webmaker");
    expect(introductionScore("Mozilla Webmaker is Mozilla's educational initiative.", webmaker)).toBeGreaterThan(3);
    expect(introductionScore("Webmaker is their project.", webmaker)).toBeGreaterThan(3);
    expect(introductionScore("Webmaker is Mozilla now.", webmaker)).toBeLessThan(2);
  });

  test("an abbreviation is defined by the long form before it; a name's lower-case words match any case", () => {
    const unga = nameStems("UNGA");
    expect(introductionScore("The United Nations General Assembly (UNGA) carries weight.", unga)).toBeGreaterThan(2);
    expect(introductionScore("Some body of states (UNGA) carries weight.", unga)).toBeLessThan(1);
    const pe = nameStems("Pseudomonas exotoxin A");
    expect(introductionScore("Toxins are versions of Pseudomonas Exotoxin A.", pe)).toBeGreaterThan(0);
    expect(introductionScore("Toxins are versions of pseudomonas exotoxin A.", pe)).toBe(0);
    expect(introductionScore("Two Pseudomonas exotoxin (PE)-based toxins.", pe)).toBe(0);
  });

  test("a proper name matches capitalised words only; a term any case; initials are skipped", () => {
    expect(introductionScore("And it was a red shirt.", nameStems("Red Shirt"))).toBe(0);
    expect(introductionScore("Ricin is a plant protein.", nameStems("ricin"))).toBeGreaterThan(3);
    expect(introductionScore("The late Mr. K. Natsume was a teacher.", nameStems("Natsume"))).toBeGreaterThan(3);
  });
});

function atom(id: number, content: string, type: AtomView["type"] = "text"): AtomView {
  return {
    id,
    type,
    claim: content.split(/(?<=\.)\s/u)[0],
    content,
    confidence: 0.7,
    status: "candidate",
    doc_id: 1,
    lang: "ru",
    created_at: "2026-01-01T00:00:00Z",
    citations: [],
    citation_count: 0,
  };
}

const ATOMS = [
  atom(1, "Доктор Андрей Ефимыч, о котором речь впереди, прописал холодные примочки."),
  atom(2, "Доктор Андрей Ефимыч Рагин – замечательный человек в своем роде."),
  atom(3, "– Андрей Ефимыч, вам не пора пиво пить, – спрашивает она озабоченно."),
];

/** Stand-in reads: BM25 over the name returns every atom holding its first word's stem; atoms by id from ATOMS. */
const reads = {
  atomReads: { atomsByIds: async (ids: number[]) => ATOMS.filter((a) => ids.includes(a.id)) },
  searchReads: { analyze: async (t: string) => [{ lexeme: t, tf: 1 }] },
  projection: { lexical: () => ATOMS.map((a) => ({ atomId: a.id, score: 1 })) },
} as unknown as Parameters<typeof focusOnEntities>[0];
const FILTER: AtomFilter = { status: ["candidate", "verified", "contested"] };

describe("reordering for a focus", () => {
  const fused: Ranked[] = [
    { id: 3, score: 0.03, ranks: { lexical: 1 } },
    { id: 1, score: 0.02, ranks: { lexical: 2 } },
  ];

  test("a question without a focus gets the very same list", async () => {
    expect(await focusOnEntities(reads, "Когда Андрей Ефимыч поехал в Варшаву?", fused, FILTER)).toBe(fused);
  });

  test("the introducing atom comes first, also when only the name search found it; the rest keep their order", async () => {
    const out = await focusOnEntities(reads, "Кто такой Андрей Ефимыч?", fused, FILTER);
    expect(out[0]).toEqual({ id: 2, score: 0, ranks: {} });
    expect(out.map((r) => r.id)).not.toContain(undefined);
    expect(out.filter((r) => r.id === 3)).toHaveLength(1);
  });

  test("a one-hop question moves the hit that introduces someone beside the name first, adding none", async () => {
    const hop = [
      atom(7, "Андрей Ефимыч пьет пиво и молчит."),
      atom(8, "К вечеру приходит почтмейстер, Михаил Аверьяныч, единственный приятель Андрея Ефимыча."),
    ];
    const hopReads = {
      ...reads,
      atomReads: { atomsByIds: async (ids: number[]) => hop.filter((a) => ids.includes(a.id)) },
    } as unknown as typeof reads;
    const list: Ranked[] = [
      { id: 7, score: 0.03, ranks: {} },
      { id: 8, score: 0.02, ranks: {} },
    ];
    const out = await focusOnEntities(hopReads, "Кто был приятелем Андрея Ефимыча?", list, FILTER);
    expect(out.map((r) => r.id)).toEqual([8, 7]);
  });

  test("the filter holds for atoms the focus adds", async () => {
    const out = await focusOnEntities(reads, "Кто такой Андрей Ефимыч?", fused, { ...FILTER, types: ["definition"] });
    expect(out.map((r) => r.id)).not.toContain(2);
  });
});

describe("a name nothing introduces in so many words", () => {
  const river = [
    atom(11, "I passed the stone bridge and came up to the levy of the Nozeri river."),
    atom(12, "Telling about my meeting him on the Nozeri river, I called him a fool."),
  ];
  const riverReads = {
    ...reads,
    atomReads: { atomsByIds: async (ids: number[]) => river.filter((a) => ids.includes(a.id)) },
    projection: { lexical: () => river.map((a) => ({ atomId: a.id, score: 1 })) },
  } as unknown as typeof reads;

  test("a kind noun beside the name keeps the focus on the name", () => {
    expect(questionFocus("What is the Nozeri river?")?.names).toEqual(["Nozeri"]);
    expect(questionFocus("Что такое полигон Байконур?")?.keys).toEqual(["байконур"]);
  });

  test("the document's first mention leads", async () => {
    const fused: Ranked[] = [
      { id: 12, score: 0.03, ranks: { lexical: 1 } },
      { id: 11, score: 0.02, ranks: { lexical: 2 } },
    ];
    const out = await focusOnEntities(riverReads, "What is the Nozeri river?", fused, FILTER);
    expect(out.map((r) => r.id)).toEqual([11, 12]);
  });

  test("a plain term's first use is not moved for that alone", async () => {
    const terms = [atom(21, "We studied the levy in spring."), atom(22, "Later the levy broke.")];
    const termReads = {
      ...reads,
      atomReads: { atomsByIds: async (ids: number[]) => terms.filter((a) => ids.includes(a.id)) },
      projection: { lexical: () => terms.map((a) => ({ atomId: a.id, score: 1 })) },
    } as unknown as typeof reads;
    const fused: Ranked[] = [
      { id: 22, score: 0.03, ranks: { lexical: 1 } },
      { id: 21, score: 0.02, ranks: { lexical: 2 } },
    ];
    expect(await focusOnEntities(termReads, "What is levy?", fused, FILTER)).toBe(fused);
  });
});
