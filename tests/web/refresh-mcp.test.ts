/**
 * memory_refresh through the MCP registry (SDK client, in-memory transport, embedded database): a page ingested by
 * memory_ingest is not due at the default age, is re-checked with its ETag at `older_than: "0"`, and a changed text
 * becomes version 2 with the vanished fact stale, shown in both the text and the structured content; a bad age is
 * one actionable error line.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { connectRegistry } from "../support/mcp-client.ts";
import { openTestServices, type TestServices } from "../support/services.ts";
import { toolCalls } from "../support/mcp-client.ts";

const page = (...p: string[]) =>
  `<html><head><title>Обсерватория</title></head><body><article><h1>Обсерватория</h1>${p.map((x) => `<p>${x}</p>`).join("")}</article></body></html>`;
const KEPT = "Купол обсерватории имеет ширину 14 метров и вращается на стальных колёсах.";
const DROPPED = "Телескоп установлен в 1998 году на бетонном основании.";
const ADDED = "Новый спектрограф подключён к телескопу в 2025 году.";
const MORE = "Экскурсии для школьников проводятся по субботам в ясные вечера, когда гид рассказывает о небе.";

describe("memory_refresh", () => {
  let t: TestServices;
  let mcp: Awaited<ReturnType<typeof connectRegistry>>;
  let version = 1;
  let busy = false;
  let busyAsked = 0;
  const etags: Array<string | null> = [];
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch(req) {
      const path = new URL(req.url).pathname;
      if (path === "/busy") {
        busyAsked++;
        if (busy) return new Response("busy", { status: 503, headers: { "retry-after": "600" } });
        return new Response(page(MORE, KEPT, "Обсерватория открыта для посетителей по пятницам с семи вечера."), {
          headers: { "content-type": "text/html; charset=utf-8" },
        });
      }
      if (path !== "/dome") return new Response("no", { status: 404 });
      etags.push(req.headers.get("if-none-match"));
      const body = version === 1 ? page(KEPT, DROPPED, MORE) : page(KEPT, ADDED, MORE);
      return new Response(body, { headers: { "content-type": "text/html; charset=utf-8", etag: `"v${version}"` } });
    },
  });
  const url = `http://127.0.0.1:${server.port}/dome`;

  beforeAll(async () => {
    const opened = await openTestServices("pglite", { allow_private_urls: true });
    if (typeof opened === "string") throw new Error(opened);
    t = opened;
    mcp = await connectRegistry(t.services);
  }, 120_000);
  afterAll(async () => {
    await mcp?.close();
    await t?.dispose();
    server.stop(true);
  });

  test("nothing due, then a changed page becomes version 2 with its vanished fact stale", async () => {
    const { ok, call, text } = toolCalls(mcp);
    const ingested = await ok("memory_ingest", { url });
    const docId = ingested.documents[0].doc_id as number;
    const none = await call("memory_refresh", {});
    expect(none.isError).toBeFalsy();
    expect(text(none)).toBe("No fetched web page is due for a re-check.");
    expect(none.structuredContent).toMatchObject({ checked: 0, items: [] });

    version = 2;
    const r = await call("memory_refresh", { older_than: "0" });
    expect(r.isError).toBeFalsy();
    expect(etags).toEqual([null, '"v1"']);
    expect(r.structuredContent).toMatchObject({
      checked: 1,
      changed: 1,
      items: [{ doc_id: docId, uri: url, outcome: "changed", version: 2 }],
    });
    const staled = (r.structuredContent as { items: Array<{ atoms_staled: number }> }).items[0].atoms_staled;
    expect(staled).toBeGreaterThan(0);
    expect(text(r)).toContain(`- doc ${docId}: changed ${url} → version 2, ${staled} atom(s) stale`);
    expect(text(r)).toContain("Checked: 1 checked, 1 changed, 0 unchanged, 0 back, 0 gone");
  }, 120_000);

  test("a page that fails is named with its next attempt, then listed as waiting without being asked", async () => {
    const { ok, call, text } = toolCalls(mcp);
    const busyUrl = url.replace("/dome", "/busy");
    const docId = (await ok("memory_ingest", { url: busyUrl })).documents[0].doc_id as number;
    busy = true;
    busyAsked = 0;
    const r = await call("memory_refresh", { older_than: "0" });
    const item = (r.structuredContent as { items: Array<Record<string, unknown>> }).items.find(
      (i) => i.doc_id === docId,
    )!;
    expect(item).toMatchObject({ uri: busyUrl, outcome: "retry", error: expect.stringContaining("HTTP 503") });
    const wait = Date.parse(item.retry_at as string) - Date.now();
    expect(wait).toBeGreaterThan(500_000); // the server's Retry-After: 600
    expect(wait).toBeLessThanOrEqual(600_000);
    const shown = (item.retry_at as string).replace(/\.\d+Z$/, "Z");
    expect(text(r)).toContain(`- doc ${docId}: retry ${busyUrl}, next attempt ${shown}: `);
    expect(busyAsked).toBe(1);

    const again = await call("memory_refresh", { older_than: "0" });
    expect(busyAsked).toBe(1); // not asked while it waits
    expect(again.structuredContent).toMatchObject({
      waiting: 1,
      waiting_items: [{ doc_id: docId, uri: busyUrl, retry_at: item.retry_at, failures: 1 }],
    });
    expect(text(again)).toContain(`- doc ${docId}: waiting ${busyUrl}, next attempt ${shown} (failed 1×: `);
    expect(text(again)).toContain("1 waiting for a retry.");
  }, 120_000);

  test("a bad age is one actionable error line", async () => {
    const { call, text } = toolCalls(mcp);
    const r = await call("memory_refresh", { older_than: "weekly" });
    expect(r.isError).toBe(true);
    expect(text(r)).toContain("'weekly' is not an age");
    expect(text(r)).toContain("7d");
    expect(text(r).includes("\n")).toBe(false);
  });
});
