/** Gaps page: open and answered research gaps by priority (memory_list_gaps) and the gaps suggested by missed searches. */
import { html } from "hono/html";
import type { ListGapsResult } from "../../core/gaps.ts";
import type { GapRow } from "../../ports/gaps.ts";
import { type Html, type PageContext, layout } from "../html.ts";

function gapTable(title: string, id: string, gaps: GapRow[], total: number): Html {
  return html`<section aria-labelledby="${id}"><h2 id="${id}">${title} (${total})</h2>
${gaps.length ? html`<table><thead><tr><th scope="col">Priority</th><th scope="col">Question</th><th scope="col">Reason</th><th scope="col">Since</th></tr></thead><tbody>
${gaps.map((g) => html`<tr><td>${g.priority}</td><td>${g.question}</td><td>${g.reason ?? ""}</td><td>${g.created_at.slice(0, 10)}</td></tr>`)}
</tbody></table>${total > gaps.length ? html`<p class="muted">${total - gaps.length} more not shown (the most urgent come first).</p>` : ""}`
    : html`<p class="muted">none</p>`}</section>`;
}

/** The gaps page over an `open` and an `answered` listing (both carry the same suggestions). */
export function gapsPage(ctx: PageContext, open: ListGapsResult, answered: ListGapsResult): Html {
  const body = html`${gapTable("Open", "h-open", open.gaps, open.total)}${gapTable("Answered", "h-answered", answered.gaps, answered.total)}
<section aria-labelledby="h-suggested"><h2 id="h-suggested">Suggested from missed searches (${open.suggested_total})</h2>
${open.suggested.length ? html`<table><thead><tr><th scope="col">Query</th><th scope="col">Misses</th><th scope="col">Best score</th><th scope="col">Last</th></tr></thead><tbody>
${open.suggested.map((s) => html`<tr><td><a href="${ctx.base}/search?q=${encodeURIComponent(s.query)}">${s.query}</a></td><td>${s.misses}</td>
<td>${s.best_score.toFixed(2)}</td><td>${s.last_at.slice(0, 10)}</td></tr>`)}</tbody></table>` : html`<p class="muted">none</p>`}</section>`;
  return layout(ctx, "Research gaps", "/gaps", body);
}
