/**
 * Search page: the same hybrid search as memory_search (core/search/search.ts), filtered by type, status and document, each
 * hit with its status and citations (document title, locator, quote), paged by the search's own cursor.
 */
import { html } from "hono/html";
import { ATOM_STATUSES, ATOM_TYPES, type AtomStatus, type AtomType } from "../../domain/atom.ts";
import type { SearchHit, SearchResult } from "../../core/search/search.ts";
import { type Html, type PageContext, citation, langAttr, layout, statusBadge } from "../html.ts";

/** Hits per page. */
export const SEARCH_PAGE = 20;
/** Citations shown per hit (the atom page shows all). */
const HIT_CITES = 2;

/** The search form's values as read from the query string. */
export interface SearchForm {
  q: string;
  types: AtomType[];
  status: AtomStatus[];
  doc: number | undefined;
  cursor: string | undefined;
}

/** Reads the search form from query values (unknown types and statuses are dropped). */
export function readSearchForm(q: (k: string) => string | undefined, all: (k: string) => string[]): SearchForm {
  const doc = Number(q("doc"));
  return {
    q: (q("q") ?? "").trim(),
    types: all("type").filter((t): t is AtomType => (ATOM_TYPES as readonly string[]).includes(t)),
    status: all("status").filter((s): s is AtomStatus => (ATOM_STATUSES as readonly string[]).includes(s)),
    doc: Number.isSafeInteger(doc) && doc >= 1 ? doc : undefined,
    cursor: q("cursor") || undefined,
  };
}

/** The query string of a form (with another cursor). */
export function searchQuery(f: SearchForm, cursor?: string): string {
  const p = new URLSearchParams({ q: f.q });
  for (const t of f.types) p.append("type", t);
  for (const s of f.status) p.append("status", s);
  if (f.doc !== undefined) p.set("doc", String(f.doc));
  if (cursor) p.set("cursor", cursor);
  return p.toString();
}

function checkboxes(name: string, values: readonly string[], chosen: readonly string[]): Html {
  return html`${values.map((v) => html`<label class="check"><input type="checkbox" name="${name}" value="${v}"${chosen.includes(v) ? html` checked` : ""}> ${v}</label>`)}`;
}

function form(ctx: PageContext, f: SearchForm): Html {
  return html`<form class="search" action="${ctx.base}/search" method="get">
<p><label for="q">Query</label> <input id="q" name="q" type="search" value="${f.q}" required autofocus>
<button type="submit">Search</button></p>
<fieldset><legend>Type (none = all)</legend>${checkboxes("type", ATOM_TYPES, f.types)}</fieldset>
<fieldset><legend>Status (none = candidate, verified, contested)</legend>${checkboxes(
    "status",
    ATOM_STATUSES.filter((s) => s !== "retracted"),
    f.status,
  )}</fieldset>
<p><label for="doc">Document id</label> <input id="doc" name="doc" type="number" min="1" value="${f.doc ?? ""}"></p></form>`;
}

function hit(ctx: PageContext, h: SearchHit): Html {
  return html`<li class="hit"><h3><a href="${ctx.base}/atom/${h.atom_id}"${langAttr(h.lang)}>${h.claim}</a></h3>
<p class="meta">${statusBadge(h.status)} <span class="type">${h.type}</span> · atom ${h.atom_id} · score ${h.score.toFixed(4)} · confidence ${h.confidence.toFixed(2)}</p>
${h.content !== h.claim ? html`<p class="content"${langAttr(h.lang)}>${h.content.length > 400 ? `${h.content.slice(0, 400)}…` : h.content}</p>` : ""}
${h.citations.slice(0, HIT_CITES).map((c) => citation(ctx, c, h.lang))}
${h.citation_count > HIT_CITES ? html`<p class="muted">${h.citation_count - HIT_CITES} more citation(s) on the atom's page</p>` : ""}</li>`;
}

/** The search page: the form, and the hits when a query was given. */
export function searchPage(ctx: PageContext, f: SearchForm, r: SearchResult | null): Html {
  const results =
    r === null
      ? html`<p class="muted">Type a query: words in any language (Russian and English are stemmed).</p>`
      : html`<section aria-labelledby="h-hits"><h2 id="h-hits">${r.hits.length ? `Hits for «${r.query}»` : `No hits for «${r.query}»`}</h2>
${r.degraded ? html`<p class="warn">${r.degraded}</p>` : ""}
<ol class="hits">${r.hits.map((h) => hit(ctx, h))}</ol>
<nav class="pager" aria-label="Pages">${f.cursor ? html`<a href="${ctx.base}/search?${searchQuery(f)}">First page</a>` : ""}
${r.next_cursor ? html`<a rel="next" href="${ctx.base}/search?${searchQuery(f, r.next_cursor)}">Next page →</a>` : ""}
<span class="muted">${r.took_ms} ms</span></nav></section>`;
  return layout(ctx, "Search", "/search", html`${form(ctx, f)}${results}`, { query: f.q });
}
