/**
 * Pure parts of memory_verify: sites (registrable domains, hosts, documents), the noisy-OR confidence, the
 * same-fact verdict by sites, the heuristic judge, and how verdicts become writes.
 */
import { describe, expect, test } from "bun:test";
import { HeuristicJudge } from "../../src/adapters/judge/heuristic.ts";
import { confirmedConfidence, homeSiteOf, sameFactVerdict, siteOf, siteWeights } from "../../src/domain/evidence.ts";
import { planStep } from "../../src/core/verify/step.ts";
import type { VerifySubject } from "../../src/ports/store/verification.ts";

const doc = (docId: number, uri: string, authority = 0.5) => ({ docId, uri, kind: "web" as const, authority });

describe("sites", () => {
  test("http(s) counts as the registrable domain; IPs, localhost and other schemes count as themselves", () => {
    expect(siteOf(doc(1, "https://en.wikipedia.org/wiki/X"))).toBe("web:wikipedia.org");
    expect(siteOf(doc(2, "http://ru.wikipedia.org/wiki/Y"))).toBe("web:wikipedia.org");
    expect(siteOf(doc(3, "https://news.bbc.co.uk/a"))).toBe("web:bbc.co.uk");
    expect(siteOf(doc(4, "https://alice.github.io/p"))).not.toBe(siteOf(doc(5, "https://bob.github.io/p")));
    expect(siteOf(doc(6, "http://127.0.0.1:8080/a"))).toBe("web:127.0.0.1");
    expect(siteOf(doc(7, "http://127.0.0.2:8080/b"))).toBe("web:127.0.0.2");
    expect(siteOf(doc(8, "http://[::1]:80/"))).toBe("web:::1");
    expect(siteOf(doc(9, "http://localhost:3000/x"))).toBe("web:localhost");
    expect(siteOf(doc(10, "HTTPS://WWW.Example.ORG./x"))).toBe("web:example.org");
    expect(siteOf(doc(11, "file:///home/me/paper.pdf"))).toBe("local");
    expect(siteOf(doc(12, "text:sha256:abcdef"))).toBe("local");
    expect(siteOf(doc(14, "doi:10.1000/182"))).toBe("doc:14");
    expect(siteOf(doc(13, "not a uri"))).toBe("doc:13");
  });

  test("pages of one site count once, weighted by their best document", () => {
    const sites = siteWeights([
      { ...doc(1, "https://a.example.org/1", 0.4), agreement: 1 },
      { ...doc(2, "https://b.example.org/2", 0.8), agreement: 0.9 },
      { ...doc(3, "https://example.net/3", 0.5), agreement: 1 },
    ]);
    expect(sites).toEqual([
      { site: "web:example.net", weight: 0.5, docIds: [3] },
      { site: "web:example.org", weight: expect.closeTo(0.72, 6), docIds: [1, 2] },
    ]);
  });

  test("noisy-OR over sites other than home, never below the prior", () => {
    const sites = [
      { site: "web:a.org", weight: 0.5, docIds: [1] },
      { site: "web:b.org", weight: 0.8, docIds: [2] },
    ];
    expect(confirmedConfidence(0.5, sites, "web:a.org")).toBeCloseTo(1 - 0.5 * 0.2, 9);
    expect(confirmedConfidence(0.5, sites, null)).toBeCloseTo(1 - 0.5 * 0.5 * 0.2, 9);
    expect(confirmedConfidence(0.5, sites.slice(0, 1), "web:a.org")).toBe(0.5);
    expect(confirmedConfidence(0.9, [{ site: "web:c.org", weight: 0, docIds: [3] }], null)).toBeCloseTo(0.9, 9);
    expect(homeSiteOf(2, [doc(1, "https://a.org/"), doc(2, "https://b.org/")])).toBe("web:b.org");
    expect(homeSiteOf(null, [doc(1, "https://a.org/")])).toBeNull();
  });

  test("same fact: corroborates only with a site the atom lacks", () => {
    expect(sameFactVerdict(["web:a.org"], ["web:b.org"])).toBe("corroborates");
    expect(sameFactVerdict(["web:a.org", "web:b.org"], ["web:b.org"])).toBe("duplicate");
    expect(sameFactVerdict([], ["web:b.org"])).toBe("duplicate");
    expect(sameFactVerdict(["web:a.org"], [])).toBe("duplicate");
  });
});

describe("heuristic judge", () => {
  const judge = new HeuristicJudge({ threshold: 0.9, paraphrase: false });
  const at = (id: number, text: string, sites: string[]) => ({ id, claim: text, content: text, lang: "en", sites });
  test("contradiction, duplicate, corroboration and new, from the dedup rules and the sites", async () => {
    const base = "Mount Elbrus rises to 5642 metres above sea level in the Caucasus.";
    const out = await judge.judge(at(1, base, ["web:a.org"]), [
      { ...at(2, "Mount Elbrus rises to 5621 metres above sea level in the Caucasus.", ["web:b.org"]), cosine: 0.95 },
      { ...at(3, `${base}`, ["web:a.org"]), cosine: 1 },
      { ...at(4, `${base}`, ["web:c.org"]), cosine: 1 },
      { ...at(5, "Mount Kazbek is a dormant stratovolcano in Georgia.", ["web:c.org"]), cosine: 0.3 },
      { ...at(6, base, ["web:c.org"]), cosine: 0.5 },
    ]);
    expect(out.map((v) => [v.id, v.verdict])).toEqual([
      [2, "contradicts"],
      [3, "duplicate"],
      [4, "corroborates"],
      [5, "new"],
      [6, "new"],
    ]);
    expect(out[0].reason).toContain("cosine 0.950");
  });
});

describe("planStep", () => {
  const subject = (id: number, over: Partial<VerifySubject> = {}): VerifySubject => ({
    id,
    type: "fact",
    claim: "c",
    content: "c",
    lang: "en",
    status: "candidate",
    confidence: 0.5,
    prior: 0.5,
    docId: id,
    sources: [doc(id, `https://site${id}.org/`)],
    keptApart: [],
    notContradicting: [],
    ...over,
  });
  test("a duplicate stales the later atom and nothing else happens to it", () => {
    const w = planStep(subject(9), [{ subject: subject(3), cosine: 1, verdict: "duplicate", reason: "same" }]);
    expect(w.changes).toEqual([
      { atomId: 9, from: "candidate", to: "stale", reason: "duplicate of atom 3: same", evidence: [3] },
    ]);
    expect(w.links).toEqual([]);
    expect(w.confidence).toEqual([]);
  });
  test("contradiction contests both live sides once and links them; corroboration verifies and raises from the prior", () => {
    const w = planStep(subject(5, { status: "verified" }), [
      { subject: subject(6, { status: "contested" }), cosine: 0.93, verdict: "contradicts", reason: "number differs" },
      { subject: subject(7), cosine: 0.8, verdict: "corroborates", reason: "same" },
    ]);
    expect(w.changes).toEqual([
      { atomId: 5, from: "verified", to: "contested", reason: "contradicts atom 6: number differs", evidence: [6] },
    ]);
    expect(w.links).toEqual([{ src: 5, dst: 6, kind: "contradicts", confidence: 0.93 }]);
    expect(w.confidence).toEqual([{ atomId: 5, value: expect.closeTo(1 - 0.5 * (1 - 0.5 * 0.8), 9) }]);
    const v = planStep(subject(8, { confidence: 0.75, prior: 0.5 }), [
      { subject: subject(2), cosine: 1, verdict: "corroborates", reason: "same" },
    ]);
    expect(v.changes.map((c) => [c.atomId, c.to, c.evidence])).toEqual([[8, "verified", [2]]]);
    expect(v.confidence).toEqual([]); // 1 − 0.5·0.5 = 0.75 is what it has: not raised again
  });
});
