/**
 * Resumability of /mcp: a dropped connection cancels no call, and its answer is fetched again with `GET` and
 * `Last-Event-ID`. On the session map with a tool that answers only when the test says so (the connection is surely
 * dropped while the call runs, and its session is not evicted meanwhile); on a real listener with the SDK's own client, whose POST stream is cut after its
 * first event (the client resumes by itself and the stored atom is there); an event id no longer kept is a clear
 * 400. Plus the bounds of the event store (count, bytes, total, expiry, the end of a session).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { ReplayBudget } from "../../src/http/event-store.ts";
import { setLogLevel } from "../../src/log.ts";
import { gatedSessions, httpServer } from "./support.ts";

beforeAll(() => setLogLevel("warn"));
afterAll(() => setLogLevel("info"));

const V = "2025-11-25";
const INIT = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: V, capabilities: {}, clientInfo: { name: "replay", version: "1" } },
});
const WAIT = JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "wait", arguments: {} } });

/** Reads an SSE body until `until` matches the text read so far; resolves with that text (the reader stays open). */
async function readUntil(
  reader: { read(): Promise<{ done: boolean; value?: Uint8Array }> },
  until: RegExp,
): Promise<string> {
  const dec = new TextDecoder();
  let text = "";
  while (!until.test(text)) {
    const r = await reader.read();
    if (r.done) break;
    text += dec.decode(r.value, { stream: true });
  }
  return text;
}

/** A {@link gatedSessions} map of one session that keeps events for replay. */
function gated() {
  const replay = new ReplayBudget();
  return { ...gatedSessions({ maxSessions: 1, replay, protocolVersion: V }), replay };
}

describe("replay after a dropped connection", () => {
  test("the call goes on after its stream is dropped; GET with Last-Event-ID sends its answer", async () => {
    const g = gated();
    const init = await g.send("POST", null, INIT);
    await init.text();
    const sid = init.headers.get("mcp-session-id") as string;
    expect(
      (await g.send("POST", sid, JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }))).status,
    ).toBe(202);

    // An answer read to its end is not kept: nothing will ask for it again.
    const ping = await g.send("POST", sid, JSON.stringify({ jsonrpc: "2.0", id: 9, method: "ping" }));
    expect(await ping.text()).toContain('"result"');
    expect(g.replay.size).toBe(0);

    const call = await g.send("POST", sid, WAIT);
    expect(call.status).toBe(200);
    const reader = (call.body as ReadableStream<Uint8Array>).getReader();
    const primed = await readUntil(reader, /^id: (\S+)$/m);
    const lastId = (/^id: (\S+)$/m.exec(primed) as RegExpExecArray)[1];
    await reader.cancel("client went away"); // what the listener does when the connection drops
    // The call still runs, so its session is not evicted for a newer one (cap 1): 503 instead.
    const crowded = await g.send("POST", null, INIT);
    expect(crowded.status).toBe(503);
    g.open(); // the call was running all along: it answers now, into the event store

    const resumed = await g.send("GET", sid, undefined, { accept: "text/event-stream", "last-event-id": lastId });
    expect(resumed.status).toBe(200);
    const resumedReader = (resumed.body as ReadableStream<Uint8Array>).getReader();
    const text = await readUntil(resumedReader, /released/);
    const data = /^data: (.*"released".*)$/m.exec(text) as RegExpExecArray;
    const msg = JSON.parse(data[1]) as { id: number; result: { content: Array<{ text: string }> } };
    expect(msg.id).toBe(2);
    expect(msg.result.content[0].text).toBe("released");
    // The stream ends with the answer it resumed (it would otherwise stay open, sending keep-alives, until the
    // session ends).
    expect((await resumedReader.read()).done).toBe(true);
    expect(g.replay.size).toBeGreaterThan(0); // kept until the session ends or the TTL

    // An id the session never gave (or no longer keeps) is a clear 400, not a silent empty stream.
    const gone = await g.send("GET", sid, undefined, { accept: "text/event-stream", "last-event-id": "999-999" });
    expect(gone.status).toBe(400);
    expect(((await gone.json()) as { error: { message: string } }).error.message).toContain("is no longer kept");
    // Answered: now the session may make room for a newer one.
    const next = await g.send("POST", null, INIT);
    expect(next.status).toBe(200);
    await next.text();
    expect((await g.send("GET", sid, undefined, { accept: "text/event-stream" })).status).toBe(404);
    expect(g.replay.size).toBe(0); // the evicted session's events went with it
    await g.sessions.closeAll();
  }, 30_000);

  describe("on a real listener with the SDK client", () => {
    let s: Awaited<ReturnType<typeof httpServer>>;
    beforeAll(async () => {
      s = await httpServer();
    }, 60_000);
    afterAll(async () => s?.dispose());

    test("a tool call whose POST stream is cut after its first event still resolves; the atom is stored once", async () => {
      let cut = 0;
      let resumed = 0;
      // A fetch that cuts the answer of each tools/call POST after its first event (the priming event with an id).
      const cutting = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
        const res = await fetch(input, init);
        if (init?.method === "GET" && new Headers(init.headers).has("last-event-id")) resumed += 1;
        if (init?.method !== "POST" || !String(init.body).includes('"tools/call"') || !res.body) return res;
        const upstream = res.body.getReader();
        const first = await readUntil(upstream, /^id: /m);
        await upstream.cancel("cut by the test");
        cut += 1;
        let sent = false;
        const body = new ReadableStream<Uint8Array>({
          pull(c) {
            if (sent) c.error(new TypeError("network connection lost"));
            else c.enqueue(new TextEncoder().encode(first));
            sent = true;
          },
        });
        return new Response(body, { status: res.status, headers: res.headers });
      };
      const transport = new StreamableHTTPClientTransport(new URL(`${s.listener.url}/mcp`), {
        fetch: cutting,
        reconnectionOptions: {
          initialReconnectionDelay: 20,
          maxReconnectionDelay: 200,
          reconnectionDelayGrowFactor: 2,
          maxRetries: 10,
        },
      });
      const client = new Client({ name: "replay", version: "1" });
      await client.connect(transport);
      const claim = "Прерванное соединение не отменяет вызов: ответ приходит повторно после Last-Event-ID";
      const r = await client.callTool({ name: "memory_store", arguments: { type: "fact", claim } });
      expect(r.isError).toBeFalsy();
      const atom = (r.structuredContent as { atom_id: number }).atom_id;
      expect(cut).toBe(1);
      expect(resumed).toBeGreaterThanOrEqual(1);

      const again = await client.callTool({ name: "memory_store", arguments: { type: "fact", claim } });
      const out = again.structuredContent as { atom_id: number; created: boolean };
      expect(out.atom_id).toBe(atom);
      expect(out.created).toBe(false);
      await client.close();
    }, 60_000);
  });
});

describe("event store bounds", () => {
  const msg = (n: number, pad = ""): JSONRPCMessage => ({
    jsonrpc: "2.0",
    method: "notifications/progress",
    params: { n, pad },
  });
  const replay = async (store: ReturnType<ReplayBudget["store"]>, after: string) => {
    const got: Array<[string, number]> = [];
    const stream = await store.replayEventsAfter(after, {
      send: async (id, m) => void got.push([id, (m as unknown as { params: { n: number } }).params.n]),
    });
    return { stream, got };
  };

  test("replays a stream's later events only, skipping priming events; other streams stay apart", async () => {
    const store = new ReplayBudget().store();
    const prime = await store.storeEvent("A", {} as JSONRPCMessage);
    await store.storeEvent("A", msg(1));
    const b = await store.storeEvent("B", msg(100));
    await store.storeEvent("A", msg(2));
    expect(await store.getStreamIdForEventId(prime)).toBe("A");
    expect(await replay(store, prime)).toEqual({
      stream: "A",
      got: [
        ["1-2", 1],
        ["1-4", 2],
      ],
    });
    expect((await replay(store, b)).got).toEqual([]);
    expect(await replay(store, "nonsense")).toEqual({ stream: "", got: [] });
    expect(store.knows("nonsense")).toBe(false);

    // The answer of request 7 on stream C, delivered: C's events go, the others stay.
    const c = await store.storeEvent("C", {} as JSONRPCMessage);
    await store.storeEvent("C", { jsonrpc: "2.0", id: 7, result: {} });
    store.delivered(7);
    expect(store.knows(c)).toBe(false);
    expect(store.size).toBe(4);
  });

  test("per session the oldest go beyond the count or bytes; a dropped id still replays what came after", async () => {
    const store = new ReplayBudget({ maxEvents: 3, maxBytes: 1 << 20, totalBytes: 1 << 30, ttlMs: 60_000 }).store();
    const first = await store.storeEvent("A", msg(1));
    for (let n = 2; n <= 5; n++) await store.storeEvent("A", msg(n));
    expect(store.size).toBe(3);
    expect((await replay(store, first)).got.map(([, n]) => n)).toEqual([3, 4, 5]);

    const small = new ReplayBudget({ maxEvents: 100, maxBytes: 2500, totalBytes: 1 << 30, ttlMs: 60_000 }).store();
    for (let n = 1; n <= 5; n++) await small.storeEvent("A", msg(n, "x".repeat(1000)));
    expect(small.size).toBe(2);
  });

  test("all sessions together stay under the total; expired events go; a session's end drops its events", async () => {
    const budget = new ReplayBudget({ maxEvents: 100, maxBytes: 1 << 20, totalBytes: 5000, ttlMs: 60_000 });
    const one = budget.store();
    const two = budget.store();
    for (let n = 1; n <= 4; n++) await one.storeEvent("A", msg(n, "x".repeat(1000)));
    for (let n = 1; n <= 4; n++) await two.storeEvent("A", msg(n, "x".repeat(1000)));
    expect(budget.size).toBeLessThanOrEqual(5000);
    expect(one.size).toBe(0); // the oldest events were the first session's
    expect(two.size).toBe(4);
    two.clear();
    expect([two.size, budget.size]).toEqual([0, 0]);

    const expired = new ReplayBudget({ maxEvents: 100, maxBytes: 1 << 20, totalBytes: 1 << 30, ttlMs: 0 }).store();
    const prime = await expired.storeEvent("A", {} as JSONRPCMessage);
    await expired.storeEvent("A", msg(1));
    // The message expired at once; the priming event (no bytes) is kept, so the stream can still be resumed.
    expect(expired.size).toBe(1);
    expect(expired.knows(prime)).toBe(true);
  });
});
