/** A refresh run in words for a reader (the CLI and memory_refresh's text): one line per page, then the counts. */
import type { RefreshItem, RefreshResult, WaitingItem } from "./refresh.ts";

/** An ISO 8601 time without its milliseconds: `2026-12-03T20:15:00Z`. */
function when(iso: string): string {
  return iso.replace(/\.\d+Z$/, "Z");
}

/**
 * One checked document: `<outcome> <uri>` and what followed — the new version with its stale atoms, the flagged atoms
 * of a gone page (`still gone` when it was gone before), the unflagged atoms of a page back, or the next attempt —
 * then the error, if any.
 */
export function describeRefreshItem(i: RefreshItem): string {
  const unflagged = i.atoms_unflagged ? `, ${i.atoms_unflagged} atom(s) unflagged` : "";
  const more =
    i.outcome === "changed"
      ? ` → version ${i.version}, ${i.atoms_staled ?? 0} atom(s) stale${unflagged}`
      : i.outcome === "gone"
        ? i.atoms_flagged
          ? `, ${i.atoms_flagged} atom(s) flagged`
          : " (still gone)"
        : i.outcome === "back"
          ? unflagged
          : i.retry_at
            ? `, next attempt ${when(i.retry_at)}`
            : "";
  return `${i.outcome} ${i.uri}${more}${i.error ? `: ${i.error}` : ""}`;
}

/** One document waiting for a retry: `waiting <uri>, next attempt <time> (failed <n>×: <error>)`. */
export function describeWaiting(w: WaitingItem): string {
  return `waiting ${w.uri}, next attempt ${when(w.retry_at)} (failed ${w.failures}×${w.error ? `: ${w.error}` : ""})`;
}

/** The counts of a run in one line: `<n> checked, <n> changed, …, <n> waiting for a retry`. */
export function describeRefreshCounts(r: Omit<RefreshResult, "items" | "waiting_items">): string {
  return (
    `${r.checked} checked, ${r.changed} changed, ${r.unchanged} unchanged, ${r.back} back, ${r.gone} gone, ` +
    `${r.retry} to retry, ${r.disallowed} disallowed by robots.txt, ${r.waiting} waiting for a retry`
  );
}

/**
 * The whole run as lines: each checked document, each listed waiting document (and how many more wait), then the
 * counts; `prefix` turns a document into its line's start (e.g. `- doc 7: `).
 */
export function refreshLines(r: RefreshResult, prefix: (docId: number) => string = () => ""): string[] {
  const more = r.waiting - r.waiting_items.length;
  return [
    ...r.items.map((i) => `${prefix(i.doc_id)}${describeRefreshItem(i)}`),
    ...r.waiting_items.map((w) => `${prefix(w.doc_id)}${describeWaiting(w)}`),
    ...(more > 0 ? [`… and ${more} more waiting for a retry`] : []),
  ];
}
