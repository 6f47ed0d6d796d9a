/**
 * MCP over Streamable HTTP on a real listener (127.0.0.1, a free port) with the SDK's own client: initialize,
 * tools/list, memory_store then memory_search in Russian and English; sessions: DELETE ends one (its id is 404
 * after), at the cap an initialize evicts the least recently used idle session (a session with a request in flight
 * is never evicted; 503 only when every one is busy), an idle session expires; DNS-rebinding protection on loopback.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { request as httpRequest } from "node:http";
import { TOOLS } from "../../src/mcp/registry.ts";
import { setLogLevel } from "../../src/log.ts";
import { gatedSessions, httpClient, httpServer, INITIALIZE, MCP_POST_HEADERS } from "./support.ts";

// Quieter while this file runs; restored after it, since every test file shares the one process logger.
beforeAll(() => setLogLevel("warn"));
afterAll(() => setLogLevel("info"));

type Server = Awaited<ReturnType<typeof httpServer>>;

/** A raw POST of an initialize; resolves with the status and the session id given. */
async function rawInitialize(url: string): Promise<{ status: number; sid: string | null; body: string }> {
  const res = await fetch(`${url}/mcp`, { method: "POST", headers: MCP_POST_HEADERS, body: INITIALIZE });
  return { status: res.status, sid: res.headers.get("mcp-session-id"), body: await res.text() };
}

describe("tools over HTTP", () => {
  let s: Server;
  beforeAll(async () => {
    s = await httpServer();
  }, 60_000);
  afterAll(async () => s?.dispose());

  test("initialize, tools/list, store then search in Russian and English", async () => {
    const { client } = await httpClient(s.listener.url);
    expect(client.getServerVersion()?.name).toBe("pegas-memory");
    const tools = (await client.listTools()).tools.map((t) => t.name);
    expect(tools.sort()).toEqual(TOOLS.map((t) => t.name).sort());

    const store = async (claim: string) => {
      const r = await client.callTool({ name: "memory_store", arguments: { type: "fact", claim } });
      expect(r.isError).toBeFalsy();
      return (r.structuredContent as { atom_id: number }).atom_id;
    };
    const ru = await store("Долговременная память агента хранится в PostgreSQL, а индексы восстанавливаются из неё");
    const en = await store("The outbox worker feeds the Qdrant and Memgraph projections after each commit");
    const search = async (query: string) => {
      const r = await client.callTool({ name: "memory_search", arguments: { query, k: 3 } });
      expect(r.isError).toBeFalsy();
      return (r.structuredContent as { hits: Array<{ atom_id: number }> }).hits.map((h) => h.atom_id);
    };
    expect((await search("где хранится долговременная память?"))[0]).toBe(ru);
    expect((await search("which projections does the outbox feed"))[0]).toBe(en);
    await client.close();
  }, 60_000);

  test("DELETE ends a session: its id is 404 afterwards, another session goes on", async () => {
    const a = await httpClient(s.listener.url);
    const b = await httpClient(s.listener.url);
    const sid = a.transport.sessionId as string;
    expect(sid).toBeString();
    await a.transport.terminateSession();
    const after = await fetch(`${s.listener.url}/mcp`, {
      method: "POST",
      headers: { ...MCP_POST_HEADERS, "mcp-session-id": sid },
      body: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list", params: {} }),
    });
    expect(after.status).toBe(404);
    expect(((await after.json()) as { error: { message: string } }).error.message).toContain("Session not found");
    expect((await b.client.listTools()).tools.length).toBe(TOOLS.length);
    await b.client.close();
  }, 30_000);

  test("DNS-rebinding protection: a Host header that is not a loopback name is refused with 403", async () => {
    const { port } = s.listener;
    const status = await new Promise<number>((resolve, reject) => {
      const req = httpRequest(
        {
          host: "127.0.0.1",
          port,
          path: "/mcp",
          method: "POST",
          headers: { ...MCP_POST_HEADERS, host: `evil.example:${port}` },
        },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on("error", reject);
      req.end(INITIALIZE);
    });
    expect(status).toBe(403);
    expect((await rawInitialize(`http://localhost:${port}`)).status).toBe(200);
  });
});

describe("session limits", () => {
  let s: Server;
  beforeAll(async () => {
    // Idle 1.5 s: long enough that a loaded machine never sweeps session two between its initialize and its ping.
    s = await httpServer({}, { sessions: { maxSessions: 2, idleMs: 1500 } });
  }, 60_000);
  afterAll(async () => s?.dispose());

  test("beyond the cap an initialize evicts the least recently used idle session (404 after); an idle session expires", async () => {
    const one = await rawInitialize(s.listener.url);
    const two = await rawInitialize(s.listener.url);
    expect([one.status, two.status]).toEqual([200, 200]);
    const three = await rawInitialize(s.listener.url);
    expect(three.status).toBe(200);
    const ping = (sid: string | null) =>
      fetch(`${s.listener.url}/mcp`, {
        method: "POST",
        headers: { ...MCP_POST_HEADERS, "mcp-session-id": sid as string },
        body: PING,
      });
    const evicted = await ping(one.sid);
    expect(evicted.status).toBe(404);
    expect(((await evicted.json()) as { error: { message: string } }).error.message).toContain(
      "evicted for a newer one (at most 2 live)",
    );
    expect((await ping(two.sid)).status).toBe(200);
    await Bun.sleep(3500); // idle 1.5 s, swept every 1.5 s
    const expired = await fetch(`${s.listener.url}/mcp`, {
      method: "DELETE",
      headers: { "mcp-session-id": three.sid as string },
    });
    expect(expired.status).toBe(404);
    expect((await rawInitialize(s.listener.url)).status).toBe(200);
  }, 30_000);
});

const PING = JSON.stringify({ jsonrpc: "2.0", id: 3, method: "ping" });
const WAIT = JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "wait", arguments: {} } });

/** {@link gatedSessions} with a POST and an initialize (checked) of its own. */
function gatedWithInit(maxSessions: number) {
  const { sessions, send, open } = gatedSessions({ maxSessions });
  const post = (sid: string | null, body: string) => send("POST", sid, body);
  const initialize = async () => {
    const res = await post(null, INITIALIZE);
    expect(res.status).toBe(200);
    await res.text();
    const sid = res.headers.get("mcp-session-id") as string;
    expect((await post(sid, JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }))).status).toBe(202);
    return sid;
  };
  return { sessions, post, initialize, open };
}

describe("session eviction at the cap", () => {
  test("the least recently used session without a request in flight is evicted; 503 only when all are busy", async () => {
    const g = gatedWithInit(2);
    const a = await g.initialize();
    const b = await g.initialize();
    const waitA = await g.post(a, WAIT); // in flight until the gate opens: its SSE answer is still open
    expect(waitA.status).toBe(200);
    const pingB = await g.post(b, PING);
    expect(await pingB.text()).toContain('"result"');
    // `a` was used least recently, but it is busy: `b` goes.
    const c = await g.initialize();
    expect(g.sessions.size).toBe(2);
    expect((await g.post(b, PING)).status).toBe(404);

    const waitC = await g.post(c, WAIT);
    const full = await g.post(null, INITIALIZE);
    expect(full.status).toBe(503);
    expect(full.headers.get("retry-after")).toBe("5");
    expect(((await full.json()) as { error: { message: string } }).error.message).toContain(
      "too many MCP sessions: 2 are live and every one has a request in flight",
    );

    g.open();
    expect(await waitA.text()).toContain("released");
    expect(await waitC.text()).toContain("released");
    // Both idle now; `a` finished first, so it is the least recently used.
    const d = await g.initialize();
    expect((await g.post(a, PING)).status).toBe(404);
    expect((await g.post(c, PING)).status).toBe(200);
    expect((await g.post(d, PING)).status).toBe(200);
    await g.sessions.closeAll();
  }, 30_000);
});
