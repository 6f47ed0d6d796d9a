/**
 * Gap answering on memory_verify, heuristic path (no LLM configured): a gap stays open while the atoms that answer it
 * are only candidates; once cross-confirmation by two loopback sites (127.0.0.1 and 127.0.0.2: two hosts without a
 * registrable domain, two sites) makes them `verified`, the verification run marks the gap answered and records the
 * evidence. A gap whose key terms the atom lacks stays open. English and Russian.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { addGap, listGaps } from "../../src/core/gaps/gaps.ts";
import { checkGaps } from "../../src/core/gaps/answer.ts";
import { ingest } from "../../src/core/documents/ingest.ts";
import { verifyAtoms } from "../../src/core/verify/verify.ts";
import { type Site, startSite } from "../core/verify-support.ts";
import { openTestServices, type TestServices } from "../support/services.ts";

const BOREHOLE = "The Kola Superdeep Borehole reached a depth of 12262 metres in 1989.";
const SKVAZHINA = "Кольская сверхглубокая скважина достигла глубины 12262 метра в 1989 году.";

describe("gap answering on memory_verify (pglite, heuristic)", () => {
  let t: TestServices;
  let one: Site;
  let two: Site;
  beforeAll(async () => {
    const opened = await openTestServices("pglite", { allow_private_urls: true });
    if (typeof opened === "string") throw new Error(opened);
    t = opened;
    one = startSite("127.0.0.1", { "/en": BOREHOLE, "/ru": SKVAZHINA });
    two = startSite("127.0.0.2", { "/en": BOREHOLE, "/ru": SKVAZHINA });
  }, 60_000);
  afterAll(async () => {
    one?.stop();
    two?.stop();
    await t?.dispose();
  }, 30_000);

  test("a gap is answered when a verified atom answers it, with the evidence recorded", async () => {
    const s = t.services;
    const en = await addGap(s, { question: "What depth did the Kola Superdeep Borehole reach?" });
    const ru = await addGap(s, { question: "Какой глубины достигла Кольская сверхглубокая скважина?", priority: 4 });
    const other = await addGap(s, { question: "What depth did the Kola Superdeep Borehole reach in Norway?" });
    const a = await ingest(s, { url: `${one.base}/en` });
    await ingest(s, { url: `${one.base}/ru` });
    // Only candidates so far: nothing is answered.
    expect((await checkGaps(s)).answered).toEqual([]);
    const b = await ingest(s, { url: `${two.base}/en` });
    const c = await ingest(s, { url: `${two.base}/ru` });
    const r = await verifyAtoms(s, {});
    expect(r.changes.some((x) => x.to === "verified")).toBe(true);
    const answered = new Map(r.gaps_answered.map((g) => [g.gap_id, g]));
    expect([...answered.keys()].sort()).toEqual([en.gap.id, ru.gap.id].sort());
    expect(answered.get(en.gap.id)!.decided_by).toBe("search-top3+key-terms");
    const gaps = await listGaps(s, { status: "answered" });
    const g = gaps.gaps.find((x) => x.id === en.gap.id)!;
    expect(g.status).toBe("answered");
    const ev = g.metadata.answer as { atom_ids: number[]; decided_by: string; ranks: number[] };
    expect(ev.atom_ids.length).toBeGreaterThan(0);
    expect(ev.ranks.every((k) => k >= 1 && k <= 3)).toBe(true);
    const [atom] = await s.atomReads.atomsByIds([ev.atom_ids[0]], 5);
    expect(atom.status).toBe("verified");
    expect(atom.claim).toContain("12262");
    expect(new Set(atom.citations.map((x) => x.doc_id))).toEqual(new Set([a.doc_id!, b.doc_id!]));
    const gr = (await listGaps(s, { status: "answered" })).gaps.find((x) => x.id === ru.gap.id)!;
    const [ratom] = await s.atomReads.atomsByIds([(gr.metadata.answer as { atom_ids: number[] }).atom_ids[0]], 5);
    expect(ratom.claim).toContain("скважина");
    expect(ratom.citations.map((x) => x.doc_id)).toContain(c.doc_id!);
    // "Norway" is a key term no atom has: still open.
    expect((await listGaps(s, { status: "open" })).gaps.map((x) => x.id)).toContain(other.gap.id);
    // An answered gap is not answered again, and a repeat of its question is a new open gap.
    expect((await checkGaps(s, { gapIds: [en.gap.id] })).checked).toBe(0);
    expect((await addGap(s, { question: "What depth did the Kola Superdeep Borehole reach?" })).created).toBe(true);
  }, 60_000);
});
