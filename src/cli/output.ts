/** CLI output: JSON or human-readable text, on stdout (the CLI's own channel; the MCP server never uses these). */
import type { SearchResult } from "../core/search/search.ts";
import { formatLocator } from "../domain/locator.ts";

/** Writes one line to stdout. */
export function out(text: string): void {
  process.stdout.write(text.endsWith("\n") ? text : `${text}\n`);
}

/** Writes a value as pretty JSON. */
export function outJson(value: unknown): void {
  out(JSON.stringify(value, null, 2));
}

/** Formats search hits with their citations. */
export function formatSearch(r: SearchResult): string {
  if (r.degraded) process.stderr.write(`warning: degraded search: ${r.degraded}\n`);
  if (!r.hits.length) return `no hits for «${r.query}»`;
  const rows = r.hits.map((h, i) => {
    const excerpt = h.content.replace(/\s+/g, " ").slice(0, 240);
    const cites = h.citations.map(
      (c) => `     ↳ ${c.title ?? c.uri} — ${c.uri}${formatLocator(c.locator) ? `, ${formatLocator(c.locator)}` : ""}`,
    );
    return [
      `${i + 1}. [atom ${h.atom_id}, ${h.type}, ${h.status}, score ${h.score.toFixed(4)}]`,
      `   ${excerpt}${h.content.length > 240 ? "…" : ""}`,
      ...cites,
    ].join("\n");
  });
  return rows.join("\n\n") + (r.next_cursor ? "\n\n(more hits: raise --k)" : "");
}
