/**
 * Whether one statement supersedes another: the same subject and the same exclusive property (an employer, a city
 * of residence, a version, a status, a role, an office's holder, a relationship, an owner), another value (or the
 * old one ended: "no longer"), and newer — by event time when the text or the store gives one, else by observed
 * time. "Also works at" (an addition), a negation, a past state ("used to"), a different subject or a property held
 * alongside others (consulting) supersede nothing; an old event reported later is superseded by the newer statement
 * rather than superseding it. Pure; never throws.
 */
import { type PropertyClaim, readClaims } from "./claim.ts";
import { EXCLUSIVE, type PropertyKind } from "./lexicon.ts";
import { explicitTime, timeOf } from "./time.ts";

/** A statement with its times (ISO 8601 dates or date-times; null when unknown). */
export interface DatedStatement {
  text: string;
  /** When the source said it. */
  observedAt?: string | null;
  /** When it happened or began to hold, if known; else read from the text ("in 2019", «в 2019 году»). */
  eventAt?: string | null;
  /** `readClaims(text)` when the caller has it already (a batch decides one text against many). */
  claims?: PropertyClaim[];
  /** The time to compare, in ms, when the caller has computed it (see {@link effectiveTime}). */
  at?: number | null;
}

/** Which of the two supersedes the other, if either. */
export type SupersessionOutcome = "b_supersedes_a" | "a_supersedes_b" | "none";

/** The decision with the property concerned and a reason for the record. */
export interface SupersessionVerdict {
  outcome: SupersessionOutcome;
  property: PropertyKind | null;
  reason: string;
}

const SWITCHABLE: ReadonlySet<string> = new Set(["uses", "employer"]);

function sameProperty(a: PropertyClaim, b: PropertyClaim): boolean {
  if (a.property === b.property) return true;
  return (
    (a.property === "switch" && SWITCHABLE.has(b.property)) || (b.property === "switch" && SWITCHABLE.has(a.property))
  );
}

const covers = (big: string[], small: string[]) => small.length > 0 && small.every((w) => big.includes(w));

/** The same subject: both the speaker, or one's words all among the other's ("Alice" and "Alice Smith"). */
export function sameSubject(a: PropertyClaim, b: PropertyClaim): boolean {
  if (a.speaker || b.speaker) return a.speaker && b.speaker;
  return covers(a.subject, b.subject) || covers(b.subject, a.subject);
}

/** The same value: one's words all among the other's ("Acme" and "Acme Corp"); a version exactly. */
function sameValue(a: string[] | null, b: string[] | null): boolean {
  if (!a || !b) return false;
  return covers(a, b) || covers(b, a);
}

/** Whether claim `newer` replaces claim `older` (times aside). */
function replaces(older: PropertyClaim, newer: PropertyClaim): boolean {
  if (!sameSubject(older, newer) || !sameProperty(older, newer)) return false;
  const property = newer.property === "switch" ? older.property : newer.property;
  if (property === "switch" ? !newer.change : !EXCLUSIVE.has(property as PropertyKind)) return false;
  if (newer.additive || newer.negated || older.negated || newer.past) return false;
  if (property === "uses" && !newer.change) return false; // one uses many tools; only a switch replaces one
  if (older.org && newer.org && !sameValue(older.org, newer.org)) return false;
  if (newer.ended) return newer.value === null || sameValue(older.value, newer.value) || older.value === null;
  if (newer.value === null) return newer.change;
  return older.ended || !sameValue(older.value, newer.value);
}

/** A pair of claims of the two texts where one replaces the other (`forward`: b's replaces a's). */
function replacing(ca: PropertyClaim[], cb: PropertyClaim[], forward: boolean): PropertyClaim | null {
  for (const x of ca) for (const y of cb) if (forward ? replaces(x, y) : replaces(y, x)) return forward ? y : x;
  return null;
}

/** True when one text would supersede the other at some order of their times (dedup's and verification's hook). */
export function mayReplace(a: string, b: string): boolean {
  const [ca, cb] = [readClaims(a), readClaims(b)];
  return Boolean(ca.length && cb.length && (replacing(ca, cb, true) || replacing(ca, cb, false)));
}

/** The time a statement is compared by: its event time, else a date its text gives, else when it was observed. */
export const effectiveTime = (s: DatedStatement): number | null =>
  s.at !== undefined ? s.at : (timeOf(s.eventAt ?? null) ?? explicitTime(s.text) ?? timeOf(s.observedAt ?? null));

/**
 * Decides whether `b` supersedes `a` (or `a` supersedes `b`, when `b` tells of an older time), see the module doc.
 * Times are compared as event time when known, else observed time; equal or unknown times supersede nothing.
 */
export function decideSupersession(a: DatedStatement, b: DatedStatement): SupersessionVerdict {
  const [ca, cb] = [a.claims ?? readClaims(a.text), b.claims ?? readClaims(b.text)];
  if (!ca.length || !cb.length) return { outcome: "none", property: null, reason: "no property stated" };
  const [ta, tb] = [effectiveTime(a), effectiveTime(b)];
  if (ta === null || tb === null || ta === tb)
    return { outcome: "none", property: null, reason: "the two times are unknown or equal" };
  const forward = tb > ta;
  const winner = replacing(ca, cb, forward);
  if (!winner) return { outcome: "none", property: null, reason: "no newer value of the same property" };
  const property = (winner.property === "switch" ? "uses" : winner.property) as PropertyKind;
  return {
    outcome: forward ? "b_supersedes_a" : "a_supersedes_b",
    property,
    reason: `a newer ${property} of the same subject${forward ? "" : " (the later report tells of an older time)"}`,
  };
}
