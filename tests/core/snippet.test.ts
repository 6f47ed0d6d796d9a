/** Snippets (src/core/search/snippet.ts): the answering sentences, Russian and English, terms marked in bold. */
import { describe, expect, test } from "bun:test";
import { markTerms, queryTerms, snippet, termWeights, textUnits } from "../../src/core/search/snippet.ts";

const RU =
  "В больничном дворе стоит небольшой флигель. Иван Дмитрич Громов, бывший судебный пристав, страдает манией " +
  "преследования. Он лежит на постели.\nСторож Никита бьет больных по лицу.";
const EN = "The thermistor was inserted 5 cm past the\nanal sphincter. Data were collected on day 7.\n\nThe end.";

describe("snippets", () => {
  test("the sentence that answers, not the passage's opening; inflected Russian words match", () => {
    const terms = queryTerms("Кем был Громов до болезни, судебным приставом?");
    const units = textUnits(RU);
    expect(units).toHaveLength(4);
    const s = snippet(units, terms, termWeights(terms, [units]), 200);
    expect(s.text).toStartWith("… Иван Дмитрич Громов");
    expect(s.cut).toBe(true);
    expect(markTerms(s.text, terms)).toContain("**Громов**");
    expect(markTerms(s.text, terms)).toContain("**судебный пристав**");
  });

  test("hard-wrapped English joins its lines into sentences; a long unit is cut around its first term", () => {
    const terms = queryTerms("Where was the thermistor inserted?");
    const units = textUnits(EN);
    expect(units[0]).toBe("The thermistor was inserted 5 cm past the anal sphincter.");
    const s = snippet(units, terms, termWeights(terms, [units]), 30);
    expect(s.text).toContain("thermistor");
    expect(s.text.length).toBeLessThanOrEqual(32);
  });

  test("a lead the reader sees already is left out; table rows stay whole", () => {
    const terms = queryTerms("founded");
    const units = textUnits("Table: Mozilla\n| Industry | Software |\n| --- | --- |\n| Founded | 1998 |");
    expect(units).toEqual(["Table: Mozilla", "| Industry | Software |", "| Founded | 1998 |"]);
    expect(snippet(units, terms, termWeights(terms, [units]), 100, "Table: Mozilla").text).toBe("… | Founded | 1998 |");
  });

  test("a best unit of exactly the size cap is still shown (it once left nothing chosen and threw)", () => {
    const terms = queryTerms("thermistor");
    const units = ["The thermistor was inserted.", "Data were collected on day 7."];
    const s = snippet(units, terms, termWeights(terms, [units]), units[0].length);
    expect(s.text).toContain("thermistor");
    expect(s.text.length).toBeLessThanOrEqual(units[0].length + 2);
  });
});
