/**
 * Stand-ins for the research runner tests, all on loopback: a SearxNG-compatible search backend (only the JSON Search
 * API's shape: `GET /search?q=…&format=json` → `{results: [{url, title, content}]}`; it is no SearxNG) whose answers
 * are set per query, and page sites on 127.0.0.2 and 127.0.0.3 — two hosts without a registrable domain, which URL
 * ingest and verification count as two distinct sites — serving plain-text pages or answering 403 (a blocked page).
 */

/** A loopback HTTP server and its base URL. */
export interface Stub {
  base: string;
  /** Requests seen, as "METHOD path?query". */
  requests: string[];
  stop(): void;
}

/** One route of a page site: text served as text/plain, or an HTTP status with no page. */
export type Page = string | { status: number };

/** Serves `pages` (path → page) on `host`; any other path is 404. */
export function startPages(host: string, pages: Record<string, Page>): Stub {
  const requests: string[] = [];
  const server = Bun.serve({
    hostname: host,
    port: 0,
    fetch: (req) => {
      const u = new URL(req.url);
      requests.push(`${req.method} ${u.pathname}`);
      const p = pages[u.pathname];
      if (p === undefined) return new Response("missing", { status: 404 });
      if (typeof p !== "string") return new Response("Access denied", { status: p.status });
      return new Response(p, { headers: { "content-type": "text/plain; charset=utf-8" } });
    },
  });
  return { base: `http://${host}:${server.port}`, requests, stop: () => server.stop(true) };
}

/** One result of the stand-in search backend. */
export interface StubResult {
  url: string;
  title: string;
  content: string;
}

/**
 * A SearxNG-compatible stand-in on 127.0.0.1: `answer(q)` gives the results of a query; requests without
 * `format=json` get 403 as a SearxNG instance without the json format does.
 */
export function startSearchBackend(answer: (q: string) => StubResult[]): Stub {
  const requests: string[] = [];
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch: (req) => {
      const u = new URL(req.url);
      requests.push(`${req.method} ${u.pathname}${u.search}`);
      if (u.pathname !== "/search") return new Response("missing", { status: 404 });
      if (u.searchParams.get("format") !== "json") return new Response("Forbidden", { status: 403 });
      const q = u.searchParams.get("q") ?? "";
      return Response.json({
        query: q,
        number_of_results: 0,
        results: answer(q).map((r) => ({ ...r, engine: "stub" })),
      });
    },
  });
  return { base: `http://127.0.0.1:${server.port}`, requests, stop: () => server.stop(true) };
}
