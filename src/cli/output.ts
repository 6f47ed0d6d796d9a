/** CLI output: JSON or human-readable text, on stdout (the CLI's own channel; the MCP server never uses these). */
import type { SearchResult } from "../core/search.ts";

/** Writes one line to stdout. */
export function out(text: string): void {
  process.stdout.write(text.endsWith("\n") ? text : text + "\n");
}

/** Writes a value as pretty JSON. */
export function outJson(value: unknown): void {
  out(JSON.stringify(value, null, 2));
}

function lines(loc: { line_start?: number; line_end?: number }): string {
  if (loc.line_start === undefined) return "";
  return loc.line_end !== undefined && loc.line_end !== loc.line_start ? `lines ${loc.line_start}–${loc.line_end}` : `line ${loc.line_start}`;
}

/** Formats search hits with their citations. */
export function formatSearch(r: SearchResult): string {
  if (!r.hits.length) return `no hits for «${r.query}»`;
  const rows = r.hits.map((h, i) => {
    const excerpt = h.content.replace(/\s+/g, " ").slice(0, 240);
    const cites = h.citations.map((c) => `     ↳ ${c.title ?? c.uri} — ${c.uri}${lines(c.locator) ? `, ${lines(c.locator)}` : ""}`);
    return [`${i + 1}. [atom ${h.atom_id}, ${h.type}, ${h.status}, score ${h.score.toFixed(4)}]`, `   ${excerpt}${h.content.length > 240 ? "…" : ""}`, ...cites].join("\n");
  });
  return rows.join("\n\n") + (r.next_cursor ? "\n\n(more hits: raise --k)" : "");
}
