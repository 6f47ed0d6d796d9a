/** CLI output: JSON or human-readable text, on stdout (the CLI's own channel; the MCP server never uses these). */
import type { SearchResult } from "../core/search.ts";
import type { Locator } from "../ports/canonical-store.ts";

/** Writes one line to stdout. */
export function out(text: string): void {
  process.stdout.write(text.endsWith("\n") ? text : text + "\n");
}

/** Writes a value as pretty JSON. */
export function outJson(value: unknown): void {
  out(JSON.stringify(value, null, 2));
}

/** "page 3, lines 1–11", "chapter «Down the Rabbit-Hole» (2), line 4", "lines 12–20", "src/a.py, lines 3–9". */
function where(loc: Locator): string {
  const parts: string[] = [];
  if (loc.href !== undefined && loc.chapter === undefined) parts.push(loc.href);
  if (loc.page !== undefined) parts.push(`page ${loc.page}`);
  if (loc.chapter !== undefined) parts.push(`chapter «${loc.chapter}»${loc.chapter_index !== undefined ? ` (${loc.chapter_index})` : ""}`);
  if (loc.line_start !== undefined) {
    parts.push(loc.line_end !== undefined && loc.line_end !== loc.line_start ? `lines ${loc.line_start}–${loc.line_end}` : `line ${loc.line_start}`);
  }
  return parts.join(", ");
}

/** Formats search hits with their citations. */
export function formatSearch(r: SearchResult): string {
  if (r.degraded) process.stderr.write(`warning: degraded search: ${r.degraded}\n`);
  if (!r.hits.length) return `no hits for «${r.query}»`;
  const rows = r.hits.map((h, i) => {
    const excerpt = h.content.replace(/\s+/g, " ").slice(0, 240);
    const cites = h.citations.map((c) => `     ↳ ${c.title ?? c.uri} — ${c.uri}${where(c.locator) ? `, ${where(c.locator)}` : ""}`);
    return [`${i + 1}. [atom ${h.atom_id}, ${h.type}, ${h.status}, score ${h.score.toFixed(4)}]`, `   ${excerpt}${h.content.length > 240 ? "…" : ""}`, ...cites].join("\n");
  });
  return rows.join("\n\n") + (r.next_cursor ? "\n\n(more hits: raise --k)" : "");
}
