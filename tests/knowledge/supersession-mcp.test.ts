/**
 * Supersession through the MCP tools (issue 22 acceptance), on PGlite and on PostgreSQL: "Alice works at Acme"
 * (observed 2024-01) then "Alice now works at Globex" (2025-03) makes the first `superseded`, linked `supersedes`;
 * search and context answer Globex, and Acme at `valid_at: 2024-06` or at a `known_at` before the second store;
 * "Alice also consults for Initech" supersedes nothing; reverting the recorded change restores both.
 */
import { describe, expect, test } from "bun:test";
import { z } from "zod";
import { memoryStore } from "../../src/mcp/tools/knowledge/memory-store.ts";
import { portableOutput } from "../../src/mcp/portable-output.ts";
import { suiteMcpClient, toolCalls, type ToolOut } from "../support/mcp-client.ts";
import { pgUnavailable } from "../support/pg.ts";
import { suiteServices } from "../support/services.ts";

const pgSkip = await pgUnavailable();
if (pgSkip) console.log(`skipping the PostgreSQL supersession suite: ${pgSkip}`);

const QUESTION = "where does Alice work";

function scenario(backend: "pglite" | "postgres", skip: string | null): void {
  describe.skipIf(Boolean(skip))(`supersession over MCP (${backend})`, () => {
    const t = suiteServices(backend, {}, { skip });
    const mcp = suiteMcpClient(t);
    const { call, ok, text } = toolCalls(mcp);
    const ids = (out: ToolOut) => (out.hits as ToolOut[]).map((h) => h.atom_id as number);
    const state: { acme?: number; globex?: number; change?: number; between?: string } = {};

    test("a newer employer supersedes the older statement, which is kept", async () => {
      const storeOut = z.object(portableOutput(memoryStore)).strict();
      const acme = await ok("memory_store", { type: "fact", claim: "Alice works at Acme", observed_at: "2024-01-15" });
      await Bun.sleep(20);
      state.between = new Date().toISOString();
      await Bun.sleep(20);
      const globex = await ok("memory_store", {
        type: "fact",
        claim: "Alice now works at Globex",
        observed_at: "2025-03-10",
      });
      expect(storeOut.parse(globex).supersedes).toEqual([
        { atom_id: acme.atom_id, change_id: expect.any(Number), reason: expect.stringContaining("employer") },
      ]);
      expect(globex.contradicts).toEqual([]);
      Object.assign(state, { acme: acme.atom_id, globex: globex.atom_id, change: globex.supersedes[0].change_id });
      const old = await ok("memory_get", { atom_id: state.acme });
      expect(old.status).toBe("superseded");
      expect(old.links_in).toEqual([expect.objectContaining({ atom_id: state.globex, kind: "supersedes" })]);
      expect(old.status_history[0]).toMatchObject({
        change_id: state.change,
        from: "candidate",
        to: "superseded",
        actor: "supersede",
      });
    });

    test("search and context answer Globex; at valid_at 2024-06 and at a known_at before, Acme", async () => {
      const now = await ok("memory_search", { query: QUESTION });
      expect(ids(now)).toContain(state.globex!);
      expect(ids(now)).not.toContain(state.acme!);
      const then = await ok("memory_search", { query: QUESTION, valid_at: "2024-06" });
      expect(ids(then)).toContain(state.acme!);
      expect(ids(then)).not.toContain(state.globex!);
      const known = await ok("memory_search", { query: QUESTION, known_at: state.between });
      expect(ids(known)).toEqual([state.acme!]);
      const asked = await ok("memory_search", { query: QUESTION, status: ["superseded"] });
      expect(ids(asked)).toEqual([state.acme!]);
      const ctx = text(await call("memory_get_context", { question: QUESTION }));
      expect(ctx).toContain("Globex");
      expect(ctx).not.toContain("Acme");
      const ctxThen = text(await call("memory_get_context", { question: QUESTION, valid_at: "2024-06" }));
      expect(ctxThen).toContain("Acme");
      expect(ctxThen).not.toContain("Globex");
    });

    test("an added consulting job supersedes nothing; a bad read time is an error", async () => {
      const also = await ok("memory_store", {
        type: "fact",
        claim: "Alice also consults for Initech",
        observed_at: "2025-04-01",
      });
      expect(also.supersedes ?? []).toEqual([]);
      expect((await ok("memory_get", { atom_id: state.globex })).status).toBe("candidate");
      const bad = await call("memory_search", { query: QUESTION, valid_at: "June 2024" });
      expect(bad.isError).toBe(true);
      expect(text(bad)).toContain("valid_at");
    });

    test("reverting the recorded change restores both, and the link goes", async () => {
      await ok("memory_verify", { revert_change_id: state.change });
      const old = await ok("memory_get", { atom_id: state.acme });
      expect(old.status).toBe("candidate");
      expect(old.links_in.filter((l: ToolOut) => l.kind === "supersedes")).toEqual([]);
      const both = ids(await ok("memory_search", { query: QUESTION }));
      expect(both).toContain(state.acme!);
      expect(both).toContain(state.globex!);
      // A supersession once undone is not decided again when the same statement comes back.
      const again = await ok("memory_store", { type: "text", claim: "Alice works at Acme", observed_at: "2024-02-01" });
      expect(again.supersedes ?? []).toEqual([]);
    });

    test("an old event reported later is superseded by the newer statement and holds at its own time", async () => {
      const now = await ok("memory_store", {
        type: "fact",
        claim: "Carol lives in Lisbon.",
        observed_at: "2024-09-01",
      });
      const old = await ok("memory_store", {
        type: "fact",
        claim: "In 2018 Carol lived in Porto.",
        observed_at: "2025-01-10",
      });
      expect(old.supersedes ?? []).toEqual([]);
      expect(old.superseded_by).toMatchObject({ atom_id: now.atom_id });
      expect((await ok("memory_get", { atom_id: old.atom_id })).status).toBe("superseded");
      const in2019 = ids(await ok("memory_search", { query: "where does Carol live", valid_at: "2019-05-01" }));
      expect(in2019).toEqual([old.atom_id]);
      // Today the newer statement answers first and the superseded one is left out (a note stored two turns away
      // may follow through the neighbour reach).
      const today = ids(await ok("memory_search", { query: "where does Carol live" }));
      expect(today[0]).toBe(now.atom_id);
      expect(today).not.toContain(old.atom_id);
    });

    test("ingested statements are decided when memory_verify checks them", async () => {
      await ok("memory_ingest", {
        text: "Dmitri Volkov lives in Novosibirsk with his family.",
        title: "note one",
        observed_at: "2019-04-01",
      });
      const b = await ok("memory_ingest", {
        text: "Dmitri Volkov moved to Tomsk last spring.",
        title: "note two",
        observed_at: "2022-06-01",
      });
      await ok("memory_verify", { doc_id: b.doc_id });
      const hits = await ok("memory_search", { query: "Dmitri Volkov Novosibirsk", status: ["superseded"] });
      expect((hits.hits as ToolOut[]).map((h) => h.claim)).toEqual([expect.stringContaining("Novosibirsk")]);
    });

    test("Russian: «переехал в» supersedes «живёт в»", async () => {
      const a = await ok("memory_store", { type: "fact", claim: "Андрей живёт в Казани.", observed_at: "2020-03-01" });
      const b = await ok("memory_store", {
        type: "fact",
        claim: "Андрей переехал в Москву.",
        observed_at: "2023-09-01",
      });
      expect(b.supersedes.map((s: ToolOut) => s.atom_id)).toEqual([a.atom_id]);
      const where = ids(await ok("memory_search", { query: "где живёт Андрей", valid_at: "2021-01-01" }));
      expect(where).toContain(a.atom_id);
      expect(where).not.toContain(b.atom_id);
    });
  });
}

scenario("pglite", null);
scenario("postgres", pgSkip);
