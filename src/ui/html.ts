/**
 * The admin page's HTML building blocks over hono/html (every interpolated value is escaped): the page shell with its
 * navigation, pagers, status badges, citations and the hidden CSRF field. Pages are English; stored text carries its
 * own `lang` (Russian atoms are marked `lang="ru"`).
 */
import { html, raw } from "hono/html";
import type { HtmlEscapedString } from "hono/utils/html";
import { formatLocator } from "../domain/locator.ts";
import { CSRF_FIELD } from "./security.ts";
import type { CitationView } from "../core/services.ts";

/** Rendered HTML (escaped where it came from data). */
export type Html = HtmlEscapedString | Promise<HtmlEscapedString>;

/** What every page knows: the mount point (`/ui`), the CSRF token for its forms, and an optional flash message. */
export interface PageContext {
  base: string;
  csrf: string;
  /** A confirmation of what the last action did (shown once, announced to screen readers). */
  flash?: Html;
  /** Whether the token rule applies (the header then offers to log out). */
  tokenRequired?: boolean;
}

const NAV: Array<[string, string]> = [
  ["", "Overview"],
  ["/search", "Search"],
  ["/documents", "Documents"],
  ["/entities", "Entities"],
  ["/gaps", "Gaps"],
  ["/graph", "Graph"],
];

/** The whole page: `<html lang="en">`, UTF-8, the embedded stylesheet and client script, navigation, `body`. */
export function layout(
  ctx: PageContext,
  title: string,
  current: string,
  body: Html,
  opts: { query?: string } = {},
): Html {
  const b = ctx.base;
  return html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · pegas-memory</title><link rel="icon" href="data:,"><link rel="stylesheet" href="${b}/assets/ui.css">
<script type="module" src="${b}/assets/client.js"></script></head>
<body><a class="skip" href="#main">Skip to content</a>
<header><nav aria-label="Sections"><span class="brand">pegas-memory</span>
${NAV.map(([p, label]) => html`<a href="${b}${p}"${current === p ? raw(' aria-current="page"') : ""}>${label}</a>`)}
</nav><form class="quick" role="search" action="${b}/search" method="get"><label for="quick-q" class="sr">Search atoms</label>
<input id="quick-q" name="q" type="search" placeholder="Search (press /)" value="${opts.query ?? ""}"></form>
${ctx.tokenRequired ? html`<form method="post" action="${b}/logout">${csrfField(ctx)}<button type="submit">Log out</button></form>` : ""}</header>
<main id="main" tabindex="-1"><h1>${title}</h1>
${ctx.flash ? html`<div class="flash" role="status">${ctx.flash}</div>` : ""}
${body}</main></body></html>`;
}

/** The hidden CSRF field of a POST form. */
export function csrfField(ctx: PageContext): Html {
  return html`<input type="hidden" name="${CSRF_FIELD}" value="${ctx.csrf}">`;
}

/** A status as a badge (`class="status status-<s>"`). */
export function statusBadge(status: string): Html {
  return html`<span class="status status-${status}">${status}</span>`;
}

/** `lang` attribute value of stored text: its detected language, nothing when unknown. */
export function langAttr(lang: string | null | undefined): Html {
  return lang && lang !== "und" ? html` lang="${lang}"` : html``;
}

/** A citation: document title (link to the document), locator, quote. */
export function citation(ctx: PageContext, c: CitationView, lang?: string): Html {
  const where = formatLocator(c.locator);
  return html`<figure class="cite"><blockquote${langAttr(lang)}>${c.quote}</blockquote>
<figcaption><a href="${ctx.base}/documents/${c.doc_id}">${c.title ?? c.uri}</a> <span class="kind">${c.kind}</span>${where ? html` · <span class="loc">${where}</span>` : ""}${c.doc_version > 1 ? html` · v${c.doc_version}` : ""}</figcaption></figure>`;
}

/**
 * Previous/next links of an offset-paged list: page `page` (1-based) of `total` rows, `size` per page. `href` builds
 * the link of a page number.
 */
export function pager(page: number, size: number, total: number, href: (page: number) => string): Html {
  const pages = Math.max(1, Math.ceil(total / size));
  if (pages <= 1) return html``;
  return html`<nav class="pager" aria-label="Pages">
${page > 1 ? html`<a rel="prev" href="${href(page - 1)}">← Previous</a>` : ""}
<span>Page ${page} of ${pages} (${total} in all)</span>
${page < pages ? html`<a rel="next" href="${href(page + 1)}">Next →</a>` : ""}</nav>`;
}

/** A definition list of counters (`{name: n}`), largest first; `empty` when there are none. */
export function counts(rec: Record<string, number>, empty = "none"): Html {
  const entries = Object.entries(rec).sort((a, b) => b[1] - a[1]);
  if (!entries.length) return html`<p class="muted">${empty}</p>`;
  return html`<dl class="counts">${entries.map(([k, v]) => html`<div><dt>${k}</dt><dd>${v}</dd></div>`)}</dl>`;
}

/** JSON for a `<script type="application/json">` block: `<` escaped so that no text can close the element. */
export function jsonForScript(value: unknown): Html {
  return raw(
    JSON.stringify(value)
      .replace(/</g, "\\u003c")
      .replace(/\u2028/g, "\\u2028")
      .replace(/\u2029/g, "\\u2029"),
  );
}

/** A page number from a query value: an integer ≥ 1, else 1. */
export function pageParam(v: string | undefined): number {
  const n = Number(v);
  return Number.isSafeInteger(n) && n >= 1 ? n : 1;
}
