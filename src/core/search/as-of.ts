/**
 * The time of a read (issue 22 item 3): `valid_at` (what was true then — an atom holds from its event time, else its
 * observed time, else when it was stored, until the same time of the atom that superseded it) and `known_at` (what the
 * memory knew then — stored by then, and then neither superseded, retracted nor stale). Used by memory_search and
 * memory_get_context: with either, superseded atoms are searched too and the ranked ids are filtered in SQL
 * (SupersessionStore.filterAsOf) before paging.
 */
import type { AtomStatus } from "../../domain/atom.ts";
import { ISO_TIME_FORMAT, parseIsoTime } from "../../domain/time/atom-time.ts";
import { invalidInput } from "../../errors.ts";
import type { AsOf } from "../../ports/store/supersession.ts";
import type { Services } from "../services.ts";

/** The read-time arguments of memory_search and memory_get_context. */
export interface AsOfInput {
  /** ISO 8601 date or date-time: what was true then. */
  valid_at?: string;
  /** ISO 8601 date or date-time: what the memory knew then. */
  known_at?: string;
}

/** Statuses searched at a read time when none are asked for: the default ones and `superseded`. */
export const AS_OF_STATUSES: AtomStatus[] = ["candidate", "verified", "contested", "superseded"];

/**
 * The instant an argument names: a date-time as given; a date (YYYY-MM-DD or YYYY-MM) as the last instant of that
 * day or month, so that "valid_at 2024-06" counts what was said during June.
 */
function instantOf(value: string, name: string): string {
  const at = typeof value === "string" ? parseIsoTime(value.trim()) : null;
  if (!at) throw invalidInput(`${name} '${String(value).slice(0, 60)}' is not a date`, `use ${ISO_TIME_FORMAT}`);
  if (value.includes("T")) return at.toISOString();
  const end = new Date(at);
  if (/^\d{4}-\d{2}$/u.test(value.trim())) end.setUTCMonth(end.getUTCMonth() + 1);
  else end.setUTCDate(end.getUTCDate() + 1);
  return new Date(end.getTime() - 1).toISOString();
}

/** The read time of `input`, or null when it gives none. @throws PegasError INVALID_INPUT for a value not a date. */
export function readAsOf(input: AsOfInput): AsOf | null {
  if (input.valid_at === undefined && input.known_at === undefined) return null;
  return {
    ...(input.valid_at !== undefined ? { validAt: instantOf(input.valid_at, "valid_at") } : {}),
    ...(input.known_at !== undefined ? { knownAt: instantOf(input.known_at, "known_at") } : {}),
  };
}

/** The ranked items (`id`: an atom id) that hold at `asOf`, in order; all of them when `asOf` is null. */
export async function heldAsOf<T extends { id: number }>(
  services: Pick<Services, "supersession">,
  ranked: T[],
  asOf: AsOf | null,
): Promise<T[]> {
  if (!asOf) return ranked;
  const held = new Set(
    await services.supersession.filterAsOf(
      ranked.map((f) => f.id),
      asOf,
    ),
  );
  return ranked.filter((f) => held.has(f.id));
}
