/**
 * A passage's claim is its first real sentence, also when the source is hard-wrapped (Project Gutenberg texts wrap at
 * ≈ 70 characters): a line break inside a sentence does not end the claim, while headings, blank lines and list
 * items still do.
 */
import { describe, expect, test } from "bun:test";
import { passageClaim } from "../../src/core/documents/distill.ts";

describe("passageClaim on hard-wrapped text", () => {
  test("a sentence wrapped before a lower-case word is claimed whole", () => {
    expect(passageClaim("This new boarding\nhouse was a big one. Then we left.")).toBe(
      "This new boarding house was a big one.",
    );
    expect(passageClaim('"Just one more," said the\nold woman. Then.')).toBe('"Just one more," said the old woman.');
    expect(passageClaim("Палата номер шесть стоит\nв больничном дворе. Дальше.")).toBe(
      "Палата номер шесть стоит в больничном дворе.",
    );
  });

  test("a long wrapped line goes on into a capitalised next line", () => {
    const text =
      "Because of an hereditary recklessness, I have been playing always a losing\nGame since my childhood. More.";
    expect(passageClaim(text)).toBe(
      "Because of an hereditary recklessness, I have been playing always a losing Game since my childhood.",
    );
  });

  test("headings, paragraphs and list items still end the claim", () => {
    expect(passageClaim("The Boarding House\nIt was a fine day and we went.")).toBe("The Boarding House");
    expect(passageClaim("A heading of three words\n\nthe body text.")).toBe("A heading of three words");
    expect(passageClaim("- first item of a list that is rather long for one line\n- second item here")).toBe(
      "- first item of a list that is rather long for one line",
    );
    expect(passageClaim("CHAPTER I\n\nHe was a boy who went to school.")).toBe("He was a boy who went to school.");
  });
});
