import { describe, expect, test } from "bun:test";
import { extractMentions } from "../../../src/domain/entities/mentions.ts";
import { type DocumentMentions, resolveEntities } from "../../../src/domain/entities/resolve.ts";

const doc = (docId: string, text: string): DocumentMentions => ({ docId, mentions: extractMentions(text, "und") });
const byKey = (r: ReturnType<typeof resolveEntities>, key: string) => r.entities.filter((e) => e.key === key);

describe("resolveEntities", () => {
  test("a full name in one document absorbs its short forms there, with the evidence", () => {
    const r = resolveEntities([
      doc("a", "Доктор Андрей Ефимыч Рагин служил в больнице. Андрея Ефимыча любили. Рагин читал."),
      doc("b", "Андрей Ефимыч пришел к Ивану Дмитричу."),
    ]);
    const [e] = byKey(r, "андрей ефимыч рагин");
    expect(e.aliases).toEqual(["Андрей Ефимыч", "Рагин"]);
    expect(e.mentions.map((m) => m.docId)).toEqual(["a", "a", "a", "b"]);
    expect(r.merges).toContainEqual(
      expect.objectContaining({ alias: "андрей ефимыч", into: "андрей ефимыч рагин", rule: "contained-unique" }),
    );
    expect(r.merges).toContainEqual(
      expect.objectContaining({ alias: "рагин", into: "андрей ефимыч рагин", rule: "contained-unique" }),
    );
  });

  test("a colloquial and a full patronymic are one person", () => {
    const r = resolveEntities([
      doc("a", "Пришел Евгений Федорыч."),
      doc("b", "Евгений Федорович ушел, а Евгений Федорович вернулся."),
    ]);
    expect(r.entities.map((e) => [e.key, e.aliases])).toEqual([["евгений федорович", ["Евгений Федорыч"]]]);
    expect(r.merges[0].rule).toBe("patronymic-variant");
  });

  test("a surname two people share stays ambiguous with both candidates; in-document evidence still decides", () => {
    const r = resolveEntities([
      doc("a", "We met John Smith at the station."),
      doc("b", "Later Jane Smith wrote to us."),
      doc("c", "Nobody answered when Smith called."),
      doc("d", "Yesterday Jane Smith came; Smith was tired."),
    ]);
    const lone = r.entities.filter((e) => e.key === "smith");
    expect(lone).toHaveLength(1);
    expect(lone[0].candidates).toEqual(["jane smith", "john smith"]);
    expect(lone[0].mentions.map((m) => m.docId)).toEqual(["c"]);
    const [jane] = byKey(r, "jane smith");
    expect(jane.mentions.map((m) => m.docId)).toEqual(["b", "d", "d"]);
    expect(r.merges.some((m) => m.alias === "smith" && m.into === "john smith")).toBe(false);
  });

  test("a short form beside the long one in the same document joins it; elsewhere it stays apart", () => {
    const r = resolveEntities([doc("a", "Hey Caroline! That is great, Caro."), doc("b", "Thanks, Caro!")]);
    expect(byKey(r, "caroline")[0].aliases).toEqual(["Caro"]);
    expect(byKey(r, "caro")[0].mentions.map((m) => m.docId)).toEqual(["b"]);
    expect(r.merges).toEqual([
      expect.objectContaining({ alias: "caro", into: "caroline", rule: "prefix-same-document", docIds: ["a"] }),
    ]);
  });

  test("names of different kinds are not merged, and the input order does not matter", () => {
    const docs = [doc("a", "She moved to Washington State University."), doc("b", "Then Washington said nothing.")];
    const one = resolveEntities(docs);
    expect(one).toEqual(resolveEntities([...docs].reverse()));
    expect(one.merges).toEqual([]);
  });

  test("only people take aliases by containment: an institution or work inside a longer name stays apart", () => {
    const r = resolveEntities([
      doc("a", "The Mozilla Foundation funds Mozilla. Tokyo University is in Tokyo."),
      doc("b", "We saw Kazan and the Kazans."),
    ]);
    expect(r.merges).toEqual([]);
    expect(r.entities.map((e) => e.key)).toEqual([
      "kazan",
      "kazans",
      "mozilla",
      "mozilla foundation",
      "tokyo",
      "tokyo university",
    ]);
  });
});
