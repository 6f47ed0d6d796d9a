/**
 * Snippets (src/core/search/snippet.ts, text-units.ts): the answering sentences, Russian and English, terms marked
 * in bold, Markdown block syntax left out.
 */
import { describe, expect, test } from "bun:test";
import { markTerms, queryTerms, snippet, termWeights, textUnits } from "../../src/core/search/snippet.ts";
import { plainLine } from "../../src/core/search/text-units.ts";

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

  test("Markdown block syntax is read, not shown: headings, bullets, fences, comments, quotes, in both languages", () => {
    const en =
      "# pegas-memory\n\nThe memory of an agent.\n\n## Quick start ##\n<!-- docs-test: run -->\n```sh\n" +
      "# build it\nnpm ci\n```\n- **Search**: hybrid\n  and cited\n* Code: symbols\n1. First step\n> Quoted text.\n\n---\n";
    expect(textUnits(en)).toEqual([
      "pegas-memory:",
      "The memory of an agent.",
      "Quick start:",
      "# build it",
      "npm ci",
      "**Search**: hybrid and cited",
      "Code: symbols",
      "First step",
      "Quoted text.",
    ]);
    const ru = "Расписание\n==========\nНаблюдения идут с октября.\n\n## Итоги.\n+ Купол открыт\n+ Камера включена";
    expect(textUnits(ru)).toEqual([
      "Расписание:",
      "Наблюдения идут с октября.",
      "Итоги.",
      "Купол открыт",
      "Камера включена",
    ]);
    // "#tag" and a "#" inside a sentence are no headings; a wrapped line may begin with a year; code passes whole.
    expect(textUnits("It was founded in\n1998. It grew.\n\n2. Second")).toEqual([
      "It was founded in 1998.",
      "It grew.",
      "Second",
    ]);
    expect(textUnits("#tag is no heading. Issue #5 is.")).toEqual(["#tag is no heading.", "Issue #5 is."]);
    expect(textUnits("# comment\nx = 1", true)).toEqual(["# comment", "x = 1"]);
    expect(plainLine("- **Search**: hybrid")).toBe("**Search**: hybrid");
    expect(plainLine("## Итоги\nНаблюдения идут.")).toBe("Итоги: Наблюдения идут.");
  });

  test("a lead written as a list item is still left out", () => {
    const terms = queryTerms("cited");
    const units = textUnits("- Search is hybrid.\n- Hits are cited.");
    expect(snippet(units, terms, termWeights(terms, [units]), 100, "- Search is hybrid.").text).toBe("Hits are cited.");
  });

  test("a best unit of exactly the size cap is still shown (it once left nothing chosen and threw)", () => {
    const terms = queryTerms("thermistor");
    const units = ["The thermistor was inserted.", "Data were collected on day 7."];
    const s = snippet(units, terms, termWeights(terms, [units]), units[0].length);
    expect(s.text).toContain("thermistor");
    expect(s.text.length).toBeLessThanOrEqual(units[0].length + 2);
  });
});
