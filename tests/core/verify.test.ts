/**
 * memory_verify on both backends: a fact stated on two independent sites becomes `verified` with a raised
 * confidence; two pages of one site leave it `candidate`; a stored contradicting fact (negated, another number,
 * another date; English and Russian) makes both atoms `contested` and linked `contradicts`. Pages come from two
 * loopback servers, 127.0.0.1 and 127.0.0.2 (two hosts without a registrable domain: two sites).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { ingest } from "../../src/core/documents/ingest.ts";
import { storeAtom } from "../../src/core/knowledge/store-atom.ts";
import { statusHistory, verifyAtoms } from "../../src/core/verify/verify.ts";
import { pgSkipReason } from "../support/pg.ts";
import { openTestServices, type TestServices } from "../support/services.ts";
import { atom, lastOutboxPayload, linkKinds, liveAtomsOf, type Site, startSite } from "./verify-support.ts";

const BOREHOLE = "The Kola Superdeep Borehole reached a depth of 12262 metres in 1989.";
const BAIKAL = "Lake Baikal holds about twenty percent of the world's unfrozen surface fresh water.";

const CONTRADICTIONS: Array<[string, string, string]> = [
  [
    "negation, English",
    "Aspirin reduces the risk of a second heart attack in adults with coronary artery disease.",
    "Aspirin does not reduce the risk of a second heart attack in adults with coronary artery disease.",
  ],
  [
    "another number, English",
    "The Vostok station recorded an air temperature of minus 89.2 degrees Celsius in July 1983.",
    "The Vostok station recorded an air temperature of minus 91.5 degrees Celsius in July 1983.",
  ],
  [
    "another date, English",
    "The Peace of Westphalia treaties were signed in Osnabrück and Münster on 24 October 1648, ending the Thirty Years' War.",
    "The Peace of Westphalia treaties were signed in Osnabrück and Münster on 24 November 1648, ending the Thirty Years' War.",
  ],
  [
    "another date, Russian",
    "Московский метрополитен открыл первую линию для пассажиров 15 мая 1935 года.",
    "Московский метрополитен открыл первую линию для пассажиров 15 мая 1936 года.",
  ],
  [
    "negation, Russian",
    "Волга впадает в Каспийское море и считается самой длинной рекой Европы.",
    "Волга не впадает в Каспийское море и считается самой длинной рекой Европы.",
  ],
];

for (const backend of ["pglite", "postgres"] as const) {
  const skip = backend === "postgres" ? await pgSkipReason() : null;
  describe.skipIf(skip !== null)(`memory_verify on ${backend}`, () => {
    let t: TestServices;
    let one: Site;
    let two: Site;
    beforeAll(async () => {
      const opened = await openTestServices(backend, { allow_private_urls: true });
      if (typeof opened === "string") throw new Error(opened);
      t = opened;
      one = startSite("127.0.0.1", { "/a": BOREHOLE, "/c": BAIKAL, "/d": BAIKAL });
      two = startSite("127.0.0.2", { "/b": BOREHOLE });
    }, 60_000);
    afterAll(async () => {
      one?.stop();
      two?.stop();
      await t?.dispose();
    }, 30_000);

    test("a fact on two independent sites becomes verified, confidence raised by noisy-OR, recorded, idempotent", async () => {
      const s = t.services;
      const a = await ingest(s, { url: `${one.base}/a` });
      const b = await ingest(s, { url: `${two.base}/b` });
      const ids = [...new Set([...(await liveAtomsOf(s, a.doc_id!)), ...(await liveAtomsOf(s, b.doc_id!))])];
      expect(ids.length).toBeGreaterThan(0);
      const before = new Map((await Promise.all(ids.map((id) => atom(s, id)))).map((x) => [x.id, x]));
      for (const x of before.values()) expect(x.status).toBe("candidate");

      const r = await verifyAtoms(s, { doc_id: a.doc_id! });
      const r2 = await verifyAtoms(s, { doc_id: b.doc_id! });
      expect(r.judge).toBe("heuristic");
      expect(r.checked).toBeGreaterThan(0);
      const changes = [...r.changes, ...r2.changes];
      for (const id of await liveAtomsOf(s, a.doc_id!)) {
        const x = await atom(s, id);
        expect(x.status).toBe("verified");
        // Its own page is the prior's evidence; the other site (web authority 0.5, full agreement) is added.
        const prior = before.get(id)?.confidence ?? 0.5;
        expect(x.confidence).toBeCloseTo(1 - (1 - prior) * (1 - 0.5), 5);
        const c = changes.find((ch) => ch.atom_id === id && ch.to === "verified");
        expect(c?.from).toBe("candidate");
        expect(c?.reason).toContain("web:127.0.0.1");
        expect(c?.reason).toContain("web:127.0.0.2");
        const [h] = await statusHistory(s, id);
        expect(h).toMatchObject({
          id: c!.change_id,
          from_status: "candidate",
          to_status: "verified",
          actor: "verify",
          reverts: null,
          reverted_at: null,
        });
        expect(await lastOutboxPayload(s, id)).toEqual({ status: "verified", confidence: x.confidence });
      }
      expect(r.confidence_raised).toBeGreaterThan(0);

      // The same evidence again changes nothing: confidence does not compound.
      const again = await verifyAtoms(s, { doc_id: a.doc_id! });
      expect(again.changes_total).toBe(0);
      expect(again.confidence_raised).toBe(0);
      for (const id of await liveAtomsOf(s, a.doc_id!))
        expect((await atom(s, id)).confidence).toBeCloseTo(1 - (1 - (before.get(id)?.confidence ?? 0.5)) * 0.5, 5);
    }, 60_000);

    test("two pages of one site count once: the fact stays candidate, confidence unchanged", async () => {
      const s = t.services;
      const c = await ingest(s, { url: `${one.base}/c` });
      const d = await ingest(s, { url: `${one.base}/d` });
      expect(c.doc_id).not.toBe(d.doc_id);
      const ids = [...new Set([...(await liveAtomsOf(s, c.doc_id!)), ...(await liveAtomsOf(s, d.doc_id!))])];
      expect(ids.length).toBeGreaterThan(0);
      const before = new Map((await Promise.all(ids.map((id) => atom(s, id)))).map((x) => [x.id, x.confidence]));
      const r = await verifyAtoms(s, { doc_id: c.doc_id! });
      await verifyAtoms(s, { doc_id: d.doc_id! });
      expect(r.checked).toBeGreaterThan(0);
      expect(r.changes.filter((x) => x.to === "verified")).toEqual([]);
      for (const id of await liveAtomsOf(s, c.doc_id!)) {
        const x = await atom(s, id);
        expect(x.status).toBe("candidate");
        expect(x.confidence).toBeCloseTo(before.get(id)!, 6);
        expect(new Set(x.citations.map((ci) => ci.doc_id))).toEqual(new Set([c.doc_id!, d.doc_id!]));
      }
    }, 60_000);

    for (const [what, first, second] of CONTRADICTIONS) {
      test(`a contradicting fact (${what}) makes both contested and linked`, async () => {
        const s = t.services;
        const x = await storeAtom(s, { type: "fact", claim: first, source_uri: "https://example.org/facts" });
        const y = await storeAtom(s, { type: "fact", claim: second, source_uri: "https://example.net/facts" });
        expect(y.atom_id).not.toBe(x.atom_id);
        const r = await verifyAtoms(s, { atom_id: y.atom_id });
        expect(r.checked).toBe(1);
        expect(r.verdicts.contradicts).toBe(1);
        for (const [id, other] of [
          [x.atom_id, y.atom_id],
          [y.atom_id, x.atom_id],
        ]) {
          expect((await atom(s, id)).status).toBe("contested");
          const c = r.changes.find((ch) => ch.atom_id === id);
          expect(c).toMatchObject({ from: "candidate", to: "contested", evidence: [other] });
          expect(c?.reason).toContain(`contradicts atom ${other}`);
          expect((await statusHistory(s, id))[0]).toMatchObject({
            to_status: "contested",
            actor: "verify",
            evidence: [other],
          });
        }
        expect(await linkKinds(s, x.atom_id, y.atom_id)).toContain("contradicts");
        // Contested stays contested: verifying the other side changes nothing more.
        const again = await verifyAtoms(s, { atom_id: x.atom_id });
        expect(again.changes_total).toBe(0);
        expect(again.verdicts.contradicts).toBe(1);
      }, 60_000);
    }
  });
}
