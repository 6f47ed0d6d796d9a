/**
 * The atom page's actions, each through the same core use case as its MCP tool: verify (memory_verify), forget and
 * undo (memory_forget), revert a status change of this atom (memory_verify's revert; not a forget, whose own undo also
 * restores links and gaps), link and remove a link of this atom (memory_link, its `remove`). Each answers with the atom page's address carrying what was done
 * (post/redirect/get, signed by the app so that no hand-made link can show a confirmation), which the page shows as a
 * confirmation with an undo where the core allows one.
 */
import { html } from "hono/html";
import { forget, linkNodes, parseEndpoint, unlinkNodes } from "../core/knowledge/link-forget.ts";
import type { Services } from "../core/services.ts";
import { VERIFY_MAX_LIMIT, revertStatusChange, statusHistory, verifyAtoms } from "../core/verify/verify.ts";
import { invalidInput } from "../errors.ts";
import { type Html, type PageContext, csrfField } from "./html.ts";

/**
 * Actors of status changes undone otherwise, never by a plain revert: forgetting by its own undo (which also restores
 * links and reopened gaps), an undo by forgetting again, a merge's by memory_unmerge.
 */
export const NOT_REVERTIBLE: ReadonlySet<string> = new Set(["forget", "forget-undo", "unmerge"]);

/** A posted form's fields (strings only; files are ignored). */
export type Form = Record<string, string | File | (string | File)[]>;

const field = (f: Form, k: string): string => (typeof f[k] === "string" ? (f[k] as string) : "");

/** Actions by the last segment of `/atom/:id/<action>`; each returns the query string of the confirmation. */
export const ATOM_ACTIONS: Record<string, (s: Services, atomId: number, f: Form) => Promise<URLSearchParams>> = {
  async verify(s, atomId) {
    const r = await verifyAtoms(s, { atom_id: atomId, limit: 1 });
    return new URLSearchParams({ done: "verified", checked: String(r.checked), changes: String(r.changes_total) });
  },
  async forget(s, atomId, f) {
    const undo = field(f, "undo") === "1";
    const r = await forget(s, { atom_id: atomId, reason: field(f, "reason"), undo });
    const change = r.changes[0]?.id;
    if (change === undefined) return new URLSearchParams({ done: undo ? "not-retracted" : "already-retracted" });
    return new URLSearchParams({
      done: undo ? "restored" : "forgot",
      change: String(change),
      gaps: String(r.gapsReopened?.length ?? 0),
    });
  },
  async revert(s, atomId, f) {
    const id = Number(field(f, "change"));
    if (!Number.isSafeInteger(id) || id < 1)
      throw invalidInput(`change '${field(f, "change").slice(0, 40)}' is not a status change id`);
    const change = (await statusHistory(s, atomId, VERIFY_MAX_LIMIT)).find((r) => r.id === id);
    if (!change)
      throw invalidInput(
        `status change #${id} is not one of atom ${atomId}'s`,
        "revert a change from this atom's status history",
      );
    if (change.actor === "forget") {
      throw invalidInput(
        `status change #${id} forgot the atom; a plain revert would leave its links withdrawn and its gaps closed`,
        "use Restore atom: undoing the forget brings back its links and reopened gaps too",
      );
    }
    if (NOT_REVERTIBLE.has(change.actor))
      throw invalidInput(
        `status change #${id} (${change.actor}) cannot be reverted from here`,
        "forget the atom again, or store it again to merge it anew",
      );
    const r = await revertStatusChange(s, id);
    return new URLSearchParams({ done: "reverted", change: String(id), to: r.revert.to });
  },
  async link(s, atomId, f) {
    const conf = field(f, "confidence").trim();
    const dst = field(f, "dst").trim();
    const r = await linkNodes(s, {
      src: atomId,
      dst: /^\d+$/.test(dst) ? Number(dst) : dst,
      kind: field(f, "kind"),
      confidence: conf === "" ? undefined : Number(conf),
    });
    return new URLSearchParams({
      done: "linked",
      link: String(r.linkId),
      kind: r.kind,
      dst: `${r.dst.kind}:${r.dst.id}`,
      created: r.created ? "1" : "0",
    });
  },
  /** Fields `src`, `dst` (`atom:12`, `symbol:34`), `kind`; one end must be this atom (the page that lists the link). */
  async unlink(s, atomId, f) {
    const [src, dst] = [parseEndpoint(field(f, "src").trim(), "src"), parseEndpoint(field(f, "dst").trim(), "dst")];
    const mine = (e: typeof src) => e.kind === "atom" && e.id === atomId;
    if (!mine(src) && !mine(dst))
      throw invalidInput(
        `the link ${src.kind}:${src.id} → ${dst.kind}:${dst.id} is not one of atom ${atomId}'s`,
        "remove a link from the page of one of its atoms",
      );
    const r = await unlinkNodes(s, {
      src: `${src.kind}:${src.id}`,
      dst: `${dst.kind}:${dst.id}`,
      kind: field(f, "kind"),
    });
    return new URLSearchParams({
      done: "unlinked",
      link: String(r.linkId),
      kind: r.kind,
      src: `${r.src.kind}:${r.src.id}`,
      dst: `${r.dst.kind}:${r.dst.id}`,
      source: r.source,
      confidence: r.confidence.toFixed(2),
      retracted: String(r.inferredRetracted),
      rederived: String(r.inferredRederived),
    });
  },
};

/** A "Remove link" button for the link `src -kind-> dst` shown on atom `atomId`'s page; `label` names it for screen readers. */
export function removeLinkForm(
  ctx: PageContext,
  atomId: number,
  src: string,
  dst: string,
  kind: string,
  label: string,
): Html {
  return html`<form method="post" action="${ctx.base}/atom/${atomId}/unlink" class="inline">${csrfField(ctx)}<input type="hidden" name="src" value="${src}">
<input type="hidden" name="dst" value="${dst}"><input type="hidden" name="kind" value="${kind}"><button type="submit">Remove link<span class="sr"> ${label}</span></button></form>`;
}

const num = (q: URLSearchParams, k: string): number => {
  const n = Number(q.get(k));
  return Number.isSafeInteger(n) ? n : 0;
};
/** Only the kind/endpoint shapes the core accepts are echoed back (the query string is anyone's to write). */
const token = (q: URLSearchParams, k: string): string =>
  /^[a-z0-9_:]{1,70}$/.test(q.get(k) ?? "") ? (q.get(k) as string) : "?";

/**
 * The confirmation of an action on atom `atomId`, from the query string it redirected with (the caller checks that the
 * app signed it: UiGuard.flashValid); undefined when none. `status` is the atom's status now: a forget's confirmation
 * offers its Undo only while the atom is still forgotten.
 */
export function actionFlash(ctx: PageContext, atomId: number, status: string, q: URLSearchParams): Html | undefined {
  const change = num(q, "change");
  switch (q.get("done")) {
    case "verified":
      return html`Verified: ${num(q, "checked")} atom checked, ${num(q, "changes")} status change(s) recorded. Revert any of them in the status history.`;
    case "forgot":
      return html`Atom ${atomId} forgotten (status change #${change}); search and context no longer show it.${num(q, "gaps") ? ` ${num(q, "gaps")} research gap(s) reopened.` : ""}
${
  status === "retracted"
    ? html`<form method="post" action="${ctx.base}/atom/${atomId}/forget" class="inline">${csrfField(ctx)}<input type="hidden" name="undo" value="1">
<input type="hidden" name="reason" value="undo from the admin page"><button type="submit">Undo</button></form>`
    : ""
}`;
    case "restored":
      return html`Atom ${atomId} restored (status change #${change}); it is searchable again.`;
    case "already-retracted":
      return html`Atom ${atomId} was already forgotten; nothing changed.`;
    case "not-retracted":
      return html`Atom ${atomId} was not forgotten; nothing to restore.`;
    case "reverted":
      return html`Status change #${change} reverted: the atom is ${token(q, "to")} again.`;
    case "linked":
      return html`Link #${num(q, "link")} atom:${atomId} → ${token(q, "kind")} → ${token(q, "dst")} ${q.get("created") === "1" ? "stored" : "already existed; unchanged"}.
${q.get("created") === "1" ? removeLinkForm(ctx, atomId, `atom:${atomId}`, token(q, "dst"), token(q, "kind"), `#${num(q, "link")} just made`) : ""}`;
    case "unlinked": {
      const [src, dst, kind] = [token(q, "src"), token(q, "dst"), token(q, "kind")];
      const conf = Number(q.get("confidence"));
      const retracted = num(q, "retracted");
      const rederived = num(q, "rederived");
      // Linking again makes the agent's link anew (a new row); what inference retracted comes back with memory_infer.
      const again =
        q.get("source") === "agent" && src === `atom:${atomId}` && conf >= 0 && conf <= 1
          ? html`<form method="post" action="${ctx.base}/atom/${atomId}/link" class="inline">${csrfField(ctx)}<input type="hidden" name="dst" value="${dst}">
<input type="hidden" name="kind" value="${kind}"><input type="hidden" name="confidence" value="${conf}"><button type="submit">Link again</button></form>`
          : "";
      return html`Link #${num(q, "link")} ${src} → ${kind} → ${dst} removed (source ${token(q, "source")}).${retracted ? ` ${retracted} inferred edge(s) that depended on it retracted.` : ""}${rederived ? ` ${rederived} inferred edge(s) that depended on it kept: another justification holds them.` : ""}
${again}`;
    }
    default:
      return undefined;
  }
}
