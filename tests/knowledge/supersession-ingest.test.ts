/**
 * Supersession during ingest (issue 22): memory_ingest applies memory_store's rule to the atoms it creates, against
 * the stored atoms and within the document, in English and Russian — "Alice works at Acme." (observed 2024-01) then
 * "Alice now works at Globex." (2025-03) makes the first `superseded`, linked `supersedes`, and reverting the recorded
 * change restores it; "also works at" supersedes nothing; within one document the statement dated later wins; an
 * old event reported later is superseded, not superseding. On PGlite and on PostgreSQL.
 */
import { describe, expect, test } from "bun:test";
import { suiteMcpClient, toolCalls, type ToolOut } from "../support/mcp-client.ts";
import { pgUnavailable } from "../support/pg.ts";
import { suiteServices } from "../support/services.ts";

const pgSkip = await pgUnavailable();

function scenario(backend: "pglite" | "postgres", skip: string | null): void {
  describe.skipIf(Boolean(skip))(`supersession during ingest (${backend})`, () => {
    const t = suiteServices(backend, {}, { skip });
    const { ok } = toolCalls(suiteMcpClient(t));
    /** The atoms whose claim contains `needle`, any status but retracted. */
    const atomsWith = async (needle: string) => {
      const statuses = ["candidate", "verified", "contested", "superseded"];
      const out = await ok("memory_search", { query: needle, status: statuses, k: 20 });
      return (out.hits as ToolOut[]).filter((h) => String(h.claim).includes(needle));
    };
    const statusOf = async (id: number) => (await ok("memory_get", { atom_id: id })).status as string;

    async function newerSupersedes(older: string, newer: string, needleOld: string, needleNew: string) {
      const a = await ok("memory_ingest", { text: older, title: `${needleOld} note`, observed_at: "2024-01-15" });
      expect(a.atoms_superseded).toBe(0);
      const b = await ok("memory_ingest", { text: newer, title: `${needleNew} note`, observed_at: "2025-03-10" });
      expect(b.atoms_superseded).toBeGreaterThan(0);
      const olds = await atomsWith(needleOld);
      expect(olds.length).toBeGreaterThan(0);
      for (const o of olds) expect(await statusOf(o.atom_id)).toBe("superseded");
      const news = await atomsWith(needleNew);
      for (const n of news) expect(await statusOf(n.atom_id)).not.toBe("superseded");
      const got = await ok("memory_get", { atom_id: olds[0].atom_id });
      const change = (got.status_history as ToolOut[]).find((h) => h.to === "superseded")!;
      expect(change).toMatchObject({ actor: "supersede" });
      expect(got.links_in).toEqual(expect.arrayContaining([expect.objectContaining({ kind: "supersedes" })]));
      return { old: olds[0].atom_id as number, change: change.change_id as number };
    }

    test("a later document's newer employer supersedes the earlier one's; undo restores it", async () => {
      const { old, change } = await newerSupersedes(
        "Alice works at Acme.",
        "Alice now works at Globex.",
        "Acme",
        "Globex",
      );
      await ok("memory_verify", { revert_change_id: change });
      expect(await statusOf(old)).toBe("candidate");
      const got = await ok("memory_get", { atom_id: old });
      expect((got.links_in as ToolOut[]).filter((l) => l.kind === "supersedes")).toEqual([]);
      // The pair stays apart when a later ingest meets the same two atoms again.
      const globex = (await atomsWith("Globex"))[0].atom_id as number;
      const again = await t.services.supersession.applySupersessions([{ newerId: globex, olderId: old, reason: "x" }]);
      expect(again).toEqual([]);
      expect(await statusOf(old)).toBe("candidate");
    });

    test("Russian: «Алиса теперь работает в Globex» supersedes «Алиса работает в Acme»", async () => {
      await newerSupersedes(
        "Алиса работает в Acme Systems.",
        "Алиса теперь работает в Globex Labs.",
        "Acme Systems",
        "Globex Labs",
      );
    });

    test("«also works at» supersedes nothing", async () => {
      await ok("memory_ingest", { text: "Bruno works at Umbrella.", title: "b1", observed_at: "2024-01-15" });
      const b = await ok("memory_ingest", {
        text: "Bruno also works at Initech.",
        title: "b2",
        observed_at: "2025-03-10",
      });
      expect(b.atoms_superseded).toBe(0);
      for (const a of await atomsWith("Umbrella")) expect(await statusOf(a.atom_id)).toBe("candidate");
    });

    test("within one document the statement dated later supersedes the earlier one", async () => {
      const r = await ok("memory_ingest", {
        text: "In 2019 Dana lived in Porto.\n\nSince 2022 Dana lives in Lisbon.",
        title: "dana",
        observed_at: "2025-01-10",
      });
      expect(r.atoms_superseded).toBeGreaterThan(0);
      const porto = await atomsWith("Porto");
      // The statement is superseded; the chunk's passage, which holds both sentences, stays current.
      const statuses = await Promise.all(porto.map(async (a) => [a.type, await statusOf(a.atom_id)]));
      expect(statuses).toContainEqual(["fact", "superseded"]);
      expect(statuses).toContainEqual(["text", "candidate"]);
    });

    test("an old event reported later supersedes nothing and is superseded itself", async () => {
      await ok("memory_ingest", { text: "Carol lives in Madrid.", title: "c1", observed_at: "2024-09-01" });
      await ok("memory_ingest", { text: "In 2018 Carol lived in Seville.", title: "c2", observed_at: "2025-01-10" });
      for (const a of await atomsWith("Madrid")) expect(await statusOf(a.atom_id)).toBe("candidate");
      for (const a of await atomsWith("Seville")) expect(await statusOf(a.atom_id)).toBe("superseded");
    });
  });
}

scenario("pglite", null);
scenario("postgres", pgSkip);
