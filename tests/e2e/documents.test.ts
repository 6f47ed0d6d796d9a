/**
 * Every fixture document (PDF, EPUB, HTML, text) through the compiled executable over MCP: ingested with the
 * expected sections, and found by memory_search with the right locator (page, chapter or lines); the scanned PDF
 * yields its warning and no atoms; a directory ingests every supported file in it.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { isolatedBinary, isolatedEnv, seededDataDir, sharedFixture } from "../support/binary.ts";

type Locator = { page?: number; chapter?: string; chapter_index?: number; line_start?: number };
type Hit = { content: string; citations: Array<{ uri: string; kind: string; locator: Locator }> };
type Doc = {
  kind: string;
  stored: boolean;
  sections: number;
  atoms_created: number;
  warnings: string[];
  doc_id: number | null;
};

interface Case {
  file: string;
  kind: string;
  sections: number;
  query: string;
  contains: string;
  locator: (l: Locator) => boolean;
}

const CASES: Case[] = [
  {
    file: "pdf/en_paper_npj_2020_two_column_ligatures.pdf",
    kind: "pdf",
    sections: 6,
    query: "circadian misalignment spaceflight missions",
    contains: "spaceflight",
    locator: (l) => l.page === 1,
  },
  {
    file: "pdf/en_paper_mdpi_toxins_2016_ligatures.pdf",
    kind: "pdf",
    sections: 28,
    query: "efficacy of botulinum toxin",
    contains: "fficacy",
    locator: (l) => (l.page ?? 0) >= 1,
  },
  {
    file: "pdf/en_paper_plosmed_2022_single_column.pdf",
    kind: "pdf",
    sections: 18,
    query: "political rationale aims",
    contains: "olitical",
    locator: (l) => (l.page ?? 0) >= 1,
  },
  {
    file: "pdf/ru_paper_iccsde_2024_geoacoustics.pdf",
    kind: "pdf",
    sections: 8,
    query: "Обратные задачи геоакустики",
    contains: "Обратные задачи геоакустики",
    locator: (l) => l.page === 1,
  },
  {
    file: "epub/en_epub3_alice_in_wonderland.epub",
    kind: "epub",
    sections: 12,
    query: "Alice rabbit-hole falling down",
    contains: "Rabbit",
    locator: (l) => !!l.chapter && (l.chapter_index ?? 0) >= 1,
  },
  {
    file: "epub/en_epub2_leaves_of_grass_gutenberg.epub",
    kind: "epub",
    sections: 382,
    query: "I celebrate myself, and sing myself",
    contains: "celebrate myself",
    locator: (l) => !!l.chapter && (l.chapter_index ?? 0) >= 1,
  },
  {
    file: "html/en_wikipedia_mozilla.html",
    kind: "web",
    sections: 1,
    query: "Mozilla Foundation non-profit",
    contains: "Mozilla",
    locator: (l) => (l.line_start ?? 0) >= 1,
  },
  {
    file: "html/en_blog_v8dev_emscripten_standalone_wasm.html",
    kind: "web",
    sections: 1,
    query: "standalone WebAssembly binaries Emscripten",
    contains: "standalone",
    locator: (l) => (l.line_start ?? 0) >= 1,
  },
  {
    file: "html/en_blog_firefox_nightly_issue85.html",
    kind: "web",
    sections: 1,
    query: "Firefox Nightly friends of the Firefox team",
    contains: "Firefox",
    locator: (l) => (l.line_start ?? 0) >= 1,
  },
  {
    file: "html/en_docs_docker_install_engine.html",
    kind: "web",
    sections: 1,
    query: "install Docker Engine repository",
    contains: "Docker Engine",
    locator: (l) => (l.line_start ?? 0) >= 1,
  },
  {
    file: "text/ru_chekhov_palata_no6.txt",
    kind: "text",
    sections: 1,
    query: "больничная палата",
    contains: "палат",
    locator: (l) => (l.line_start ?? 0) >= 1,
  },
  {
    file: "text/en_gutenberg_8868_botchan.txt",
    kind: "text",
    sections: 1,
    query: "mathematics teacher middle school",
    contains: "teacher",
    locator: (l) => (l.line_start ?? 0) >= 1,
  },
];

describe("every fixture through the compiled executable", () => {
  let dir: string;
  let client: Client;

  beforeAll(async () => {
    const iso = await isolatedBinary();
    dir = iso.dir;
    await seededDataDir(join(dir, "data", "pegas-memory")); // the default data dir, created and migrated
    const transport = new StdioClientTransport({
      command: iso.bin,
      cwd: dir,
      env: isolatedEnv(dir, { PEGAS_INGEST_ROOTS: sharedFixture("") }),
      stderr: "ignore",
    });
    client = new Client({ name: "docs", version: "1" });
    await client.connect(transport);
  }, 120_000);
  afterAll(async () => {
    await client?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  async function call(name: string, args: Record<string, unknown>) {
    const r = await client.callTool({ name, arguments: args }, undefined, { timeout: 120_000 });
    if (r.isError) throw new Error(JSON.stringify(r.content));
    return r.structuredContent as Record<string, unknown>;
  }

  for (const c of CASES) {
    test(`${c.file}: ${c.sections} section(s), found with its locator`, async () => {
      const r = await call("memory_ingest", { path: sharedFixture(c.file), response_format: "detailed" });
      const d = (r.documents as Doc[])[0];
      expect(d).toMatchObject({ kind: c.kind, stored: true, sections: c.sections });
      expect(d.atoms_created).toBeGreaterThan(0);
      const hits = (
        await call("memory_search", { query: c.query, k: 5, doc_id: d.doc_id, response_format: "detailed" })
      ).hits as Hit[];
      const hit = hits.find((h) => h.content.includes(c.contains));
      expect(hit).toBeDefined();
      expect(hit!.citations[0].uri).toEndWith(c.file.split("/")[1]);
      expect(c.locator(hit!.citations[0].locator)).toBe(true);
    }, 120_000);
  }

  test("the scanned PDF yields its warning and no atoms", async () => {
    const r = await call("memory_ingest", { path: sharedFixture("pdf/en_scanned_image_only_huckfinn_p22.pdf") });
    expect((r.documents as Doc[])[0]).toMatchObject({ stored: false, atoms_created: 0 });
    expect((r.documents as Doc[])[0]).not.toHaveProperty("doc_id");
    expect((r.warnings as string[]).join(" ")).toContain("no text layer: scanned? OCR is not available");
  }, 60_000);

  test("a directory ingests every supported file; unchanged ones change nothing", async () => {
    const r = await call("memory_ingest", { path: sharedFixture("html") });
    const docs = r.documents as Array<Doc & { unchanged: boolean }>;
    expect(docs.length).toBe(4);
    expect(docs.every((d) => d.unchanged)).toBe(true);
    expect(r.errors).toEqual([]);
  }, 60_000);
});
