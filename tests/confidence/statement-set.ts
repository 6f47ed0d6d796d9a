/**
 * The labelled statement set of the confidence calibration (issue 24 item 3): tests/confidence/statement-set.jsonl,
 * written once by bench/make-statement-set.ts from the shared fixtures (see there for how each statement was made
 * and labelled) plus the hand-written fabricated statements of fabricated.ts. One statement per line:
 * `{id, half, lang, source, kind, label, text, from?}`. The check half is frozen by hash ({@link statementHalf}) and
 * by a digest of its lines (statement-set.test.ts), fixed before any weight of the confidence model was fitted: the
 * weights are fitted on the tune half only (bench/fit-confidence.ts).
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";

/** How a statement was made: a fixture sentence as said, its first clause, a changed number, a negation, or made up. */
export type StatementKind = "verbatim" | "clause" | "number" | "negation" | "fabricated";

/** One labelled statement. */
export interface StatementItem {
  id: string;
  half: "tune" | "check";
  lang: "en" | "ru";
  /** The fixture (path under shared/fixtures) it was made from, or what a fabricated one is about. */
  source: string;
  kind: StatementKind;
  /** True when the fixture sources support it; false when they contradict it or it is fabricated. */
  label: boolean;
  text: string;
  /** The fixture sentence a changed statement was made from. */
  from?: string;
}

/** The half of a statement: SHA-256 of `"pegas-confidence-v1:" + text` (UTF-8); an even first byte is `tune`. */
export function statementHalf(text: string): "tune" | "check" {
  return createHash("sha256").update(`pegas-confidence-v1:${text}`, "utf8").digest()[0] % 2 === 0 ? "tune" : "check";
}

const KINDS = new Set(["verbatim", "clause", "number", "negation", "fabricated"]);

/** The items, in file order. @throws Error naming the line when a line is malformed or its half is wrong. */
export function loadStatementSet(path = new URL("./statement-set.jsonl", import.meta.url).pathname): StatementItem[] {
  return readFileSync(path, "utf8")
    .split("\n")
    .filter((l) => l.trim())
    .map((l, i) => {
      const it = JSON.parse(l) as StatementItem;
      const ok =
        typeof it.text === "string" &&
        it.text.trim() !== "" &&
        KINDS.has(it.kind) &&
        (it.lang === "en" || it.lang === "ru") &&
        it.half === statementHalf(it.text) &&
        it.label === (it.kind === "verbatim" || it.kind === "clause");
      if (!ok) throw new Error(`statement-set.jsonl line ${i + 1} is malformed`);
      return it;
    });
}

/** SHA-256 (hex) of the check half's lines as stored, in file order: any edit of a check item changes it. */
export function checkDigest(items: readonly StatementItem[]): string {
  const h = createHash("sha256");
  for (const it of items) if (it.half === "check") h.update(`${JSON.stringify(it)}\n`, "utf8");
  return h.digest("hex");
}
