/**
 * Entities pages (issue 22): the list of entities (kind, canonical name, aliases, mentions and atoms, a name filter in
 * any case or form and a kind filter) and one entity's page — the statements that describe it best with their
 * citations, every atom that names it with its document, the entities merged into it and the entities named beside
 * it — and a form that forgets the entity with its sources (entity-actions.ts; its Undo in the confirmation, and a
 * Restore while no atom names it). Every value is escaped by hono/html.
 */
import { html } from "hono/html";
import { ENTITY_PAGE, type EntityListQuery, type EntityPage } from "../../core/entities/browse.ts";
import type { EntityBrief } from "../../core/knowledge/get-entity.ts";
import type { AtomView, EntityListRow, Page } from "../../core/services.ts";
import { ENTITY_KINDS } from "../../domain/entities/types.ts";
import { entityForgetForm } from "../entity-actions.ts";
import { type Html, type PageContext, citation, langAttr, layout, pager, statusBadge } from "../html.ts";

/** The list's query string (filter and page) for links. */
function listQuery(q: EntityListQuery, page: number): string {
  const p = new URLSearchParams();
  if (q.q) p.set("q", q.q);
  if (q.kind) p.set("kind", q.kind);
  if (page > 1) p.set("page", String(page));
  return p.toString();
}

function filterForm(ctx: PageContext, q: EntityListQuery): Html {
  return html`<form class="search" action="${ctx.base}/entities" method="get" role="search">
<p><label for="eq">Name</label> <input id="eq" name="q" type="search" value="${q.q ?? ""}" placeholder="any case or form">
<label for="ekind">Kind</label> <select id="ekind" name="kind"><option value="">any</option>${ENTITY_KINDS.map(
    (k) => html`<option value="${k}"${q.kind === k ? html` selected` : ""}>${k}</option>`,
  )}</select>
<button type="submit">Filter</button></p></form>`;
}

const aliases = (names: string[]): Html =>
  names.length ? html`${names.join(", ")}` : html`<span class="muted">none</span>`;

const entityRow = (ctx: PageContext, e: EntityListRow): Html =>
  html`<tr><td><a href="${ctx.base}/entities/${e.id}">${e.name}</a></td><td>${e.kind}</td><td>${aliases(e.aliases)}</td>
<td>${e.mentions}</td><td>${e.atoms}</td></tr>`;

/** The entity list, page `page` of `list` under the filter `q`. */
export function entitiesPage(ctx: PageContext, q: EntityListQuery, list: Page<EntityListRow>, page: number): Html {
  const filtered = Boolean(q.q || q.kind);
  const body = list.rows.length
    ? html`<div class="scroll"><table><caption class="sr">Entities, most mentioned first</caption><thead><tr><th scope="col">Name</th>
<th scope="col">Kind</th><th scope="col">Aliases</th><th scope="col">Mentions</th><th scope="col">Atoms</th></tr></thead>
<tbody>${list.rows.map((e) => entityRow(ctx, e))}</tbody></table></div>
${pager(page, ENTITY_PAGE, list.total, (n) => `${ctx.base}/entities?${listQuery(q, n)}`)}`
    : html`<p class="muted">${
        filtered
          ? "No entity matches this filter."
          : "No entities yet: they are found in atoms as they are stored (pegas-memory reindex entities finds them in older atoms)."
      }</p>`;
  return layout(ctx, `Entities (${list.total})`, "/entities", html`${filterForm(ctx, q)}${body}`);
}

const briefLink = (ctx: PageContext, e: EntityBrief): Html =>
  html`<a href="${ctx.base}/entities/${e.entity_id}">${e.name}</a> <span class="kind">${e.kind}</span>`;

/** Where an atom comes from: its first citation's document, else its document id, else "stored by the agent". */
function source(ctx: PageContext, a: AtomView): Html {
  const c = a.citations[0];
  if (c) return html`<a href="${ctx.base}/documents/${c.doc_id}">${c.title ?? c.uri}</a>`;
  if (a.doc_id !== null) return html`<a href="${ctx.base}/documents/${a.doc_id}">document ${a.doc_id}</a>`;
  return html`<span class="muted">stored by the agent</span>`;
}

function statements(ctx: PageContext, p: EntityPage["profile"]): Html {
  if (!p.statements.length) return html`<p class="muted">No statement names it now (its atoms may be retracted).</p>`;
  return html`<ol class="hits">${p.statements.map(
    (st) => html`<li class="hit"><p><a href="${ctx.base}/atom/${st.atom_id}">${st.sentence}</a></p>
<p class="meta">${statusBadge(st.status)} <span class="type">${st.type}</span> · atom ${st.atom_id}</p>
${st.citations.slice(0, 2).map((c) => citation(ctx, c))}</li>`,
  )}</ol>${p.statements_total > p.statements.length ? html`<p class="muted">${p.statements_total - p.statements.length} more in the atom list below.</p>` : ""}`;
}

function atomTable(ctx: PageContext, d: EntityPage, page: number): Html {
  const rows = d.atoms.rows;
  return html`<section aria-labelledby="h-atoms"><h2 id="h-atoms">Atoms that name it (${d.atoms.total}${d.atomsCut ? "+" : ""})</h2>
${
  rows.length
    ? html`<div class="scroll"><table><thead><tr><th scope="col">Claim</th><th scope="col">Type</th><th scope="col">Status</th><th scope="col">Source</th></tr></thead>
<tbody>${rows.map(
        (a) =>
          html`<tr><td><a href="${ctx.base}/atom/${a.id}"${langAttr(a.lang)}>${a.claim}</a></td><td>${a.type}</td><td>${statusBadge(a.status)}</td><td>${source(ctx, a)}</td></tr>`,
      )}</tbody></table></div>`
    : html`<p class="muted">none</p>`
}
${pager(page, ENTITY_PAGE, d.atoms.total, (n) => `${ctx.base}/entities/${d.entity.id}?page=${n}#h-atoms`)}</section>`;
}

/** One entity's page (see the module comment); `page` is the page of its atom list. */
export function entityDetailPage(ctx: PageContext, d: EntityPage, page: number): Html {
  const e = d.entity;
  const body = html`<dl class="counts"><div><dt>kind</dt><dd>${e.kind}</dd></div><div><dt>aliases</dt><dd>${aliases(e.aliases)}</dd></div>
<div><dt>atoms</dt><dd>${d.profile.atoms}${d.profile.mentions_cut ? "+" : ""}</dd></div><div><dt>id</dt><dd>entity:${e.id}</dd></div></dl>
<p><a href="${ctx.base}/graph?node=entity:${e.id}">Show in the graph</a></p>
${d.merged.length ? html`<p>Merged into it: ${d.merged.map((m, i) => html`${i ? ", " : ""}${m.name} <span class="muted">entity:${m.id}</span>`)}</p>` : ""}
<section aria-labelledby="h-statements"><h2 id="h-statements">What the sources say</h2>${statements(ctx, d.profile)}</section>
${atomTable(ctx, d, page)}
<section aria-labelledby="h-related"><h2 id="h-related">Named beside it (${d.profile.related.length})</h2>${
    d.profile.related.length
      ? html`<ul class="links">${d.profile.related.map(
          (r) => html`<li>${briefLink(ctx, r)} <span class="muted">in ${r.shared_atoms} shared atom(s)</span></li>`,
        )}</ul>`
      : html`<p class="muted">none</p>`
  }</section>
<section aria-labelledby="h-actions" class="actions"><h2 id="h-actions">Actions</h2>
<h3>Forget</h3><p>Retracts every atom that names it and every document all of whose atoms name it; a document that
also says other things keeps them. Undo restores them.</p>${entityForgetForm(ctx, e.id, false)}
${d.profile.atoms === 0 ? html`<h3>Restore</h3><p>No atom names it now: restore what forgetting it retracted.</p>${entityForgetForm(ctx, e.id, true, "restored from the admin page")}` : ""}</section>`;
  return layout(ctx, e.name, "/entities", body);
}
