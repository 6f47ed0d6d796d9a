/**
 * The plan of an ingest's supersessions (src/core/documents/supersede-ingest.ts) over a stand-in store: pairs within
 * the documents and against stored atoms, refs by position, each plan's share; and its cost shape — ONE round trip
 * analyses every subject, each subject is looked up once in the BM25 index with a capped share of candidates, and
 * ONE read fetches the candidates.
 */
import { describe, expect, test } from "bun:test";
import { planIngestSupersessions, splitByPlan } from "../../src/core/documents/supersede-ingest.ts";
import { sha256Hex } from "../../src/domain/hash.ts";
import type { PlannedAtom } from "../../src/ports/store/atom-writes.ts";
import type { SupersessionSubject } from "../../src/ports/store/supersession.ts";

function planned(
  content: string,
  observedAt?: string,
  type: "fact" | "code" | "text" = "fact",
  metadata: Record<string, unknown> = {},
): PlannedAtom {
  return {
    atom: {
      type,
      claim: content,
      content,
      searchText: content,
      contentHash: sha256Hex(content),
      confidence: 0.5,
      lang: "en",
      metadata,
      vector: new Float32Array(4),
      ...(observedAt ? { time: { observedAt } } : {}),
    },
    citation: { locator: {}, quote: content },
  };
}

/**
 * Stand-ins for the store, the text analysis and the BM25 projection: a subject phrase analyses to one lexeme (itself)
 * and finds the `stored` atoms given for it; every call is recorded.
 */
function store(stored: Array<{ subject: string; atom: SupersessionSubject }>) {
  const calls = { analyze: [] as string[][], lexical: [] as Array<{ lexeme: string; k: number }>, reads: 0 };
  return {
    calls,
    searchReads: {
      analyzeMany: async (ts: string[]) => {
        calls.analyze.push(ts);
        return ts.map((t) => [{ lexeme: t, tf: 1 }]);
      },
    },
    projection: {
      sync: async () => 0,
      lexical: (lx: Array<{ lexeme: string }>, k: number) => {
        calls.lexical.push({ lexeme: lx[0].lexeme, k });
        return stored.filter((x) => x.subject === lx[0].lexeme).map((x) => ({ atomId: x.atom.id, score: 1 }));
      },
    },
    supersession: {
      supersessionSubjects: async (ids: number[]) => {
        calls.reads++;
        return ids.flatMap((id) => stored.filter((x) => x.atom.id === id).map((x) => x.atom));
      },
    },
  };
}

const storedAtom = (id: number, content: string, observedAt: string, passage = false): SupersessionSubject => ({
  id,
  type: passage ? "text" : "fact",
  content,
  passage,
  status: "candidate",
  observedAt,
  eventStart: null,
  createdAt: observedAt,
  keptApart: [],
});

describe("an ingest's supersessions", () => {
  test("against a stored atom and within the document; also-works-at and code supersede nothing", async () => {
    const s = store([{ subject: "alice", atom: storedAtom(7, "Alice works at Acme.", "2024-01-15T00:00:00.000Z") }]);
    const atoms = [
      planned("Alice now works at Globex.", "2025-03-10T00:00:00.000Z"),
      planned("In 2019 Dana lived in Porto.", "2025-03-10T00:00:00.000Z"),
      planned("Since 2022 Dana lives in Lisbon.", "2025-03-10T00:00:00.000Z"),
      planned("Bob also works at Initech.", "2025-03-10T00:00:00.000Z"),
      planned("Alice works at Hooli.", "2025-03-10T00:00:00.000Z", "code"),
    ];
    const out = await planIngestSupersessions(s, atoms);
    expect(out).toEqual([
      { newer: { planned: 2 }, older: { planned: 1 }, reason: expect.stringContaining("residence") },
      { newer: { planned: 0 }, older: { atomId: 7 }, reason: expect.stringContaining("employer") },
    ]);
    expect(splitByPlan(out, [2, 3])).toEqual([[out[1]], [out[0]]]);
  });

  test("an old event reported later is the older side; Russian too", async () => {
    const s = store([{ subject: "андрей", atom: storedAtom(3, "Андрей живёт в Казани.", "2020-03-01T00:00:00.000Z") }]);
    const out = await planIngestSupersessions(s, [
      planned("Андрей теперь живёт в Москве.", "2023-09-01T00:00:00.000Z"),
      planned("В 2015 году Андрей жил в Самаре.", "2023-09-01T00:00:00.000Z"),
    ]);
    expect(out).toContainEqual({ newer: { planned: 0 }, older: { atomId: 3 }, reason: expect.any(String) });
    expect(out).toContainEqual({ newer: { planned: 0 }, older: { planned: 1 }, reason: expect.any(String) });
    expect(out.some((p) => p.newer.planned === 1)).toBe(false);
  });

  test("a chunk's whole passage neither supersedes nor is superseded, stored or planned", async () => {
    const older = "Alice works at Acme. The office is in Leeds. Bob runs the lab.";
    const s = store([{ subject: "alice", atom: storedAtom(9, older, "2024-01-15T00:00:00.000Z", true) }]);
    const out = await planIngestSupersessions(s, [
      planned("Alice now works at Globex.", "2025-03-10T00:00:00.000Z"),
      planned("Alice now works at Initech. Carol paints.", "2025-04-10T00:00:00.000Z", "text", { passage: true }),
    ]);
    expect(out).toEqual([]);
    const fact = store([{ subject: "alice", atom: storedAtom(9, "Alice works at Acme.", "2024-01-15T00:00:00.000Z") }]);
    expect(
      await planIngestSupersessions(fact, [planned("Alice now works at Globex.", "2025-03-10T00:00:00.000Z")]),
    ).toEqual([{ newer: { planned: 0 }, older: { atomId: 9 }, reason: expect.stringContaining("employer") }]);
  });

  test("a thousand people cost one lookup, each subject once, with a capped share of candidates", async () => {
    const s = store([]);
    const names = Array.from({ length: 1000 }, (_, i) => `Person${i}`);
    const atoms = names.flatMap((n) => [
      planned(`${n} works at Acme.`, "2025-01-01T00:00:00.000Z"),
      planned(`${n} lives in Oslo.`, "2025-01-01T00:00:00.000Z"),
    ]);
    expect(await planIngestSupersessions(s, atoms)).toEqual([]);
    expect(s.calls.analyze.length).toBe(1);
    expect(new Set(s.calls.analyze[0]).size).toBe(1000);
    expect(s.calls.analyze[0].length).toBe(1000);
    expect(s.calls.lexical.length).toBe(1000);
    expect(new Set(s.calls.lexical.map((c) => c.k))).toEqual(new Set([3]));
    expect(s.calls.reads).toBe(1);
  });
});
