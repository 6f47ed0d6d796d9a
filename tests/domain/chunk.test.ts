import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { chunkText } from "../../src/domain/chunk.ts";
import { fixturePath } from "../support/shared.ts";
import { sanitizeText } from "../../src/domain/text.ts";

const fixture = (name: string) => sanitizeText(readFileSync(fixturePath(`text/${name}`), "utf8")).text;

/** Offsets are code points: slicing the code-point array must give back the chunk text. */
function expectOffsetsExact(text: string, chunks: ReturnType<typeof chunkText>) {
  const cps = Array.from(text);
  for (const c of chunks) expect(cps.slice(c.charStart, c.charEnd).join("")).toBe(c.text);
}

describe("chunkText", () => {
  test("Russian one-paragraph-per-line text: chunks near target, exact offsets, line locators", () => {
    const text = fixture("ru_chekhov_palata_no6.txt");
    const chunks = chunkText(text, { target: 1200, lang: "ru" });
    expect(chunks.length).toBeGreaterThan(60);
    for (const c of chunks.slice(0, -1)) expect(c.text.length).toBeLessThanOrEqual(1200 * 1.3 + 1);
    expectOffsetsExact(text, chunks);
    const lines = text.split("\n");
    for (const c of chunks) {
      expect(c.lineStart).toBeLessThanOrEqual(c.lineEnd);
      expect(lines[c.lineStart - 1]).toContain(c.text.split("\n")[0].slice(0, 30));
    }
    expect(chunks.map((c) => c.ord)).toEqual(chunks.map((_, i) => i));
  });

  test("hard-wrapped English text breaks at sentence or paragraph ends, not at soft line breaks", () => {
    const text = fixture("en_gutenberg_8868_botchan.txt");
    const chunks = chunkText(text, { target: 1200, lang: "en" });
    expectOffsetsExact(text, chunks);
    const endsAtSentence = chunks.filter((c) => /[.!?"'”’)\]]$/.test(c.text)).length;
    expect(endsAtSentence / chunks.length).toBeGreaterThan(0.9);
  });

  test("a 1 MB single line with no spaces is cut, never inside a code point", () => {
    const text = "я".repeat(500_000) + "😀".repeat(250_000);
    const chunks = chunkText(text, { target: 1200 });
    expect(chunks.reduce((n, c) => n + c.text.length, 0)).toBe(text.length);
    for (const c of chunks) expect(c.text.isWellFormed()).toBe(true);
    expectOffsetsExact(text, chunks);
  });

  test("emoji ZWJ sequences stay whole at chunk edges", () => {
    const family = "👨‍👩‍👧‍👦";
    const chunks = chunkText(family.repeat(300), { target: 100 });
    for (const c of chunks) {
      expect(c.text.startsWith(family)).toBe(true);
      expect(c.text.endsWith(family)).toBe(true);
    }
  });

  test("whitespace-only text gives no chunks", () => {
    expect(chunkText(" \n\n \t ", { target: 100 })).toEqual([]);
  });
});
