/**
 * Progress notifications of memory_ingest as an MCP client receives them (SDK client with a progress token, in-memory
 * transport, embedded database): a directory of real pages (shared/fixtures/html) and a single large file (Chekhov's
 * «Палата № 6»). Across every phase (listing, parse, distill, embed, write) `progress` strictly increases, `total`
 * is absent until known and never lowered, and the last notification is at the total.
 */
import { describe, expect, test } from "bun:test";
import { suiteMcpClient } from "../support/mcp-client.ts";
import { fixture, suiteServices } from "../support/services.ts";

const t = suiteServices("pglite", { ingest_roots: [fixture("")] });
const mcp = suiteMcpClient(t);

type Note = { progress: number; total: number | undefined; message: string };

/** Calls memory_ingest on `path` and returns every progress notification, in order. */
async function ingestNotes(path: string): Promise<Note[]> {
  const notes: Note[] = [];
  const r = await mcp.client.callTool({ name: "memory_ingest", arguments: { path } }, undefined, {
    onprogress: (p) => notes.push({ progress: p.progress, total: p.total, message: String(p.message) }),
    timeout: 120_000,
  });
  expect(r.isError).toBeFalsy();
  return notes;
}

/** Strictly increasing progress; a total, once sent, in every later notification, never lowered, never below it. */
function expectForwardOnly(notes: Note[]): void {
  for (let i = 1; i < notes.length; i++) {
    expect(notes[i].progress).toBeGreaterThan(notes[i - 1].progress);
    const before = notes[i - 1].total;
    if (before !== undefined) expect(notes[i].total).toBeGreaterThanOrEqual(before);
  }
  for (const n of notes) if (n.total !== undefined) expect(n.total).toBeGreaterThanOrEqual(n.progress);
  const last = notes.at(-1)!;
  expect(last.progress).toBe(last.total!);
}

/** The index of the first notification whose message starts with `phase:`. */
const firstOf = (notes: Note[], phase: string) => notes.findIndex((n) => n.message.startsWith(`${phase}:`));

describe("memory_ingest progress over MCP", () => {
  test("a directory: the listing without a total, then one count over every file and phase", async () => {
    const notes = await ingestNotes(fixture("html"));
    expect(notes[0]).toMatchObject({ progress: 0, total: undefined });
    expect(notes[0].message).toStartWith("list: ");
    expectForwardOnly(notes);
    // Phase changes of a directory are throttled (100 ms), so how many arrive depends on the machine's speed.
    expect(notes.length).toBeGreaterThanOrEqual(4);
    expect(new Set(notes.map((n) => n.message.split(/[: ]/)[0])).size).toBeGreaterThanOrEqual(3);
    expect(notes.at(-1)!.total).toBe(1 + 4 * 1000);
  }, 120_000);

  test("a single large file: the total known at once, distill then embed without restarting", async () => {
    const notes = await ingestNotes(fixture("text/ru_chekhov_palata_no6.txt"));
    expect(notes[0].total).toBeDefined();
    expectForwardOnly(notes);
    const distill = firstOf(notes, "distill");
    const embed = firstOf(notes, "embed");
    const write = firstOf(notes, "write");
    expect(distill).toBeGreaterThan(-1);
    expect(embed).toBeGreaterThan(distill);
    expect(write).toBeGreaterThan(embed);
  }, 120_000);
});
