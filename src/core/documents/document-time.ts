/**
 * When an ingested document said what it says (its atoms' `observed_at`): the caller's `observed_at`, else the date
 * the document carries (HTML published/modified, PDF CreationDate/ModDate, EPUB dc:date), else a fetched page's
 * fetch time; a text file or raw text has none. Each planned atom then takes the event time its text states,
 * relative expressions resolved against that date.
 */
import { parseDocumentDate } from "../../domain/time/document-date.ts";
import type { PlannedAtom } from "../../ports/store/atom-writes.ts";
import { atomTimeOf } from "../knowledge/atom-time.ts";

/** Document metadata keys holding its own date, the date it was written first (modification is a later say). */
const DATE_KEYS = ["published", "created", "modified"] as const;

/**
 * The document's observation time: `given` (checked by the caller), else its first readable, not future date among
 * {@link DATE_KEYS} of the parsed metadata, else `fetched_at` of the retrieval metadata; undefined when none.
 */
export function documentObservedAt(
  given: Date | undefined,
  parsed: Record<string, unknown>,
  retrieval: Record<string, unknown>,
  now = new Date(),
): Date | undefined {
  if (given) return given;
  for (const key of [...DATE_KEYS.map((k) => parsed[k]), retrieval.fetched_at]) {
    const at = typeof key === "string" ? parseDocumentDate(key) : null;
    if (at && at.getTime() <= now.getTime() + 86_400_000) return at;
  }
  return undefined;
}

/** The planned atoms with their time: `observedAt` and each one's event time from its content. */
export function datedAtoms(atoms: PlannedAtom[], observedAt: Date | undefined): PlannedAtom[] {
  return atoms.map((p) => {
    const time = atomTimeOf(p.atom.content, observedAt);
    return time ? { ...p, atom: { ...p.atom, time } } : p;
  });
}
