/**
 * An atom's time from what the caller gave and what its text says: the checked `observed_at` argument of
 * memory_store and memory_ingest, and the event time of the first date expression in the text (src/domain/time),
 * relative ones resolved against when the source said it.
 */
import { type AtomTime, ISO_TIME_FORMAT, parseIsoTime } from "../../domain/time/atom-time.ts";
import { eventTimeOf } from "../../domain/time/extract.ts";
import { invalidInput } from "../../errors.ts";

/**
 * The caller's `observed_at` as a UTC Date (undefined when absent). @throws PegasError INVALID_INPUT naming the
 * accepted format when it is not an ISO 8601 date or date-time, or lies more than a day in the future.
 */
export function checkObservedAt(value: string | undefined, now = new Date()): Date | undefined {
  if (value === undefined || value === null) return undefined;
  const at = typeof value === "string" ? parseIsoTime(value) : null;
  if (!at) throw invalidInput(`observed_at '${String(value).slice(0, 60)}' is not a date`, `use ${ISO_TIME_FORMAT}`);
  if (at.getTime() > now.getTime() + 86_400_000)
    throw invalidInput(`observed_at ${value} is in the future`, "give when the source said it");
  return at;
}

/**
 * The time to store with an atom of `text`: `observedAt` when known, and the event time its text states; relative
 * expressions ("yesterday") resolve against `observedAt`, else against `fallbackNow` when given (an agent speaks
 * now), else are left unresolved.
 */
export function atomTimeOf(text: string, observedAt: Date | undefined, fallbackNow?: Date): AtomTime | undefined {
  const event = eventTimeOf(text, observedAt ?? fallbackNow);
  if (!observedAt && !event) return undefined;
  return { ...(observedAt ? { observedAt: observedAt.toISOString() } : {}), ...(event ? { event } : {}) };
}
