import { describe, expect, test } from "bun:test";
import { extractMentions } from "../../../src/domain/entities/mentions.ts";
import type { EntityMention } from "../../../src/domain/entities/types.ts";

const brief = (ms: EntityMention[]) => ms.map((m) => [m.surface, m.name, m.kind]);

describe("extractMentions: Russian names in any case", () => {
  test("every case of «Андрей Ефимыч» gives one name and key", () => {
    const text =
      "Андрей Ефимыч вошел. Он пришел к Андрею Ефимычу и застал Андрея Ефимыча за книгой, а потом говорил с Андреем Ефимычем.";
    const ms = extractMentions(text, "ru");
    expect(ms.map((m) => m.surface)).toEqual(["Андрей Ефимыч", "Андрею Ефимычу", "Андрея Ефимыча", "Андреем Ефимычем"]);
    expect(new Set(ms.map((m) => m.key))).toEqual(new Set(["андрей ефимыч"]));
    expect(ms.every((m) => m.name === "Андрей Ефимыч" && m.kind === "person")).toBe(true);
    for (const m of ms) expect(text.slice(m.start, m.end)).toBe(m.surface);
  });
  test("full patronymics, feminine names and a surname after them", () => {
    expect(brief(extractMentions("Письмо Ивану Дмитриевичу Громову пришло от Анны Сергеевны.", "ru"))).toEqual([
      ["Ивану Дмитриевичу Громову", "Иван Дмитриевич Громов", "person"],
      ["Анны Сергеевны", "Анна Сергеевна", "person"],
    ]);
  });
  test("a title before a lower-case name cue and sentence-initial ordinary words skipped", () => {
    const ms = extractMentions("Совершенно верно. Потом доктор Хоботов ушел, а Никиту позвали.", "ru");
    expect(brief(ms)).toEqual([
      ["Хоботов", "Хоботов", "person"],
      ["Никиту", "Никита", "person"],
    ]);
  });
});

describe("extractMentions: English", () => {
  test("possessives keep the surface and drop the ending from the name", () => {
    const [m] = extractMentions("We stayed at Alice's house.", "en");
    expect([m.surface, m.name, m.key]).toEqual(["Alice's", "Alice", "alice"]);
  });
  test("initials stay inside one name, in both scripts", () => {
    expect(extractMentions("The book by J. R. R. Tolkien sold well.", "en").map((m) => m.name)).toEqual([
      "J. R. R. Tolkien",
    ]);
    expect(extractMentions("Рассказ написал А. П. Чехов.", "ru").map((m) => m.name)).toEqual(["А. П. Чехов"]);
  });
  test("titles are cues, not part of the name", () => {
    expect(brief(extractMentions("Yesterday Dr. Smith met Mr. Hotta.", "en"))).toEqual([
      ["Smith", "Smith", "person"],
      ["Hotta", "Hotta", "person"],
    ]);
  });
  test("sentence-initial ordinary words and headings are no names", () => {
    expect(extractMentions("Nonsense, I thought. Besides, it was late. However, nobody came.", "en")).toEqual([]);
    expect(extractMentions("Install Engine Prerequisites", "en")).toEqual([]);
  });
});

describe("extractMentions: kinds", () => {
  test("organisations, software, places and works by their cues", () => {
    const text = "She joined Acme Inc. in Tokyo and used the React library. Он работает в компании «Ромашка».";
    expect(brief(extractMentions(text, "und"))).toEqual([
      ["Acme Inc", "Acme Inc", "organisation"],
      ["Tokyo", "Tokyo", "place"],
      ["React", "React", "software"],
      ["Ромашка", "Ромашка", "organisation"],
    ]);
    expect(brief(extractMentions("Чехов написал рассказ «Палата № 6».", "ru"))).toContainEqual([
      "Палата № 6",
      "Палата № 6",
      "work",
    ]);
  });
});
