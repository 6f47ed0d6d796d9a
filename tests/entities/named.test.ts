/**
 * Entities a language model named → mentions (domain/entities/named.ts): the verbatim quote as whole words, another
 * inflected form of the same name through the heuristic's key, the model's kind and canonical name on both, the
 * longer of overlapping spans, and nothing for a name the model did not give.
 */
import { describe, expect, test } from "bun:test";
import { fitMention } from "../../src/domain/entities/atom-mentions.ts";
import { NAMED_MENTION_CONFIDENCE, namedEntityExtractor } from "../../src/domain/entities/named.ts";

const RU =
  "Доктор Андрей Ефимыч Рагин служил в больнице. Хоботов завидовал Андрею Ефимычу. Рагинский сад был пуст. Повесть «Палата № 6» написал Чехов.";

describe("namedEntityExtractor", () => {
  const extract = namedEntityExtractor([
    { kind: "person", name: "Андрей Ефимыч Рагин", quote: "Андрей Ефимыч Рагин" },
    { kind: "person", name: "Андрей Ефимыч Рагин", quote: "Андрей Ефимыч" },
    { kind: "person", name: "Рагин", quote: "Рагин" },
    { kind: "work", name: "Палата № 6", quote: "Палата № 6" },
    { kind: "person", name: "  ", quote: "Чехов" },
  ]);
  const found = extract(RU, "ru");

  test("quotes as whole words, inflected forms by key, the model's kind and name, longest span first", () => {
    for (const m of found) expect(fitMention(RU, m)).toBe(true);
    expect(found.map((m) => [m.surface, m.kind, m.name])).toEqual([
      ["Андрей Ефимыч Рагин", "person", "Андрей Ефимыч Рагин"],
      ["Андрею Ефимычу", "person", "Андрей Ефимыч Рагин"],
      ["Палата № 6", "work", "Палата № 6"],
    ]);
    expect(found.every((m) => m.key === m.name.toLowerCase() && m.confidence === NAMED_MENTION_CONFIDENCE)).toBe(true);
  });

  test("a name the model did not give (Хоботов, Чехов: its entry has a blank name) is not a mention", () => {
    expect(found.some((m) => /Хоботов|Чехов|Рагинский/u.test(m.surface))).toBe(false);
  });

  test("English: a quote inside a longer word is not a mention", () => {
    const en = namedEntityExtractor([{ kind: "software", name: "Git", quote: "Git" }]);
    expect(en("GitHub hosts Git repositories; git is lower case.", "en").map((m) => m.start)).toEqual([13]);
  });
});
