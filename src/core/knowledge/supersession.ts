/**
 * Supersession of a newly stored atom (issue 22 item 3): the stored atoms closest to it by words (the in-process BM25
 * projection, live statuses only) are read with their times, and domain/supersession decides each pair — the newer
 * statement of the same exclusive property of the same subject supersedes the older one, by event time else by
 * observed time (else by when it was stored). The older atom is kept as `superseded` with a `supersedes` link and an
 * audited status change (memory_verify's `revert_change_id` undoes it, link and all); a pair once undone is never
 * decided again.
 */
import { passageDecides, readClaims } from "../../domain/supersession/claim.ts";
import { type DatedStatement, decideSupersession } from "../../domain/supersession/decide.ts";
import type { SupersessionSubject, SupersessionWrite } from "../../ports/store/supersession.ts";
import type { Services } from "../services.ts";

/** Stored atoms a new atom is compared with. */
export const SUPERSESSION_CANDIDATES = 20;
/** Atom types that state facts (code, rules and tables supersede nothing). */
const STATEMENT_TYPES = new Set(["text", "fact", "definition"]);

/** One supersession recorded: the other atom, the status change to revert to undo it, and why. */
export interface SupersessionFound {
  atom_id: number;
  change_id: number;
  reason: string;
}

/** What storing one atom superseded, and what (if anything) superseded it at once. */
export interface SupersessionOutcome {
  supersedes: SupersessionFound[];
  superseded_by: SupersessionFound | null;
}

const dated = (s: SupersessionSubject): DatedStatement => ({
  text: s.content,
  observedAt: s.observedAt ?? s.createdAt,
  eventAt: s.eventStart,
});

/** Whether a stored atom may supersede or be superseded: any statement but a passage of several sentences. */
export function takesPart(s: Pick<SupersessionSubject, "passage" | "content">): boolean {
  return !s.passage || passageDecides(s.content);
}

/** The supersessions to record between atom `me` and the stored atoms `others`. */
export function plannedSupersessions(me: SupersessionSubject, others: SupersessionSubject[]): SupersessionWrite[] {
  const writes: SupersessionWrite[] = [];
  let supersededOnce = false;
  for (const other of others) {
    if (other.id === me.id || !takesPart(other) || !STATEMENT_TYPES.has(other.type) || me.keptApart.includes(other.id))
      continue;
    const v = decideSupersession(dated(other), dated(me));
    if (v.outcome === "b_supersedes_a") writes.push({ newerId: me.id, olderId: other.id, reason: v.reason });
    else if (v.outcome === "a_supersedes_b" && !supersededOnce) {
      supersededOnce = true;
      writes.push({ newerId: other.id, olderId: me.id, reason: v.reason });
    }
  }
  return writes;
}

/**
 * Decides and records the supersessions of stored atom `atomId` (of text `text`) against the stored atoms closest
 * to it. @throws PegasError STORE_UNAVAILABLE.
 */
export async function supersedeFor(
  services: Pick<Services, "projection" | "searchReads" | "supersession">,
  atomId: number,
  text: string,
): Promise<SupersessionOutcome> {
  const none: SupersessionOutcome = { supersedes: [], superseded_by: null };
  if (!readClaims(text).length) return none;
  const [lexemes] = await Promise.all([services.searchReads.analyze(text), services.projection.sync()]);
  const ids = services.projection
    .lexical(
      lexemes,
      SUPERSESSION_CANDIDATES,
      { status: ["candidate", "verified", "contested"] },
      { neighbours: false },
    )
    .map((h) => h.atomId)
    .filter((id) => id !== atomId);
  if (!ids.length) return none;
  const [me, ...others] = await services.supersession.supersessionSubjects([atomId, ...ids]);
  if (!me || me.id !== atomId || !takesPart(me) || !STATEMENT_TYPES.has(me.type)) return none;
  const writes = plannedSupersessions(me, others);
  const applied = await services.supersession.applySupersessions(writes);
  const reasons = new Map(writes.map((w) => [`${w.newerId}>${w.olderId}`, w.reason]));
  const found = (other: number, a: { newerId: number; olderId: number; changeId: number }) => ({
    atom_id: other,
    change_id: a.changeId,
    reason: reasons.get(`${a.newerId}>${a.olderId}`) ?? "",
  });
  const by = applied.find((a) => a.olderId === atomId);
  return {
    supersedes: applied.filter((a) => a.newerId === atomId).map((a) => found(a.olderId, a)),
    superseded_by: by ? found(by.newerId, by) : null,
  };
}
