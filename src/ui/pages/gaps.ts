/** Gaps page: open and answered research gaps by priority (memory_list_gaps) and the gaps suggested by missed searches. */
import { html } from "hono/html";
import type { ListGapsResult } from "../../core/gaps/gaps.ts";
import { type Html, type PageContext, layout, pager } from "../html.ts";
import type { GapRow } from "../../core/services.ts";

/** Gaps per page of each list. */
export const GAPS_PAGE = 50;

/** Page numbers (1-based) of the two lists. */
export interface GapPages {
  open: number;
  answered: number;
}

function gapTable(
  ctx: PageContext,
  list: keyof GapPages,
  title: string,
  gaps: GapRow[],
  total: number,
  pages: GapPages,
): Html {
  const id = `h-${list}`;
  const href = (p: number) =>
    `${ctx.base}/gaps?${new URLSearchParams({ ...pagesQuery(pages), [`${list}_page`]: String(p) })}#${id}`;
  return html`<section aria-labelledby="${id}"><h2 id="${id}">${title} (${total})</h2>
${
  gaps.length
    ? html`<div class="scroll"><table><thead><tr><th scope="col">Priority</th><th scope="col">Question</th><th scope="col">Reason</th><th scope="col">Since</th></tr></thead><tbody>
${gaps.map((g) => html`<tr><td>${g.priority}</td><td>${g.question}</td><td>${g.reason ?? ""}</td><td>${g.created_at.slice(0, 10)}</td></tr>`)}
</tbody></table></div>`
    : html`<p class="muted">none${pages[list] > 1 ? " on this page" : ""}</p>`
}${pager(pages[list], GAPS_PAGE, total, href)}</section>`;
}

const pagesQuery = (p: GapPages): Record<string, string> => ({
  open_page: String(p.open),
  answered_page: String(p.answered),
});

/** The gaps page over a page of the `open` listing (with the suggestions) and of the `answered` one (without). */
export function gapsPage(
  ctx: PageContext,
  open: ListGapsResult,
  answered: ListGapsResult,
  pages: GapPages = { open: 1, answered: 1 },
): Html {
  const body = html`${gapTable(ctx, "open", "Open", open.gaps, open.total, pages)}${gapTable(ctx, "answered", "Answered", answered.gaps, answered.total, pages)}
<section aria-labelledby="h-suggested"><h2 id="h-suggested">Suggested from missed searches (${open.suggested_total})</h2>
${
  open.suggested.length
    ? html`<div class="scroll"><table><thead><tr><th scope="col">Query</th><th scope="col">Misses</th><th scope="col">Best score</th><th scope="col">Last</th></tr></thead><tbody>
${open.suggested.map(
  (
    s,
  ) => html`<tr><td><a href="${ctx.base}/search?q=${encodeURIComponent(s.query)}">${s.query}</a></td><td>${s.misses}</td>
<td>${s.best_score.toFixed(2)}</td><td>${s.last_at.slice(0, 10)}</td></tr>`,
)}</tbody></table></div>`
    : html`<p class="muted">none</p>`
}</section>`;
  return layout(ctx, "Research gaps", "/gaps", body);
}
