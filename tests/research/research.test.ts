/**
 * The research runner end to end on the embedded database, against loopback stand-ins (tests/research/support.ts):
 * the search backend's results point at 127.0.0.2 and 127.0.0.3 (two distinct sites) that both state one planted
 * fact, and at a blocked page (403) whose result snippet is stored instead. Ingest, cross-confirmation and the gap
 * check run for real: the fact becomes `verified` and the gap ends answered. Also: a gap nothing answers stays open
 * with what was tried recorded; the URL bound; a search backend that fails; bad input.
 */
import { beforeAll, describe, expect, test } from "bun:test";
import { SearxngSearch } from "../../src/adapters/search/searxng.ts";
import { addGap, listGaps } from "../../src/core/gaps/gaps.ts";
import { research } from "../../src/core/gaps/research.ts";
import { rejectsWith } from "../support/errors.ts";
import { suiteServices } from "../support/services.ts";
import { type Stub, type StubResult, startPages, startSearchBackend } from "./support.ts";

const FACT = "The Kola Superdeep Borehole reached a depth of 12262 metres in 1989.";
const FACT_RU = "Кольская сверхглубокая скважина достигла глубины 12262 метра в 1989 году.";
const SNIPPET =
  "Kola Superdeep Borehole: the drilling stopped in 1992 because the rock temperature reached 180 degrees Celsius.";

let siteA: Stub;
let siteB: Stub;
let backend: Stub;
const answers = new Map<string, StubResult[]>();

const t = suiteServices(
  "pglite",
  { allow_private_urls: true },
  {
    after: () => {
      for (const s of [siteA, siteB, backend]) s?.stop();
    },
  },
);

beforeAll(() => {
  siteA = startPages("127.0.0.2", { "/kola": FACT, "/blocked": { status: 403 }, "/ru": FACT_RU });
  siteB = startPages("127.0.0.3", { "/borehole": FACT, "/skvazhina": FACT_RU });
  backend = startSearchBackend((q) => answers.get(q) ?? []);
});

const web = () => new SearxngSearch({ baseUrl: backend.base, timeoutMs: 10_000 });

describe("research runner against a loopback SearxNG-compatible backend", () => {
  test("two distinct sites state the fact: ingested, verified by cross-confirmation, the gap ends answered; a blocked page falls back to its snippet", async () => {
    const s = t.services;
    const q = "What depth did the Kola Superdeep Borehole reach?";
    answers.set(q, [
      { url: `${siteA.base}/kola`, title: "Kola borehole — site A", content: "The borehole reached 12262 metres." },
      { url: `${siteA.base}/blocked`, title: "Kola borehole — blocked", content: SNIPPET },
      { url: `${siteB.base}/borehole`, title: "Kola borehole — site B", content: "" },
    ]);
    const gap = await addGap(s, { question: q, priority: 5 });
    const progress: string[] = [];
    const notes: Array<{ p: number; t: number | undefined }> = [];
    const r = await research(s, web(), {
      maxUrls: 5,
      budgetS: 60,
      progressEveryMs: 0,
      onProgress: (p, t, m) => {
        progress.push(m);
        notes.push({ p, t });
      },
    });
    expect(backend.requests.some((x) => x.includes("format=json") && x.includes("Kola"))).toBe(true);
    expect(r.gaps).toHaveLength(1);
    const g = r.gaps[0];
    expect(g).toMatchObject({ gap_id: gap.gap.id, status: "answered", decided_by: "search-top3+key-terms" });
    expect(g.sources.map((x) => x.outcome)).toEqual(["page", "snippet", "page"]);
    expect(r).toMatchObject({ answered: 1, urls_fetched: 3, budget_exhausted: false });
    expect(g.verified_atoms).toBeGreaterThan(0);
    const [atom] = await s.atomReads.atomsByIds(g.answered_by, 10);
    expect(atom.status).toBe("verified");
    expect(atom.claim).toContain("12262");
    expect(new Set(atom.citations.map((c) => new URL(c.uri).hostname))).toEqual(new Set(["127.0.0.2", "127.0.0.3"]));
    // The blocked page's snippet is a snippet document of its own URL.
    const snippetDoc = g.sources[1].doc_id!;
    const doc = await s.ingestWrites.documentByUri(`${siteA.base}/blocked`);
    expect(doc?.id).toBe(snippetDoc);
    const answered = (await listGaps(s, { status: "answered" })).gaps.find((x) => x.id === gap.gap.id)!;
    expect((answered.metadata.answer as { atom_ids: number[] }).atom_ids).toEqual(g.answered_by);
    expect(progress.some((m) => m.includes("fetching"))).toBe(true);
    // One count over choosing, searching, fetching, ingesting, verifying and checking: strictly increasing, the
    // total absent until the gaps are chosen and never lowered, the last notification at the total.
    expect(notes[0]).toEqual({ p: 0, t: undefined });
    for (let i = 1; i < notes.length; i++) {
      expect(notes[i].p).toBeGreaterThan(notes[i - 1].p);
      expect(notes[i].t).toBeGreaterThanOrEqual(notes[i - 1].t ?? 0);
      expect(notes[i].t).toBeGreaterThanOrEqual(notes[i].p);
    }
    expect(notes.at(-1)!.p).toBe(notes.at(-1)!.t!);
    expect(progress.some((m) => m.startsWith("distill:"))).toBe(true);
  }, 90_000);

  test("a gap nothing answers stays open with what was tried; the URL bound holds", async () => {
    const s = t.services;
    const q = "Who first proposed drilling through the Mohorovičić discontinuity?";
    answers.set(q, [
      { url: `${siteA.base}/missing-page`, title: "gone", content: "" },
      { url: `${siteB.base}/borehole`, title: "unrelated", content: "" },
      { url: `${siteA.base}/kola`, title: "unrelated", content: "" },
    ]);
    const gap = await addGap(s, { question: q, priority: 5 });
    const r = await research(s, web(), { gapId: gap.gap.id, maxUrls: 2, budgetS: 60 });
    const g = r.gaps[0];
    expect(g.status).toBe("open");
    expect(g.sources.map((x) => x.outcome)).toEqual(["failed", "page", "skipped"]);
    expect(g.sources[0].error).toContain("HTTP 404");
    expect(r).toMatchObject({ urls_fetched: 2, budget_exhausted: true, answered: 0 });
    const stored = (await listGaps(s, { status: "open" })).gaps.find((x) => x.id === gap.gap.id)!;
    expect(stored.metadata.attempt_count).toBe(1);
    const [attempt] = stored.metadata.attempts as Array<{
      sources: Array<{ url: string; outcome: string }>;
      budget_exhausted?: boolean;
      backend: string;
    }>;
    expect(attempt.sources.map((x) => x.outcome)).toEqual(["failed", "page", "skipped"]);
    expect(attempt.budget_exhausted).toBe(true);
    expect(attempt.backend).toContain("searxng:http://127.0.0.1:");
  }, 90_000);

  test("a failing search backend is recorded on the gap; bad input is refused", async () => {
    const s = t.services;
    const gap = await addGap(s, { question: "Какой глубины достигла Кольская сверхглубокая скважина в 2030 году?" });
    const down = new SearxngSearch({ baseUrl: "http://127.0.0.1:9/", timeoutMs: 2000 });
    const r = await research(s, down, { gapId: gap.gap.id, budgetS: 30 });
    expect(r.gaps[0].status).toBe("open");
    expect(r.gaps[0].search_error).toContain("search backend");
    const stored = (await listGaps(s, {})).gaps.find((x) => x.id === gap.gap.id)!;
    expect((stored.metadata.attempts as Array<{ search_error?: string }>)[0].search_error).toBeDefined();
    await rejectsWith(research(s, web(), { maxUrls: 0 }), "INVALID_INPUT");
    await rejectsWith(research(s, web(), { budgetS: 1.5 }), "INVALID_INPUT");
    await rejectsWith(research(s, web(), { gapId: 999_999 }), "NOT_FOUND");
    const answeredId = (await listGaps(s, { status: "answered" })).gaps[0].id;
    await rejectsWith(research(s, web(), { gapId: answeredId }), "INVALID_INPUT");
    expect(() => new SearxngSearch({ baseUrl: "ftp://example.org", timeoutMs: 1000 })).toThrow();
  }, 90_000);

  test("the same in Russian: a gap in Russian is answered from two Russian pages", async () => {
    const s = t.services;
    const q = "Какой глубины достигла Кольская сверхглубокая скважина?";
    answers.set(q, [
      { url: `${siteA.base}/ru`, title: "Кольская скважина — А", content: "" },
      { url: `${siteB.base}/skvazhina`, title: "Кольская скважина — Б", content: "" },
    ]);
    const gap = await addGap(s, { question: q });
    const r = await research(s, web(), { gapId: gap.gap.id });
    expect(r.gaps[0]).toMatchObject({ status: "answered", sources: [{ outcome: "page" }, { outcome: "page" }] });
    const [atom] = await s.atomReads.atomsByIds(r.gaps[0].answered_by, 5);
    expect(atom).toMatchObject({ status: "verified", lang: "ru" });
  }, 90_000);

  test("a cancelled run stops and records the attempt", async () => {
    const s = t.services;
    const q = "What depth did the Kola Superdeep Borehole reach by 1979?";
    answers.set(q, [
      { url: `${siteA.base}/kola`, title: "a", content: "" },
      { url: `${siteB.base}/borehole`, title: "b", content: "" },
    ]);
    const gap = await addGap(s, { question: q, priority: 5 });
    const ac = new AbortController();
    const run = research(s, web(), {
      gapId: gap.gap.id,
      signal: ac.signal,
      onProgress: (_p, _t, m) => {
        if (m.startsWith("fetching")) ac.abort();
      },
    });
    await rejectsWith(run, "CANCELLED");
    const stored = (await listGaps(s, {})).gaps.find((x) => x.id === gap.gap.id)!;
    expect(stored.status).toBe("open");
    expect(stored.metadata.attempt_count).toBe(1);
  }, 90_000);
});
