/**
 * The entity page's action (issue 22): forget the entity with its sources, or undo that, through memory_forget's core
 * use case (core/knowledge/link-forget.ts `forget` with `entity:<id>`): every atom that names it is retracted, and
 * every document all of whose atoms name it. It answers with the entity page's address carrying the counts (post/
 * redirect/get, signed by the app as the atom actions are), which the page shows as a confirmation with an Undo.
 */
import { html } from "hono/html";
import { forget } from "../core/knowledge/link-forget.ts";
import type { Services } from "../core/services.ts";
import type { Form } from "./actions.ts";
import { type Html, type PageContext, csrfField } from "./html.ts";

const field = (f: Form, k: string): string => (typeof f[k] === "string" ? (f[k] as string) : "");

/**
 * Forgets (field `undo` = "1": restores) entity `id` with the posted `reason`; returns the confirmation's query
 * string. @throws PegasError INVALID_INPUT (no reason), NOT_FOUND, STORE_UNAVAILABLE.
 */
export async function forgetEntityAction(s: Services, id: number, f: Form): Promise<URLSearchParams> {
  const undo = field(f, "undo") === "1";
  const r = await forget(s, { entity: `entity:${id}`, reason: field(f, "reason"), undo });
  return new URLSearchParams({
    done: undo ? "entity-restored" : "entity-forgot",
    atoms: String(r.changes.length),
    docs: String(r.documents?.length ?? 0),
  });
}

const num = (q: URLSearchParams, k: string): number => {
  const n = Number(q.get(k));
  return Number.isSafeInteger(n) && n >= 0 ? n : 0;
};

/** The hidden-field form that forgets entity `id` or (undo) restores it, with a visible reason field unless `reason`. */
export function entityForgetForm(ctx: PageContext, id: number, undo: boolean, reason?: string): Html {
  const fields = reason
    ? html`<input type="hidden" name="reason" value="${reason}">`
    : html`<label for="entity-reason">Reason</label> <input id="entity-reason" name="reason" required maxlength="1000" placeholder="why it should no longer count">`;
  return html`<form method="post" action="${ctx.base}/entities/${id}/forget" class="${reason ? "inline" : "action"}">${csrfField(ctx)}${undo ? html`<input type="hidden" name="undo" value="1">` : ""}
${fields} <button type="submit"${undo ? "" : html` class="danger"`}>${undo ? "Undo" : "Forget entity and its sources"}</button></form>`;
}

/** The confirmation of an entity action from its (signed) query string; undefined when there is none. */
export function entityFlash(ctx: PageContext, id: number, q: URLSearchParams): Html | undefined {
  const [atoms, docs] = [num(q, "atoms"), num(q, "docs")];
  const what = html`${atoms} atom(s)${docs ? html` and ${docs} document(s) wholly about it` : ""}`;
  switch (q.get("done")) {
    case "entity-forgot":
      return html`Entity forgotten: ${what} retracted; search and context no longer show them.
${atoms || docs ? entityForgetForm(ctx, id, true, "undo from the admin page") : ""}`;
    case "entity-restored":
      return html`Entity restored: ${what} back.`;
    default:
      return undefined;
  }
}
