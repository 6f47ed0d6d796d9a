/** memory_refresh's text content: one line per checked or waiting page, then the counts. */
import { describeRefreshCounts, refreshLines } from "../../../core/documents/refresh-report.ts";
import type { RefreshResult } from "../../../core/documents/refresh.ts";
import { lines } from "../../render.ts";

/**
 * memory_refresh's text: the checked pages and those waiting for a retry (with their document ids and next attempt),
 * then the counts, or that nothing was due.
 */
export function renderRefresh(out: Record<string, unknown>): string {
  const r = out as unknown as RefreshResult;
  if (!r.checked && !r.waiting) return "No fetched web page is due for a re-check.";
  return lines([...refreshLines(r, (id) => `- doc ${id}: `), `Checked: ${describeRefreshCounts(r)}.`]);
}
