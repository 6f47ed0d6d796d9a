/**
 * memory_verify on both backends, duplicates and history: a duplicate from the same site (or without evidence)
 * makes the later atom `stale`; the same statement typed differently is kept; every change is recorded and can be
 * reverted once, only while the atom still has the status the change left.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { storeAtom } from "../../src/core/knowledge/store-atom.ts";
import type { Services } from "../../src/core/services.ts";
import { revertStatusChange, statusHistory, verifyAtoms } from "../../src/core/verify/verify.ts";
import { PegasError } from "../../src/errors.ts";
import type { VerdictJudge } from "../../src/ports/models/verdict-judge.ts";
import { rejectsWith } from "../support/errors.ts";
import { pgSkipReason } from "../support/pg.ts";
import { openTestServices, type TestServices } from "../support/services.ts";
import { atom, lastOutboxPayload, storeWithoutDedup } from "./verify-support.ts";

for (const backend of ["pglite", "postgres"] as const) {
  const skip = backend === "postgres" ? await pgSkipReason() : null;
  describe.skipIf(skip !== null)(`memory_verify history on ${backend}`, () => {
    let t: TestServices;
    beforeAll(async () => {
      const opened = await openTestServices(backend);
      if (typeof opened === "string") throw new Error(opened);
      t = opened;
    }, 60_000);
    afterAll(async () => {
      await t?.dispose();
    }, 30_000);

    test("a duplicate from the same site makes the later atom stale, with the earlier as evidence", async () => {
      const s = t.services;
      const first = await storeAtom(s, {
        type: "fact",
        claim: "The Mariana Trench reaches a depth of about 10935 metres.",
        source_uri: "https://www.example.org/ocean",
      });
      const later = await storeWithoutDedup(s, {
        type: "fact",
        claim: "The Mariana Trench reaches a depth of about 10935 metres!",
        sourceUri: "https://blog.example.org/deep",
      });
      const r = await verifyAtoms(s, { atom_id: first.atom_id });
      expect(r.verdicts.duplicate).toBe(1);
      expect(r.changes).toEqual([
        {
          change_id: expect.any(Number),
          atom_id: later,
          from: "candidate",
          to: "stale",
          reason: expect.stringContaining(`duplicate of atom ${first.atom_id}`),
          evidence: [first.atom_id],
        },
      ]);
      expect((await atom(s, later)).status).toBe("stale");
      expect((await atom(s, first.atom_id)).status).toBe("candidate");
      expect(await lastOutboxPayload(s, later)).toMatchObject({ status: "stale" });
    }, 60_000);

    test("without any evidence a duplicate is stale too; the same sentence typed differently is kept", async () => {
      const s = t.services;
      const a = await storeAtom(s, { type: "fact", claim: "Мост через Керченский пролив имеет длину 19 километров." });
      const b = await storeWithoutDedup(s, {
        type: "fact",
        claim: "Мост через Керченский пролив имеет длину 19 километров!",
      });
      const c = await storeWithoutDedup(s, {
        type: "text",
        claim: "Мост через Керченский пролив имеет длину 19 километров.",
      });
      const r = await verifyAtoms(s, { atom_id: b });
      expect(r.changes.map((x) => [x.atom_id, x.to, x.evidence])).toEqual([[b, "stale", [a.atom_id]]]);
      expect((await atom(s, c)).status).toBe("candidate");
      const rc = await verifyAtoms(s, { atom_id: c });
      expect(rc.verdicts.duplicate).toBe(0);
      expect(rc.changes_total).toBe(0);
      expect((await atom(s, c)).status).toBe("candidate");
    }, 60_000);

    test("revert restores the status once, only while the atom still has the change's status; history records all", async () => {
      const s = t.services;
      const claim = "The Large Hadron Collider at CERN near Geneva has a circumference of 27 kilometres.";
      const x = await storeAtom(s, { type: "fact", claim, source_uri: "https://home.cern/science" });
      const again = await storeAtom(s, { type: "fact", claim, source_uri: "https://en.wikipedia.org/wiki/LHC" });
      expect(again.atom_id).toBe(x.atom_id);
      const verified = (await verifyAtoms(s, { atom_id: x.atom_id })).changes.find((c) => c.atom_id === x.atom_id);
      expect(verified).toMatchObject({ from: "candidate", to: "verified" });
      const y = await storeAtom(s, {
        type: "fact",
        claim: "The Large Hadron Collider at CERN near Geneva has a circumference of 29 kilometres.",
        source_uri: "https://example.com/lhc",
      });
      const contested = (await verifyAtoms(s, { atom_id: y.atom_id })).changes.find((c) => c.atom_id === x.atom_id);
      expect(contested).toMatchObject({ from: "verified", to: "contested", evidence: [y.atom_id] });

      // The verification cannot be undone while a later change holds the atom.
      const blocked = await rejectsWith(revertStatusChange(s, verified!.change_id), "INVALID_INPUT");
      expect(blocked.message).toContain(`is now 'contested', not 'verified'`);
      expect(blocked.message).toContain(`change ${contested!.change_id}`);

      const undo = await revertStatusChange(s, contested!.change_id);
      expect(undo.revert).toMatchObject({
        atom_id: x.atom_id,
        from: "contested",
        to: "verified",
        evidence: [y.atom_id],
      });
      expect(undo.reverted.change_id).toBe(contested!.change_id);
      expect(undo.reverted.reverted_at).not.toBe("");
      expect((await atom(s, x.atom_id)).status).toBe("verified");
      expect(await lastOutboxPayload(s, x.atom_id)).toMatchObject({ status: "verified" });

      const twice = await rejectsWith(revertStatusChange(s, contested!.change_id), "INVALID_INPUT");
      expect(twice.message).toContain("already reverted");
      expect(twice.message).toContain(`change ${undo.revert.change_id}`);

      const history = await statusHistory(s, x.atom_id);
      expect(history.map((h) => [h.id, h.from_status, h.to_status, h.actor, h.reverts])).toEqual([
        [undo.revert.change_id, "contested", "verified", "revert", contested!.change_id],
        [contested!.change_id, "verified", "contested", "verify", null],
        [verified!.change_id, "candidate", "verified", "verify", null],
      ]);
      expect(history[1].reverted_at).not.toBeNull();
      expect(history[0].reverted_at).toBeNull();
      expect(new Date(history[0].created_at).getTime()).toBeGreaterThanOrEqual(
        new Date(history[2].created_at).getTime(),
      );

      // Now the atom is 'verified' again, as the first change left it: that one can be reverted.
      const first = await revertStatusChange(s, verified!.change_id);
      expect(first.revert).toMatchObject({ from: "verified", to: "candidate" });
      expect((await atom(s, x.atom_id)).status).toBe("candidate");
      await rejectsWith(revertStatusChange(s, 987654321), "NOT_FOUND");
      await rejectsWith(revertStatusChange(s, 0), "INVALID_INPUT");
    }, 60_000);

    test("a failing LLM judge falls back to the heuristic one per atom; an LLM's same-fact verdict is settled by sites", async () => {
      const s = t.services;
      const failing: VerdictJudge = {
        name: "ollama:stub",
        judge: async () => {
          throw new PegasError("LLM_FAILED", "the model answered off-schema twice");
        },
      };
      const a = await storeAtom(s, {
        type: "fact",
        claim: "The Trans-Siberian Railway between Moscow and Vladivostok is 9289 kilometres long.",
        source_uri: "https://example.org/rail",
      });
      const b = await storeAtom(s, {
        type: "fact",
        claim: "The Trans-Siberian Railway between Moscow and Vladivostok is 9298 kilometres long.",
        source_uri: "https://example.net/rail",
      });
      const r = await verifyAtoms({ ...s, judge: failing } as Services, { atom_id: b.atom_id });
      expect(r.judge).toBe("ollama:stub");
      expect(r.warnings.join("\n")).toContain(
        `atom ${b.atom_id}: judge ollama:stub failed (the model answered off-schema twice); the heuristic judge decided instead`,
      );
      expect((await atom(s, a.atom_id)).status).toBe("contested");

      // An LLM cannot see sites: its "duplicate" across two independent sites counts as corroboration.
      const sameFact: VerdictJudge = {
        name: "ollama:same",
        judge: async (_x, ns) =>
          ns.map((n) =>
            n.content.includes("Titan")
              ? { id: n.id, verdict: "duplicate" as const, reason: "same fact, other words" }
              : { id: n.id, verdict: "new" as const, reason: "another fact" },
          ),
      };
      const p = await storeAtom(s, {
        type: "fact",
        claim: "Saturn's largest moon Titan has a thick nitrogen atmosphere.",
        source_uri: "https://example.org/titan",
      });
      const q = await storeAtom(s, {
        type: "fact",
        claim: "Titan, the biggest moon of Saturn, is wrapped in a dense atmosphere of nitrogen.",
        source_uri: "https://example.net/titan",
      });
      const v = await verifyAtoms({ ...s, judge: sameFact } as Services, { atom_id: p.atom_id });
      expect(v.verdicts.corroborates).toBeGreaterThanOrEqual(1);
      expect(v.changes.find((c) => c.atom_id === p.atom_id)).toMatchObject({
        to: "verified",
        evidence: expect.arrayContaining([q.atom_id]),
      });
      expect((await atom(s, q.atom_id)).status).toBe("candidate");

      const ac = new AbortController();
      ac.abort();
      await rejectsWith(verifyAtoms(s, { signal: ac.signal }), "CANCELLED");
    }, 60_000);

    test("bad selections are refused with actionable errors", async () => {
      const s = t.services;
      await rejectsWith(verifyAtoms(s, { atom_id: 1, doc_id: 1 }), "INVALID_INPUT");
      await rejectsWith(verifyAtoms(s, { limit: 1001 }), "INVALID_INPUT");
      await rejectsWith(verifyAtoms(s, { limit: 0 }), "INVALID_INPUT");
      const missing = await rejectsWith(verifyAtoms(s, { atom_id: 987654321 }), "NOT_FOUND");
      expect(missing.userMessage).toContain("memory_search");
      await rejectsWith(verifyAtoms(s, { doc_id: 987654321 }), "NOT_FOUND");
      await rejectsWith(statusHistory(s, 987654321), "NOT_FOUND");
    }, 60_000);
  });
}
