/**
 * End to end: the compiled executable, copied alone into an empty directory, driven by the MCP SDK's Client over
 * stdio on the embedded default (PGlite), with real fixtures; plus the raw stdout hygiene and stdin-EOF exit.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { rmSync } from "node:fs";
import { dirname } from "node:path";
import { isolatedBinary, isolatedEnv, sharedFixture } from "../support/binary.ts";
import { effectiveHints } from "../../src/mcp/listing.ts";

const CHEKHOV = sharedFixture("text/ru_chekhov_palata_no6.txt");
const BOTCHAN = sharedFixture("text/en_gutenberg_8868_botchan.txt");

type Hit = {
  atom_id: number;
  content: string;
  citations: Array<{ uri: string; title: string; locator: { line_start?: number; line_end?: number } }>;
};

describe("MCP over stdio, compiled executable, embedded default", () => {
  let dir: string;
  let client: Client;
  let stderr = "";

  beforeAll(async () => {
    const iso = await isolatedBinary();
    dir = iso.dir;
    const transport = new StdioClientTransport({
      command: iso.bin,
      args: [],
      cwd: dir,
      env: isolatedEnv(dir, { PEGAS_INGEST_ROOTS: dirname(CHEKHOV) }),
      stderr: "pipe",
    });
    transport.stderr?.on("data", (d) => (stderr += String(d)));
    client = new Client({ name: "e2e", version: "1" });
    await client.connect(transport);
  }, 120_000);

  afterAll(async () => {
    await client?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test("lists the tools with schemas and annotations", async () => {
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(["memory_search", "memory_store", "memory_ingest", "memory_stats"]));
    for (const t of tools) {
      expect(t.inputSchema.type).toBe("object");
      expect(t.outputSchema?.type).toBe("object");
      expect(effectiveHints(t.annotations).readOnlyHint).toBeBoolean();
      expect(t.description!.length).toBeGreaterThan(40);
    }
  });

  test("ingests the Chekhov fixture and finds it by Russian queries with line locators", async () => {
    const ing = await client.callTool({ name: "memory_ingest", arguments: { path: CHEKHOV } });
    expect(ing.isError).toBeFalsy();
    expect((ing.structuredContent as { atoms_created: number }).atoms_created).toBeGreaterThan(60);
    for (const query of ["больничная палата", "палата", "больницы", "Рагин"]) {
      const r = await client.callTool({
        name: "memory_search",
        arguments: { query, k: 5, response_format: "detailed" },
      });
      expect(r.isError).toBeFalsy();
      const hits = (r.structuredContent as { hits: Hit[] }).hits;
      expect(hits.length).toBeGreaterThan(0);
      const c = hits[0].citations[0];
      expect(c.uri).toEndWith("ru_chekhov_palata_no6.txt");
      expect(c.locator.line_start).toBeGreaterThan(0);
      expect(c.locator.line_end).toBeGreaterThanOrEqual(c.locator.line_start!);
    }
  }, 120_000);

  test("an English query on the Botchan text", async () => {
    const ing = await client.callTool({ name: "memory_ingest", arguments: { path: BOTCHAN } });
    expect(ing.isError).toBeFalsy();
    const r = await client.callTool({
      name: "memory_search",
      arguments: {
        query: "mathematics teacher at the middle school in the country",
        k: 3,
        response_format: "detailed",
      },
    });
    const hits = (r.structuredContent as { hits: Hit[] }).hits;
    expect(hits[0].citations[0].uri).toEndWith("en_gutenberg_8868_botchan.txt");
    expect(hits[0].citations[0].locator.line_start).toBeGreaterThan(0);
  }, 120_000);

  test("stats count what was stored; errors are isError results with a hint", async () => {
    const s = await client.callTool({ name: "memory_stats", arguments: {} });
    const st = s.structuredContent as {
      documents: { total: number };
      atoms: { total: number };
      store: { backend: string };
    };
    expect(st.documents.total).toBe(2);
    expect(st.atoms.total).toBeGreaterThan(200);
    expect(st.store.backend).toBe("pglite");
    const bad = await client.callTool({ name: "memory_ingest", arguments: { path: "/etc/passwd" } });
    expect(bad.isError).toBe(true);
    const text = (bad.content as Array<{ text: string }>)[0].text;
    expect(text).toContain("INVALID_INPUT");
    expect(text).toContain("PEGAS_INGEST_ROOTS");
    expect(text).not.toMatch(/at .*\.ts:\d+|SELECT|INSERT/);
  }, 60_000);

  test("nothing but warnings on stderr", () => {
    expect(stderr).not.toContain('"level":"error"');
  });
});
