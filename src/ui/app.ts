/**
 * The admin web page (issue 9): a Hono sub-app mounted under `/ui` of the HTTP endpoint. Server-rendered pages over the
 * same core use cases as the MCP tools — overview (memory_stats), search (memory_search), atom (memory_get with verify,
 * forget, undo, revert and link), documents, entities (entity-routes.ts: the list and one entity's cited page), gaps
 * (memory_list_gaps), graph (memory_query_graph's neighbourhood) — with
 * embedded assets (src/ui/assets.ts) and no request leaving the machine (a strict Content-Security-Policy says so to
 * the browser too). Answers go out Brotli- or gzip-compressed when the browser accepts it (src/platform/compress.ts).
 * Token rule and cross-site protection: src/ui/security.ts; the guard and its body limit: src/ui/guard.ts.
 */
import { createHash } from "node:crypto";
import { Hono, type Context } from "hono";
import { getAtom } from "../core/knowledge/get-atom.ts";
import { listGaps } from "../core/gaps/gaps.ts";
import { search } from "../core/search/search.ts";
import type { Services, Subgraph } from "../core/services.ts";
import { stats } from "../core/projections/stats.ts";
import { PegasError, toPegasError } from "../errors.ts";
import { log } from "../log.ts";
import { ATOM_ACTIONS, actionFlash } from "./actions.ts";
import { chooseEncoding, compressText } from "../platform/compress.ts";
import { ASSETS, etagMatches, warmAssets } from "./assets.ts";
import { type Html, type PageContext, pageParam } from "./html.ts";
import { LINKS_PAGE, atomPage } from "./pages/atom.ts";
import { DOCUMENTS_PAGE, documentPage, documentsPage } from "./pages/documents.ts";
import { GAPS_PAGE, gapsPage } from "./pages/gaps.ts";
import { type NodeLabels, graphPage } from "./pages/graph.ts";
import { overviewPage } from "./pages/overview.ts";
import { entityRoutes } from "./entity-routes.ts";
import { idParam, lastPage, withQuery } from "./routing.ts";
import { errorPage } from "./pages/prompt.ts";
import { SEARCH_PAGE, readSearchForm, searchPage } from "./pages/search.ts";
import { UI_MAX_BODY_BYTES, guardRoutes } from "./guard.ts";
import { UiGuard } from "./security.ts";

export { UI_MAX_BODY_BYTES };

/** What the UI app needs. */
export interface UiDeps {
  /** The services, opened on first use (`() => runtime.services.get()`, a LazyServices). */
  services: () => Promise<Services>;
  /** The server's http_token (env PEGAS_HTTP_TOKEN); undefined = no token rule (loopback binding). */
  token?: string;
  /** Host header values accepted (DNS-rebinding protection on loopback, as /mcp); undefined or its result undefined = any. */
  allowedHosts?: () => string[] | undefined;
  /** Where the app is mounted; default `/ui`. */
  base?: string;
}

/** The one `<style>` element cytoscape inserts into the page (its container's positioning), allowed by its hash. */
const CYTOSCAPE_STYLE = ".__________cytoscape_container { position: relative; }";
/** Content-Security-Policy of every answer: only this origin's scripts, styles and forms; no framing. */
const CSP =
  "default-src 'none'; script-src 'self'; " +
  `style-src 'self' 'sha256-${createHash("sha256").update(CYTOSCAPE_STYLE).digest("base64")}'; ` +
  "img-src 'self' data:; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

const STATUS_OF: Partial<Record<string, 400 | 404 | 503>> = {
  INVALID_INPUT: 400,
  NOT_FOUND: 404,
  STORE_UNAVAILABLE: 503,
  MIGRATION_REQUIRED: 503,
  INDEX_UNAVAILABLE: 503,
};

/** Atom claims and symbol names of a subgraph's nodes, for their labels. */
async function nodeLabels(s: Services, g: Subgraph): Promise<NodeLabels> {
  const labels: NodeLabels = new Map();
  const atomIds = g.nodes.filter((n) => n.label === "Atom").map((n) => Number(n.props.atom_id));
  for (const a of await s.atomReads.atomsByIds(atomIds, 1)) labels.set(`atom:${a.id}`, a.claim);
  for (const n of g.nodes) {
    if (labels.has(n.id)) continue;
    const p = n.props;
    labels.set(
      n.id,
      String(n.label === "CodeSymbol" ? `${p.name} (${p.path})` : n.label === "Document" ? p.uri : (p.name ?? n.id)),
    );
  }
  return labels;
}

/** Registers the read-only pages. */
function pages(app: Hono, deps: UiDeps, g: UiGuard, ctx: (c: Context, flash?: Html) => PageContext): void {
  app.get("/", async (c) => c.html(overviewPage(ctx(c), await stats(await deps.services()))));
  app.get("/search", async (c) => {
    const f = readSearchForm(
      (k) => c.req.query(k),
      (k) => c.req.queries(k) ?? [],
    );
    const r = f.q
      ? await search(await deps.services(), {
          query: f.q,
          k: SEARCH_PAGE,
          types: f.types,
          status: f.status,
          doc_id: f.doc,
          cursor: f.cursor,
          log_miss: false,
        })
      : null;
    return c.html(searchPage(ctx(c), f, r));
  });
  app.get("/atom/:id", async (c) => {
    const id = idParam(c, "atom");
    const s = await deps.services();
    const page = pageParam(c.req.query("links_page"));
    const detail = await getAtom(s, id, LINKS_PAGE, (page - 1) * LINKS_PAGE);
    const L = detail.links;
    const last = lastPage(Math.max(L.outTotal, L.inTotal, L.symbolsTotal), LINKS_PAGE);
    if (page > last) return c.redirect(withQuery(c, { links_page: last }));
    const q = new URL(c.req.url).searchParams;
    const flash = g.flashValid(id, q) ? actionFlash(ctx(c), id, detail.atom.status, q) : undefined;
    const doc = detail.atom.doc_id === null ? null : await s.documents.document(detail.atom.doc_id).catch(() => null);
    return c.html(atomPage(ctx(c, flash), detail, doc, page));
  });
  app.get("/documents", async (c) => {
    const page = pageParam(c.req.query("page"));
    const list = await (await deps.services()).documents.listDocuments((page - 1) * DOCUMENTS_PAGE, DOCUMENTS_PAGE);
    const last = lastPage(list.total, DOCUMENTS_PAGE);
    if (page > last) return c.redirect(withQuery(c, { page: last }));
    return c.html(documentsPage(ctx(c), list, page));
  });
  app.get("/documents/:id", async (c) => {
    const id = idParam(c, "document");
    const page = pageParam(c.req.query("page"));
    const catalog = (await deps.services()).documents;
    const [doc, atoms] = await Promise.all([
      catalog.document(id),
      catalog.documentAtoms(id, (page - 1) * DOCUMENTS_PAGE, DOCUMENTS_PAGE),
    ]);
    const last = lastPage(atoms.total, DOCUMENTS_PAGE);
    if (page > last) return c.redirect(withQuery(c, { page: last }));
    return c.html(documentPage(ctx(c), doc, atoms, page));
  });
  entityRoutes(app, deps.services, ctx, g);
  app.get("/gaps", async (c) => {
    const s = await deps.services();
    const pages = { open: pageParam(c.req.query("open_page")), answered: pageParam(c.req.query("answered_page")) };
    const [open, answered] = await Promise.all([
      listGaps(s, { status: "open", limit: GAPS_PAGE, offset: (pages.open - 1) * GAPS_PAGE }),
      listGaps(s, {
        status: "answered",
        limit: GAPS_PAGE,
        offset: (pages.answered - 1) * GAPS_PAGE,
        suggestions: false,
      }),
    ]);
    const last = { open: lastPage(open.total, GAPS_PAGE), answered: lastPage(answered.total, GAPS_PAGE) };
    if (pages.open > last.open || pages.answered > last.answered) {
      return c.redirect(
        withQuery(c, {
          open_page: Math.min(pages.open, last.open),
          answered_page: Math.min(pages.answered, last.answered),
        }),
      );
    }
    return c.html(gapsPage(ctx(c), open, answered, pages));
  });
  app.get("/graph", async (c) => {
    const raw = (c.req.query("node") ?? "").trim();
    const node = /^\d+$/.test(raw) ? `atom:${raw}` : raw;
    const depth = Math.min(3, pageParam(c.req.query("depth")));
    if (!node) return c.html(graphPage(ctx(c), "", depth, null, new Map()));
    const s = await deps.services();
    const g = await s.graph.neighbours({ node, depth, limit: 100 });
    return c.html(graphPage(ctx(c), node, depth, g, await nodeLabels(s, g)));
  });
}

/** Registers the atom actions (POST, guarded by src/ui/guard.ts); each redirects to the atom page with its signed confirmation. */
function actions(app: Hono, deps: UiDeps, g: UiGuard, base: string): void {
  app.post("/atom/:id/:action", async (c) => {
    const id = idParam(c, "atom");
    const action = ATOM_ACTIONS[c.req.param("action")];
    if (!action || !Object.hasOwn(ATOM_ACTIONS, c.req.param("action")))
      throw new PegasError("NOT_FOUND", `no action '${c.req.param("action").slice(0, 40)}'`);
    const done = await action(await deps.services(), id, await c.req.parseBody());
    g.signFlash(id, done);
    return c.redirect(`${base}/atom/${id}?${done}`, 303);
  });
}

/**
 * The admin page as a Hono app to mount at `deps.base` (default `/ui`): `app.route("/ui", createUiApp({...}))`.
 * Answers HTML; errors become pages (PegasError NOT_FOUND 404, INVALID_INPUT 400, store unavailable 503, else 500).
 */
export function createUiApp(deps: UiDeps): Hono {
  const base = deps.base ?? "/ui";
  const g = new UiGuard(deps.token);
  const ctx = (_c: Context, flash?: Html): PageContext => ({
    base,
    csrf: g.csrfToken(),
    flash,
    tokenRequired: g.required,
  });
  const app = new Hono();
  app.use("*", compressText()); // outermost: it sees the final headers; the assets below come compressed already
  app.use("*", async (c, next) => {
    warmAssets(chooseEncoding(c.req.header("accept-encoding")));
    await next();
    c.header("content-security-policy", CSP);
    c.header("x-content-type-options", "nosniff");
    c.header("referrer-policy", "same-origin"); // "no-referrer" would make form posts say Origin: null
    if (!c.res.headers.has("cache-control")) c.header("cache-control", "no-store");
  });
  app.get("/assets/:name", async (c) => {
    const a = ASSETS.get(c.req.param("name"));
    if (!a) return c.text("no such asset", 404);
    const v = await a.variant(chooseEncoding(c.req.header("accept-encoding")));
    const headers: Record<string, string> = {
      "content-type": a.type,
      etag: v.etag,
      "cache-control": "no-cache",
      vary: "Accept-Encoding",
    };
    if (etagMatches(c.req.header("if-none-match"), v.etag)) return c.body(null, 304, headers);
    if (v.encoding) headers["content-encoding"] = v.encoding;
    // Explicit, so that a HEAD answer (body dropped by the framework) tells the GET's length too.
    headers["content-length"] = String(v.body.byteLength);
    return c.body(v.body, 200, headers);
  });
  guardRoutes(app, base, g, () => deps.allowedHosts?.(), ctx);
  pages(app, deps, g, ctx);
  actions(app, deps, g, base);
  // Hono ignores a mounted sub-app's notFound, so a catch-all route answers unknown paths with an HTML page.
  app.all("*", (c) => {
    if (c.req.path === `${base}/`) return c.redirect(base, 301);
    return c.html(errorPage(ctx(c), "Not found", `There is no page at ${c.req.path.slice(0, 200)}.`), 404);
  });
  app.onError((err, c) => {
    const e = toPegasError(err);
    const status = STATUS_OF[e.code] ?? 500;
    if (status === 500) log.error("ui request failed", { err, path: c.req.path });
    const message = status === 500 ? "Internal error; the server log has the details." : e.message;
    return c.html(
      errorPage(ctx(c), status === 404 ? "Not found" : status === 400 ? "Not done" : "Unavailable", message, e.hint),
      status,
    );
  });
  return app;
}
