/**
 * WebSearch port: the web search backend of the research runner (`pegas-memory research`); adapter:
 * src/adapters/search/searxng.ts.
 */

/** One result of a web search backend (SearxNG's JSON `results[]`): the URL, its title and the engine's snippet. */
export interface WebSearchResult {
  url: string;
  title: string;
  content: string;
}

/** A web search backend for the research runner. Errors: PegasError NETWORK_FAILED, INVALID_INPUT, CANCELLED. */
export interface WebSearch {
  /** `name` for logs and results, e.g. `searxng:http://127.0.0.1:8888`. */
  readonly name: string;
  /** Results for `query`, best first, at most `limit`. */
  search(query: string, limit: number, signal?: AbortSignal): Promise<WebSearchResult[]>;
}
