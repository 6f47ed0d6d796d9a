/**
 * The lexical leg's query text (src/domain/lexical-query.ts): question words the Snowball stop list misses and the
 * written endings of Russian numerals are left out; a query of nothing else is kept whole. End to end on PGlite, a
 * passage that shares only such a word with the question is no longer a lexical hit.
 */
import { describe, expect, test } from "bun:test";
import { storeAtom } from "../../src/core/knowledge/store-atom.ts";
import { search } from "../../src/core/search/search.ts";
import { lexicalQueryText } from "../../src/domain/lexical-query.ts";
import { QUESTION_WORD_FORMS, RUSSIAN_STOP_WORDS } from "../../src/domain/stopwords.ts";
import { suiteServices } from "../support/services.ts";

const words = (s: string) => s.split(/\s+/).filter(Boolean);

describe("lexicalQueryText", () => {
  test("leaves out the forms of question and pointing words, in any case and with ё", () => {
    expect(words(lexicalQueryText("В каком большом городе США расположен университет?"))).toEqual(
      words("В большом городе США расположен университет?"),
    );
    expect(words(lexicalQueryText("Через КАКИЕ два органа должен пройти закон?"))).toEqual(
      words("Через два органа должен пройти закон?"),
    );
    expect(words(lexicalQueryText("Сколько стран контролируют этот регион, и почему?"))).toEqual(
      words("стран контролируют этот регион, и ?"),
    );
    expect(words(lexicalQueryText("Чьё это было решение?"))).toEqual(words("было решение?"));
    expect(words(lexicalQueryText("Whose idea was the garden?"))).toEqual(words("idea was the garden?"));
  });

  test("keeps content words that share letters with question words", () => {
    const q = "Какао и такса из Каковского района, этимология слова";
    expect(lexicalQueryText(q)).toBe(q);
  });

  test("drops a numeral's written ending, not a word after a hyphen", () => {
    expect(lexicalQueryText("Как называлась пьеса в 1970-х годах?")).toBe("Как называлась пьеса в 1970 годах?");
    expect(lexicalQueryText("10-й серии, 90-е, 2-го мая, 5-ти лет")).toBe("10 серии, 90, 2 мая, 5 лет");
    expect(lexicalQueryText("10-летний юбилей и Су-27")).toBe("10-летний юбилей и Су-27");
  });

  test("a query of question words alone is kept whole", () => {
    expect(lexicalQueryText("Сколько?")).toBe("Сколько?");
    expect(lexicalQueryText("какие такие")).toBe("какие такие");
  });

  test("adds no word the Snowball list already holds", () => {
    expect([...QUESTION_WORD_FORMS].filter((w) => RUSSIAN_STOP_WORDS.has(w))).toEqual([]);
  });
});

describe("end to end on PGlite", () => {
  const t = suiteServices("pglite");
  const store = (claim: string) => storeAtom(t.services, { type: "text", claim });
  // A note next to a matching note gains a neighbour bonus (adapters/embedded/projection.ts): keep them apart.
  const spacer = () => store(`Погода ${Math.random().toString(36).slice(2)} стояла ясная.`);

  test("a note that shares only a question word or a numeral ending is no lexical hit", async () => {
    const answer = await store("Университет расположен в Чикаго, крупнейшем городе штата Иллинойс.");
    await spacer(); // two notes apart: out of the neighbour reach (projection.ts NEIGHBOUR_REACH)
    await spacer();
    const other = await store("Каким бы ни был ответ, в каком-то смысле все решилось само.");
    const r = await search(t.services, { query: "В каком большом городе расположен университет?", mode: "lexical" });
    expect(r.hits[0].atom_id).toBe(answer.atom_id);
    expect(r.hits.map((h) => h.atom_id)).not.toContain(other.atom_id);

    await spacer();
    const play = await store("Пьеса «Вишнёвый сад» шла на сцене театра в 1970-х годах.");
    await spacer();
    await spacer();
    const eighties = await store("В 80-х все было иначе.");
    const p = await search(t.services, { query: "Как называлась пьеса в 1970-х годах?", mode: "lexical" });
    expect(p.hits[0].atom_id).toBe(play.atom_id);
    expect(p.hits.map((h) => h.atom_id)).not.toContain(eighties.atom_id);
  });
});
