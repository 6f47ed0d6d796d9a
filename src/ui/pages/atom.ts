/**
 * Atom page: memory_get's view (core/knowledge/get-atom.ts) — content, status history, citations with quotes, links out and in
 * and to code symbols — with the actions verify, forget (with a reason), undo forget, revert a status change, link
 * to another atom or symbol, and remove a link the agent made (a "Remove link" button beside each). Every form posts
 * to the UI app, which calls the same core use cases as the MCP tools.
 */
import { html } from "hono/html";
import type { AtomDetail } from "../../core/knowledge/get-atom.ts";
import { reasonLine } from "../../domain/confidence/model.ts";
import { NOT_REVERTIBLE, removeLinkForm } from "../actions.ts";
import { type Html, type PageContext, citation, csrfField, langAttr, layout, pager, statusBadge } from "../html.ts";
import type { AtomLinkView, DocumentSummary, StatusChangeRecord } from "../../core/services.ts";

/** Links per list (out, in, code symbols) on one page of the atom page. */
export const LINKS_PAGE = 50;

function history(ctx: PageContext, atomId: number, rows: StatusChangeRecord[]): Html {
  if (!rows.length) return html`<p class="muted">No status changes recorded.</p>`;
  return html`<div class="scroll"><table><caption class="sr">Status history, newest first</caption><thead><tr><th scope="col">When</th><th scope="col">Change</th>
<th scope="col">By</th><th scope="col">Reason</th><th scope="col"><span class="sr">Action</span></th></tr></thead><tbody>
${rows.map(
  (r) => html`<tr><td>${r.created_at.slice(0, 19).replace("T", " ")}</td>
<td>${statusBadge(r.from_status)} → ${statusBadge(r.to_status)} <span class="muted">#${r.id}</span></td><td>${r.actor}</td><td>${r.reason}</td>
<td>${
    r.reverted_at
      ? html`<span class="muted">reverted</span>`
      : r.reverts === null && !NOT_REVERTIBLE.has(r.actor)
        ? html`<form method="post" action="${ctx.base}/atom/${atomId}/revert">${csrfField(ctx)}<input type="hidden" name="change" value="${r.id}">
<button type="submit">Revert #${r.id}</button></form>`
        : ""
  }</td></tr>`,
)}
</tbody></table></div>`;
}

/** Whether the page offers to remove a link: the agent's own (made here or by memory_link), never an inferred one. */
const removable = (l: { source: string; inferred: boolean }) => l.source === "agent" && !l.inferred;

function linkList(
  ctx: PageContext,
  atomId: number,
  title: string,
  arrow: string,
  rows: AtomLinkView[],
  total: number,
): Html {
  const ends = (l: AtomLinkView) =>
    arrow === "→" ? [`atom:${atomId}`, `atom:${l.atom_id}`] : [`atom:${l.atom_id}`, `atom:${atomId}`];
  return html`<h3>${title} (${total})</h3>${
    rows.length
      ? html`<ul class="links">${rows.map(
          (l) => html`<li>
<span class="kind${l.inferred ? " inferred" : ""}">${arrow} ${l.kind}${l.inferred ? " (inferred)" : ""}</span>
<a href="${ctx.base}/atom/${l.atom_id}">${l.claim}</a> ${statusBadge(l.status)}
<span class="muted">confidence ${l.confidence.toFixed(2)}, by ${l.source}</span>${removable(l) ? removeLinkForm(ctx, atomId, ends(l)[0], ends(l)[1], l.kind, `${arrow} ${l.kind} atom ${l.atom_id}`) : ""}</li>`,
        )}</ul>`
      : html`<p class="muted">${total ? "none on this page" : "none"}</p>`
  }`;
}

function actions(ctx: PageContext, d: AtomDetail): Html {
  const a = d.atom;
  const retracted = a.status === "retracted";
  const forgetForm = retracted
    ? html`<form method="post" action="${ctx.base}/atom/${a.id}/forget" class="action">${csrfField(ctx)}<input type="hidden" name="undo" value="1">
<h3>Undo forget</h3><p><label for="undo-reason">Reason</label> <input id="undo-reason" name="reason" required maxlength="1000" value="restored from the admin page">
<button type="submit">Restore atom</button></p></form>`
    : html`<form method="post" action="${ctx.base}/atom/${a.id}/forget" class="action">${csrfField(ctx)}
<h3>Forget</h3><p><label for="forget-reason">Reason</label> <input id="forget-reason" name="reason" required maxlength="1000" placeholder="why it is wrong or obsolete">
<button type="submit" class="danger">Forget atom</button></p></form>`;
  return html`<section aria-labelledby="h-actions" class="actions"><h2 id="h-actions">Actions</h2>
${
  retracted
    ? ""
    : html`<form method="post" action="${ctx.base}/atom/${a.id}/verify" class="action">${csrfField(ctx)}<h3>Verify</h3>
<p>Check this atom against its neighbours and independent sources (as memory_verify). <button type="submit">Verify atom</button></p></form>`
}
${forgetForm}
${
  retracted
    ? ""
    : html`<form method="post" action="${ctx.base}/atom/${a.id}/link" class="action">${csrfField(ctx)}<h3>Link to another atom</h3>
<p><label for="link-kind">Relation</label> <input id="link-kind" name="kind" required pattern="[a-z][a-z0-9_]{0,63}" value="supports" size="12">
<label for="link-dst">to</label> <input id="link-dst" name="dst" required placeholder="atom id, or symbol:ID" size="14">
<label for="link-conf">confidence</label> <input id="link-conf" name="confidence" type="number" min="0" max="1" step="0.05" value="0.8">
<button type="submit">Link</button></p></form>`
}</section>`;
}

/** Why the atom has its confidence: each reason with its signed weight (logit units), largest first. */
function confidenceReasons(d: AtomDetail): Html | string {
  if (!d.confidence.reasons.length) return "";
  return html`<section aria-labelledby="h-confidence"><h2 id="h-confidence">Confidence ${d.confidence.value.toFixed(2)}: why</h2>
<ul class="reasons">${d.confidence.reasons.map((r) => html`<li class="${r.weight >= 0 ? "up" : "down"}">${reasonLine(r)}</li>`)}</ul></section>`;
}

/**
 * The atom page; `doc` the atom's document (its title is shown, linked), null when it has none or it is gone;
 * `linksPage` the page (1-based, {@link LINKS_PAGE} per list) of its links shown.
 */
export function atomPage(ctx: PageContext, d: AtomDetail, doc: DocumentSummary | null = null, linksPage = 1): Html {
  const a = d.atom;
  const L = d.links;
  const body = html`<p class="meta">${statusBadge(a.status)} <span class="type">${a.type}</span> · confidence ${d.confidence.value.toFixed(2)}
· language ${a.lang} · created ${a.created_at.slice(0, 10)}${a.doc_id !== null ? html` · from <a href="${ctx.base}/documents/${a.doc_id}">${doc ? (doc.title ?? doc.uri) : `document ${a.doc_id}`}</a>` : ""}
${a.status !== "retracted" ? html` · <a href="${ctx.base}/graph?node=atom:${a.id}">Graph</a>` : ""}</p>
${L.mergedInto ? html`<p class="warn">Merged into <a href="${ctx.base}/atom/${L.mergedInto.atomId}">atom ${L.mergedInto.atomId}</a> (merge #${L.mergedInto.mergeId}).</p>` : ""}
${confidenceReasons(d)}
<section aria-labelledby="h-content"><h2 id="h-content">Content</h2><div class="content"${langAttr(a.lang)}>${a.content}</div></section>
<section aria-labelledby="h-cites"><h2 id="h-cites">Citations (${a.citation_count})</h2>
${a.citations.length ? a.citations.map((c) => citation(ctx, c, a.lang)) : html`<p class="muted">none</p>`}</section>
<section aria-labelledby="h-links"><h2 id="h-links">Links</h2>
${linkList(ctx, a.id, "Out", "→", L.out, L.outTotal)}${linkList(ctx, a.id, "In", "←", L.in, L.inTotal)}
<h3>Code symbols (${L.symbolsTotal})</h3>${
    L.symbols.length
      ? html`<ul class="links">${L.symbols.map(
          (s) => html`<li><span class="kind">${s.kind}</span>
<a href="${ctx.base}/graph?node=symbol:${s.symbol_id}">${s.qualified_name}</a> <span class="muted">${s.symbol_kind}, ${s.repo}/${s.path}:${s.line}</span>${
            removable(s)
              ? removeLinkForm(
                  ctx,
                  a.id,
                  `atom:${a.id}`,
                  `symbol:${s.symbol_id}`,
                  s.kind,
                  `${s.kind} ${s.qualified_name}`,
                )
              : ""
          }</li>`,
        )}</ul>`
      : html`<p class="muted">none</p>`
  }
${pager(linksPage, LINKS_PAGE, Math.max(L.outTotal, L.inTotal, L.symbolsTotal), (p) => `${ctx.base}/atom/${a.id}?links_page=${p}#h-links`)}</section>
<section aria-labelledby="h-history"><h2 id="h-history">Status history</h2>${history(ctx, a.id, d.history)}</section>
${actions(ctx, d)}`;
  return layout(ctx, `Atom ${a.id}: ${a.claim.length > 80 ? `${a.claim.slice(0, 80)}…` : a.claim}`, "-", body);
}
