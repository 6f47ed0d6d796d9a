/** Citation locators as people read them. */
import type { Locator } from "../ports/canonical-store.ts";

/** "page 3, lines 1–11", "chapter «Down the Rabbit-Hole» (2), line 4", "lines 12–20", "src/a.py, lines 3–9". */
export function formatLocator(loc: Locator): string {
  const parts: string[] = [];
  if (loc.href !== undefined && loc.chapter === undefined) parts.push(loc.href);
  if (loc.page !== undefined) parts.push(`page ${loc.page}`);
  if (loc.chapter !== undefined)
    parts.push(`chapter «${loc.chapter}»${loc.chapter_index !== undefined ? ` (${loc.chapter_index})` : ""}`);
  if (loc.line_start !== undefined) {
    parts.push(
      loc.line_end !== undefined && loc.line_end !== loc.line_start
        ? `lines ${loc.line_start}–${loc.line_end}`
        : `line ${loc.line_start}`,
    );
  }
  return parts.join(", ");
}
