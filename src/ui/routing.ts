/**
 * Route helpers shared by the admin page's routes (app.ts, entity-routes.ts): a numeric path id, the last page of a
 * paged list, and the request's URL with some query values replaced (the redirect to a clamped page).
 */
import type { Context } from "hono";
import { PegasError } from "../errors.ts";

/** A positive integer path parameter. @throws PegasError NOT_FOUND otherwise. */
export function idParam(c: Context, what: string): number {
  const v = c.req.param("id") ?? "";
  const n = Number(v);
  if (!/^[1-9][0-9]{0,15}$/.test(v) || !Number.isSafeInteger(n))
    throw new PegasError("NOT_FOUND", `no ${what} '${v.slice(0, 40)}'`);
  return n;
}

/** The last page number of a list of `total` rows, `size` per page (1 when empty). */
export const lastPage = (total: number, size: number): number => Math.max(1, Math.ceil(total / size));

/** The request's own path and query with `set` replacing some query values (a redirect to a clamped page). */
export function withQuery(c: Context, set: Record<string, number>): string {
  const u = new URL(c.req.url);
  for (const [k, v] of Object.entries(set)) u.searchParams.set(k, String(v));
  return `${u.pathname}?${u.searchParams}`;
}
