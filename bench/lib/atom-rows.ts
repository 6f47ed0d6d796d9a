/** Every atom of a store as its change feed lists them (benchmarks and their tools read whole stores). */
import type { AtomIndexRow, ChangeFeed } from "../../src/ports/store/change-feed.ts";

/** Every atom row of `feed`, in feed order, read in pages of 2,000 from the start. */
export async function allAtomRows(feed: Pick<ChangeFeed, "atomChanges">): Promise<AtomIndexRow[]> {
  const out: AtomIndexRow[] = [];
  for (let cursor = { xid: "0", id: 0 }; ; ) {
    const page = await feed.atomChanges(cursor, 2000);
    if (!page.length) return out;
    out.push(...page);
    const last = page[page.length - 1];
    cursor = { xid: last.xid, id: last.id };
  }
}
