/**
 * The entity routes of the admin page (issue 22): `GET /entities` (the list; `q` a name in any case or form, `kind`,
 * `page`), `GET /entities/:id` (one entity; `page` of its atom list) and `POST /entities/:id/forget` (forget it with
 * its sources, or undo: entity-actions.ts). An entity merged into another redirects to its root's page; a page past
 * the end redirects to the last one. They sit behind the same guard as every page (guard.ts: token rule, Host check,
 * and for the POST the same-origin check and the CSRF token).
 */
import type { Context, Hono } from "hono";
import { ENTITY_PAGE, entityPage, listEntities } from "../core/entities/browse.ts";
import type { Services } from "../core/services.ts";
import { type Html, type PageContext, pageParam } from "./html.ts";
import { entityFlash, forgetEntityAction } from "./entity-actions.ts";
import { entitiesPage, entityDetailPage } from "./pages/entities.ts";
import { idParam, lastPage, withQuery } from "./routing.ts";
import type { UiGuard } from "./security.ts";

/**
 * Registers the entity pages on `app`; `services` opens the services on first use, `ctx` builds a page context, `g`
 * signs and checks the confirmations.
 */
export function entityRoutes(
  app: Hono,
  services: () => Promise<Services>,
  ctx: (c: Context, flash?: Html) => PageContext,
  g: UiGuard,
): void {
  app.get("/entities", async (c) => {
    const query = { q: c.req.query("q")?.trim() || undefined, kind: c.req.query("kind") || undefined };
    const page = pageParam(c.req.query("page"));
    const list = await listEntities(await services(), query, page);
    const last = lastPage(list.total, ENTITY_PAGE);
    if (page > last) return c.redirect(withQuery(c, { page: last }));
    return c.html(entitiesPage(ctx(c), query, list, page));
  });
  app.get("/entities/:id", async (c) => {
    const id = idParam(c, "entity");
    const page = pageParam(c.req.query("page"));
    const d = await entityPage(await services(), id, page);
    if ("root" in d) return c.redirect(`${ctx(c).base}/entities/${d.root}`);
    const last = lastPage(d.atoms.total, ENTITY_PAGE);
    if (page > last) return c.redirect(withQuery(c, { page: last }));
    const q = new URL(c.req.url).searchParams;
    const flash = g.flashValid(`entity:${id}`, q) ? entityFlash(ctx(c), id, q) : undefined;
    return c.html(entityDetailPage(ctx(c, flash), d, page));
  });
  app.post("/entities/:id/forget", async (c) => {
    const id = idParam(c, "entity");
    const done = await forgetEntityAction(await services(), id, await c.req.parseBody());
    g.signFlash(`entity:${id}`, done);
    return c.redirect(`${ctx(c).base}/entities/${id}?${done}`, 303);
  });
}
