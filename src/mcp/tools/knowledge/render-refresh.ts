/** memory_refresh's text content: one line per checked page, then the counts. */
import { describeRefreshCounts, describeRefreshItem, type RefreshResult } from "../../../core/documents/refresh.ts";
import { lines } from "../../render.ts";

/** memory_refresh's text: the checked pages (with their document ids), then the counts, or that nothing was due. */
export function renderRefresh(out: Record<string, unknown>): string {
  const r = out as unknown as RefreshResult;
  if (!r.checked) return "No fetched web page is due for a re-check.";
  return lines([
    ...r.items.map((i) => `- doc ${i.doc_id}: ${describeRefreshItem(i)}`),
    `Checked: ${describeRefreshCounts(r)}.`,
  ]);
}
