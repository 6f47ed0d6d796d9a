/**
 * No quiet loss at ingest (issue 21, item 4): a text without words is refused with INVALID_INPUT on every path (core,
 * MCP, CLI, a file of a directory) instead of becoming a document no search finds; a passage citation's locator is
 * its quote's own range; text that is not valid UTF-8 leaves a warning in the ingest's result.
 */
import { describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { main } from "../../src/cli/main.ts";
import { ingest } from "../../src/core/documents/ingest.ts";
import { search } from "../../src/core/search/search.ts";
import type { CitationView } from "../../src/ports/store/atom-reads.ts";
import { capture } from "../support/capture.ts";
import { rejectsWith } from "../support/errors.ts";
import { suiteMcpClient, toolCalls } from "../support/mcp-client.ts";
import { seededDataDir, suiteServices } from "../support/services.ts";

const t = suiteServices("pglite", { chunk_chars: 100 });
const mcp = suiteMcpClient(t);
const tools = toolCalls(mcp);

const WORDLESS = ["🎉🎉🎉 🚀✨", "!!! ??? ... --- *** ###", "→ ← ↑ ↓ ⇒ ⇔ ∞ ★ ☆ ♥"];

async function documentCount(): Promise<number> {
  return (await tools.ok("memory_stats", {})).documents.total;
}

/** Every passage citation of `doc_id` (a search for `query` restricted to the document's text atoms). */
async function passageCitations(doc_id: number, query: string): Promise<CitationView[]> {
  const r = await search(t.services, { query, k: 50, mode: "lexical", doc_id, types: ["text"], log_miss: false });
  return r.hits.flatMap((h) => h.citations.filter((c) => c.doc_id === doc_id));
}

describe("a text without words is refused, not stored unfindable", () => {
  test("core ingest: INVALID_INPUT that says why; nothing is stored", async () => {
    const before = await documentCount();
    for (const text of WORDLESS) {
      const err = await rejectsWith(ingest(t.services, { text }), "INVALID_INPUT");
      expect(err.message).toContain("has no words");
      expect(err.message).toContain(Array.from(text).slice(0, 3).join(""));
      expect(err.hint).toContain("memory_store");
    }
    expect(await documentCount()).toBe(before);
  });

  test("MCP memory_ingest: an isError result naming INVALID_INPUT", async () => {
    const before = await documentCount();
    const r = await tools.call("memory_ingest", { text: WORDLESS[0] });
    expect(r.isError).toBe(true);
    expect(tools.text(r)).toContain("INVALID_INPUT");
    expect(tools.text(r)).toContain("has no words");
    expect(await documentCount()).toBe(before);
  });

  test("CLI ingest of a file: exit code of INVALID_INPUT and the reason on stderr", async () => {
    const dir = mkdtempSync(join(tmpdir(), "pegas-wordless-"));
    try {
      const file = join(dir, "emoji.txt");
      writeFileSync(file, `${WORDLESS[0]}\n`);
      const data = await seededDataDir(join(dir, "data"));
      const r = await capture(() => main(["ingest", file, "--data-dir", data, "--log-level", "warn"], () => {}));
      expect(r.code).not.toBe(0);
      expect(r.err).toContain("INVALID_INPUT");
      expect(r.err).toContain("has no words");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  test("a directory: the wordless file is an error of its own, the others are stored", async () => {
    const dir = mkdtempSync(join(tmpdir(), "pegas-wordless-dir-"));
    try {
      writeFileSync(join(dir, "a-symbols.txt"), WORDLESS[2]);
      writeFileSync(join(dir, "b-words.txt"), "Вороны зимуют в городе. Crows winter in the city.");
      const r = await ingest(t.services, { path: dir }, { trustedPath: true });
      expect(r.documents.map((d) => d.uri.endsWith("b-words.txt"))).toEqual([true]);
      expect(r.errors).toHaveLength(1);
      expect(r.errors[0]).toMatchObject({ code: "INVALID_INPUT" });
      expect(r.errors[0].source).toEndWith("a-symbols.txt");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("a wordless chunk inside a text with words: kept as evidence, and the result says so", async () => {
    const text = [
      "Ragin kept the hospital accounts. He signed them every month without reading.",
      "★ ★ ★ ★ ★ ★ ★ ★ ★ ★ ★ ★ ★ ★ ★ ★ ★ ★ ★ ★ ★ ★ ★ ★ ★ ★ ★ ★ ★ ★ ★ ★ ★ ★ ★ ★ ★ ★ ★ ★ ★ ★ ★ ★ ★",
      "Nikita the porter beat the patients. Nobody in the town spoke of it.",
    ].join("\n\n");
    const r = await ingest(t.services, { text });
    expect(r.chunks).toBe(3);
    expect(r.warnings).toContain(
      "1 chunk(s) without a letter or digit (symbols, rules, emoji) kept as evidence without an atom: search cannot find them",
    );
    expect((await passageCitations(r.doc_id!, "porter patients Ragin accounts")).length).toBe(2);
  });
});

describe("a passage citation's locator is its quote's own range", () => {
  /** The section's text between code-point offsets [start, end). */
  const cut = (text: string, start: number, end: number) => Array.from(text).slice(start, end).join("");

  test("English and Russian, several chunks, a lead without a sentence (page number, heading)", async () => {
    const text = [
      "29.",
      "",
      "Глава первая. В больничном дворе стоит небольшой флигель, окружённый целым лесом репейника. Крыша на нём ржавая.",
      "",
      "BOOK I.",
      "The ward stands in the hospital yard, among burdock and nettles. Its roof is rusty. The chimney is half fallen.",
      "",
      "😀 Emoji first. Then the patients of the ward sat by the stove and talked about the weather.",
    ].join("\n");
    const r = await ingest(t.services, { text });
    expect(r.chunks).toBeGreaterThanOrEqual(3);
    const cites = await passageCitations(r.doc_id!, "флигель репейника ward burdock patients stove");
    expect(cites.length).toBe(r.chunks);
    for (const c of cites) {
      const { char_start, char_end, line_start, line_end } = c.locator;
      expect(cut(text, char_start!, char_end!)).toBe(c.quote);
      const lines = text.split("\n");
      expect(lines.slice(line_start! - 1, line_end).join("\n")).toContain(c.quote);
    }
    // The lead skips what has fewer than three words ("29.", "Глава первая.", "BOOK I.", "😀 Emoji first."): the
    // quotes are the first real sentences, inside their chunks, and their locators follow them there.
    expect(cites.map((c) => c.quote).sort()).toEqual(
      [
        "В больничном дворе стоит небольшой флигель, окружённый целым лесом репейника.",
        "The ward stands in the hospital yard, among burdock and nettles.",
        "Then the patients of the ward sat by the stove and talked about the weather.",
      ].sort(),
    );
  });
});

describe("text that is not UTF-8 warns in the ingest result", () => {
  test("a guessed charset and a damaged UTF-8 file each leave a warning", async () => {
    const dir = mkdtempSync(join(tmpdir(), "pegas-charset-"));
    try {
      const ru = new TextEncoder().encode("Сторож Никита бьёт больных. Рагин этого не видит и не хочет видеть.");
      writeFileSync(join(dir, "damaged.txt"), new Uint8Array([...ru, 0xff, 0x20, ...ru]));
      const latin = new TextEncoder().encode("Le caf. Menu du jour: soupe, pain, fromage et ");
      writeFileSync(join(dir, "latin1.txt"), new Uint8Array([...latin, 0xe9, 0x74, 0xe9, 0x2e]));
      const damaged = await ingest(t.services, { path: join(dir, "damaged.txt") }, { trustedPath: true });
      expect(damaged.warnings).toEqual([
        "lossy decode: not valid UTF-8; 1 byte sequence(s) invalid in utf-8 replaced with U+FFFD",
      ]);
      expect((await passageCitations(damaged.doc_id!, "Никита"))[0].quote).toBe("Сторож Никита бьёт больных.");
      const guessed = await ingest(t.services, { path: join(dir, "latin1.txt") }, { trustedPath: true });
      expect(guessed.warnings.join("\n")).toMatch(/^not valid UTF-8; decoded as windows-1252/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
