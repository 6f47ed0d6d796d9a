/**
 * WebSearch over a SearxNG-compatible JSON API: `GET <base>/search?q=<query>&format=json` answering
 * `{ "results": [{ "url", "title", "content" }, …] }` (SearxNG's Search API, docs.searxng.org "Search API"; the
 * instance must list `json` under `search.formats` in its settings.yml, else it answers 403). Only http(s) result
 * URLs are kept, duplicates (fragment aside) dropped, titles and snippets cut to a bounded length.
 * The backend is a service the owner configures (like Ollama), so it is reached directly: loopback and private
 * addresses are allowed and `proxy_url` is not applied; the pages it returns are fetched by URL ingest with all of
 * its safety rules. Errors: PegasError NETWORK_FAILED (unreachable, timeout, HTTP error, not JSON, no `results`
 * array), CANCELLED, INVALID_INPUT (bad base URL).
 */
import { PegasError } from "../../errors.ts";
import type { WebSearch, WebSearchResult } from "../../ports/models/web-search.ts";

/** Options: the base URL (`search_url`), the per-request timeout (ms) and a fetch to use (tests). */
export interface SearxngOptions {
  baseUrl: string;
  timeoutMs: number;
  fetch?: typeof fetch;
}

/** Largest JSON answer read (bytes). */
const MAX_BODY = 4 * 1024 * 1024;
const MAX_TITLE = 300;
const MAX_SNIPPET = 2000;

function cut(v: unknown, n: number): string {
  return typeof v === "string" ? [...v.replace(/\s+/g, " ").trim()].slice(0, n).join("") : "";
}

function httpUrl(v: unknown): string | null {
  if (typeof v !== "string") return null;
  try {
    const u = new URL(v);
    if (u.protocol !== "http:" && u.protocol !== "https:") return null;
    u.hash = "";
    return u.href;
  } catch {
    return null;
  }
}

/** {@link WebSearch} over a SearxNG-compatible `/search?format=json` endpoint (module doc). */
export class SearxngSearch implements WebSearch {
  readonly name: string;
  readonly #base: URL;
  readonly #opts: SearxngOptions;

  /** @throws PegasError INVALID_INPUT when `baseUrl` is not an http(s) URL. */
  constructor(opts: SearxngOptions) {
    let base: URL;
    try {
      base = new URL(opts.baseUrl);
    } catch {
      throw new PegasError("INVALID_INPUT", `search_url '${opts.baseUrl}' is not a URL`, {
        hint: "set PEGAS_SEARCH_URL to the SearxNG base URL, e.g. http://127.0.0.1:8888",
      });
    }
    if (base.protocol !== "http:" && base.protocol !== "https:") {
      throw new PegasError("INVALID_INPUT", `search_url '${opts.baseUrl}' is not http(s)`, {
        hint: "give the SearxNG base URL, e.g. http://127.0.0.1:8888",
      });
    }
    if (!base.pathname.endsWith("/")) base.pathname += "/";
    this.#base = base;
    this.#opts = opts;
    this.name = `searxng:${base.origin}${base.pathname.replace(/\/$/, "")}`;
  }

  /** Results for `query`, best first, at most `limit`. @throws PegasError NETWORK_FAILED, CANCELLED. */
  async search(query: string, limit: number, signal?: AbortSignal): Promise<WebSearchResult[]> {
    const url = new URL("search", this.#base);
    url.searchParams.set("q", query);
    url.searchParams.set("format", "json");
    const timeout = AbortSignal.timeout(this.#opts.timeoutMs);
    const both = signal ? AbortSignal.any([signal, timeout]) : timeout;
    let body: unknown;
    try {
      const res = await (this.#opts.fetch ?? fetch)(url, { signal: both, headers: { accept: "application/json" } });
      if (!res.ok) {
        const hint =
          res.status === 403
            ? "enable the json format in the instance's settings.yml (search.formats)"
            : "check that the search backend runs";
        throw new PegasError("NETWORK_FAILED", `search backend ${this.name} answered HTTP ${res.status}`, { hint });
      }
      const text = await res.text();
      if (text.length > MAX_BODY)
        throw new PegasError("NETWORK_FAILED", `search backend ${this.name} answered more than ${MAX_BODY} bytes`);
      body = JSON.parse(text);
    } catch (err) {
      if (err instanceof PegasError) throw err;
      if (signal?.aborted) throw new PegasError("CANCELLED", "web search cancelled", { cause: err });
      const why = timeout.aborted
        ? `no answer within ${this.#opts.timeoutMs} ms`
        : err instanceof SyntaxError
          ? "the answer is not JSON"
          : (err as Error).message;
      throw new PegasError("NETWORK_FAILED", `search backend ${this.name} failed: ${why}`, {
        hint: "check PEGAS_SEARCH_URL and that the backend answers /search?format=json",
        cause: err,
      });
    }
    const results = (body as { results?: unknown } | null)?.results;
    if (!Array.isArray(results))
      throw new PegasError("NETWORK_FAILED", `search backend ${this.name} answered without a results array`, {
        hint: "is it SearxNG-compatible?",
      });
    const seen = new Set<string>();
    const out: WebSearchResult[] = [];
    for (const r of results) {
      const u = httpUrl((r as { url?: unknown })?.url);
      if (!u || seen.has(u)) continue;
      seen.add(u);
      out.push({
        url: u,
        title: cut((r as { title?: unknown }).title, MAX_TITLE),
        content: cut((r as { content?: unknown }).content, MAX_SNIPPET),
      });
      if (out.length >= limit) break;
    }
    return out;
  }
}
