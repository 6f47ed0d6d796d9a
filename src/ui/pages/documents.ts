/** Documents pages: the registry (kind, version, authority, atoms per status) and one document with its atoms. */
import { html } from "hono/html";
import { type Html, type PageContext, langAttr, layout, pager, statusBadge } from "../html.ts";
import type { DocumentAtomRow, DocumentSummary, Page } from "../../core/services.ts";

/** Rows per page of both lists. */
export const DOCUMENTS_PAGE = 50;

const atomCounts = (d: DocumentSummary): Html => {
  const e = Object.entries(d.atoms);
  return e.length
    ? html`${e.map(([s, n]) => html`${statusBadge(s)} ${n} `)}`
    : html`<span class="muted">no atoms</span>`;
};

/** The documents list, page `page`. */
export function documentsPage(ctx: PageContext, p: Page<DocumentSummary>, page: number): Html {
  const body = p.rows.length
    ? html`<div class="scroll"><table><caption class="sr">Documents, newest first</caption><thead><tr><th scope="col">Document</th><th scope="col">Kind</th>
<th scope="col">Version</th><th scope="col">Authority</th><th scope="col">Atoms</th></tr></thead><tbody>
${p.rows.map(
  (
    d,
  ) => html`<tr><td><a href="${ctx.base}/documents/${d.id}">${d.title ?? d.uri}</a>${d.status !== "active" ? html` ${statusBadge(d.status)}` : ""}
<div class="muted uri">${d.uri}</div></td><td>${d.kind}</td><td>${d.version}</td><td>${d.authority.toFixed(2)}</td><td>${atomCounts(d)}</td></tr>`,
)}
</tbody></table></div>${pager(page, DOCUMENTS_PAGE, p.total, (n) => `${ctx.base}/documents?page=${n}`)}`
    : html`<p class="muted">No documents yet: ingest one with <code>pegas-memory ingest &lt;path|url&gt;</code> or memory_ingest.</p>`;
  return layout(ctx, `Documents (${p.total})`, "/documents", body);
}

const atomRow = (ctx: PageContext, a: DocumentAtomRow): Html =>
  html`<tr><td><a href="${ctx.base}/atom/${a.id}"${langAttr(a.lang)}>${a.claim}</a></td><td>${a.type}</td><td>${statusBadge(a.status)}</td><td>${a.confidence.toFixed(2)}</td></tr>`;

/** One document and page `page` of its atoms. */
export function documentPage(ctx: PageContext, d: DocumentSummary, atoms: Page<DocumentAtomRow>, page: number): Html {
  const body = html`<dl class="counts"><div><dt>uri</dt><dd class="uri">${d.uri}</dd></div><div><dt>kind</dt><dd>${d.kind}</dd></div>
<div><dt>version</dt><dd>${d.version}</dd></div><div><dt>authority</dt><dd>${d.authority.toFixed(2)}</dd></div>
<div><dt>status</dt><dd>${d.status}</dd></div><div><dt>size</dt><dd>${d.byte_size} bytes</dd></div><div><dt>atoms</dt><dd>${atomCounts(d)}</dd></div></dl>
<p><a href="${ctx.base}/search?doc=${d.id}">Search within this document</a></p>
<section aria-labelledby="h-atoms"><h2 id="h-atoms">Atoms (${atoms.total})</h2>
${
  atoms.rows.length
    ? html`<div class="scroll"><table><thead><tr><th scope="col">Claim</th><th scope="col">Type</th><th scope="col">Status</th><th scope="col">Confidence</th></tr></thead>
<tbody>${atoms.rows.map((a) => atomRow(ctx, a))}</tbody></table></div>`
    : html`<p class="muted">none</p>`
}
${pager(page, DOCUMENTS_PAGE, atoms.total, (n) => `${ctx.base}/documents/${d.id}?page=${n}`)}</section>`;
  return layout(ctx, d.title ?? d.uri, "/documents", body);
}
