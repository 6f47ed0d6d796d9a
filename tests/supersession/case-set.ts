/**
 * The labelled supersession set of issue 22 (tests/supersession/cases.jsonl, one case per line): pairs of statements
 * (a stored first, b later), English and Russian, each with its observed dates (and an event date where the store
 * would have one), labelled by reading: `supersede` (b is a newer value of the same exclusive property of the same
 * subject: a replaces nothing, b replaces a), `reverse` (b tells of an older time: a supersedes b) or `none` (an
 * addition, "also", a negation, another subject, a property held alongside others, the same value, equal times).
 * Origins: `locomo` — statements a distiller would make of LoCoMo dev turns whose people change jobs, homes or
 * states, dated by their sessions (`source` names the conversation and turns); `written` — cases written for the
 * rules' edges. The check half is frozen by hash ({@link caseHalf}) before any rule was tuned on the other half.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";

/** What b is to a. */
export type CaseLabel = "supersede" | "reverse" | "none";

/** One dated statement of a case. */
export interface CaseStatement {
  text: string;
  observed_at: string;
  event_at?: string;
}

/** One labelled case. */
export interface SupersessionCase {
  half: "tune" | "check";
  label: CaseLabel;
  lang: "en" | "ru";
  origin: "locomo" | "written";
  source: string | null;
  a: CaseStatement;
  b: CaseStatement;
  note: string;
}

/** The half of a case: SHA-256 of `"pegas-supersession-v1:" + a + "|" + b`; an even first byte is `tune`. */
export function caseHalf(a: string, b: string): "tune" | "check" {
  const first = createHash("sha256").update(`pegas-supersession-v1:${a}|${b}`, "utf8").digest()[0];
  return first % 2 === 0 ? "tune" : "check";
}

/** The cases, in file order. @throws Error naming the line when a line is not a case. */
export function loadCases(path = new URL("./cases.jsonl", import.meta.url).pathname): SupersessionCase[] {
  return readFileSync(path, "utf8")
    .split("\n")
    .filter((l) => l.trim())
    .map((l, i) => {
      const c = JSON.parse(l) as SupersessionCase;
      if (!c.a?.text || !c.b?.text || !["supersede", "reverse", "none"].includes(c.label))
        throw new Error(`cases.jsonl line ${i + 1} is not a labelled case`);
      return c;
    });
}
