/**
 * Confidence that explains itself (issue 24 item 3): an atom's confidence computed at read time from what is stored
 * about it, returned with its reasons.
 *
 * Method: a logistic model. The stored facts of an atom ({@link ConfidenceFacts}) become features x_k (each 0 when
 * the reason is absent, see {@link confidenceFeatures}); the confidence is σ(b + Σ_k w_k·x_k), σ the logistic
 * function. Each term w_k·x_k is one reason, in logit units: its sign says whether the reason raises or lowers the
 * confidence, its size how much. The weights (weights.ts) are fitted by L2-regularised logistic regression
 * (bench/fit-confidence.ts) on the tune half of the labelled calibration set (tests/confidence/statement-set.jsonl);
 * the reasons that set cannot tell apart (stated prior, source authority, age, gone or unrefreshed sources,
 * supersession, inference) carry weights set by rule and named as such in weights.ts. Fitting a logistic over such features is Platt's calibration
 * ("Probabilistic outputs for support vector machines", 1999) applied to hand-made scores.
 *
 * The stored `confidence` column is one of the inputs (the stated prior and the noisy-OR raise that memory_verify
 * wrote, domain/evidence.ts): it is explained, not replaced in storage. Pure and deterministic.
 */
import type { AtomStatus } from "../atom.ts";
import { CONFIDENCE_WEIGHTS, type FeatureName } from "./weights.ts";

/** One evidence document of an atom (its own document or one citing it), as read for confidence. */
export interface ConfidenceSource {
  /** Independent site (domain/evidence.ts siteOf). */
  site: string;
  /** Prior trust of the document, [0, 1]. */
  authority: number;
  /** The page answered 404/410 at its last check (migration 0018). */
  gone: boolean;
  /** Days since the page was last fetched or checked; null for files and text (nothing to re-check). */
  uncheckedDays: number | null;
}

/** What is stored about an atom that bears on its confidence. */
export interface ConfidenceFacts {
  status: AtomStatus;
  /** Confidence stated when the atom was stored (by the distiller or the agent), before verification raised it. */
  prior: number;
  /** Stored confidence: the prior, raised by memory_verify's noisy-OR over independent corroborating sites. */
  stored: number;
  sources: ConfidenceSource[];
  /** memory_verify has judged it against its neighbours. */
  checked: boolean;
  /** Live atoms linked to it by `contradicts`. */
  contradictions: number;
  /** Live atoms that superseded it. */
  supersededBy: number;
  /** Links through it derived by memory_infer (any kind but `contradicts`). */
  inferred: number;
  /** `stale` because a duplicate of another atom (its statement lives on there), not because its source dropped it. */
  duplicate: boolean;
  /** Days since its source said it (observed_at, else when it was stored). */
  ageDays: number;
}

/** One reason: a short English phrase and its weight in logit units (positive raises the confidence). */
export interface ConfidenceReason {
  code: FeatureName;
  weight: number;
  text: string;
}

/** A confidence in [0, 1] and its reasons, the largest (by absolute weight) first. */
export interface ExplainedConfidence {
  value: number;
  reasons: ConfidenceReason[];
}

/** Terms smaller than this (logit units) are not listed as reasons. */
export const REASON_FLOOR = 0.05;
/**
 * Below this a statement is marked "low confidence" in memory_get_context: contested, superseded, stale or unsourced
 * atoms fall below it; an unverified atom of an ordinary source (≈ 0.26) does not, so that the mark stays rare.
 */
export const LOW_CONFIDENCE = 0.2;

const clamp = (x: number, lo: number, hi: number) => (Number.isFinite(x) ? Math.min(hi, Math.max(lo, x)) : lo);
const logit = (p: number) => {
  const q = clamp(p, 0.02, 0.98);
  return Math.log(q / (1 - q));
};
/** The logistic function. */
export const sigmoid = (z: number): number => 1 / (1 + Math.exp(-z));

/** Noisy-OR of the authorities of the live sources, each site counted once at its best document. */
function sourceSupport(sources: readonly ConfidenceSource[]): { support: number; sites: string[] } {
  const best = new Map<string, number>();
  for (const s of sources) if (!s.gone) best.set(s.site, Math.max(best.get(s.site) ?? 0, clamp(s.authority, 0, 1)));
  let disbelief = 1;
  for (const a of best.values()) disbelief *= 1 - a;
  return { support: 1 - disbelief, sites: [...best.keys()].sort() };
}

/** The feature values of an atom (0 = reason absent) and a phrase for each present one. */
export function confidenceFeatures(f: ConfidenceFacts): Array<{ code: FeatureName; x: number; text: string }> {
  const out: Array<{ code: FeatureName; x: number; text: string }> = [];
  const add = (code: FeatureName, x: number, text: string) => {
    if (x !== 0 && Number.isFinite(x)) out.push({ code, x, text });
  };
  add("stated", logit(f.prior), `stated ${clamp(f.prior, 0, 1).toFixed(2)}`);
  const { support, sites } = sourceSupport(f.sources);
  const shown = sites
    .map((s) => s.replace(/^web:/, ""))
    .slice(0, 3)
    .join(", ");
  add("sources", support, sites.length ? `${sites.length} source site(s): ${shown}` : "");
  if (!sites.length) add("unsourced", 1, "no live source");
  const raise = clamp(f.stored - f.prior, 0, 1);
  add("corroborated", raise, `corroborated by other sites (+${raise.toFixed(2)})`);
  if (f.status === "verified") add("verified", 1, "verified by independent sites");
  if (!f.checked && f.status !== "verified") add("unchecked", 1, "not yet verified");
  if (f.status === "contested" || f.contradictions > 0)
    add(
      "contested",
      1 + Math.min(2, Math.max(0, f.contradictions - 1)) * 0.5,
      `contested by ${Math.max(1, f.contradictions)} atom(s)`,
    );
  if (f.status === "superseded" || f.supersededBy > 0) add("superseded", 1, "superseded by a newer statement");
  if (f.status === "stale" && !f.duplicate) add("stale", 1, "dropped by a newer version of its source");
  const gone = f.sources.filter((s) => s.gone).length;
  if (gone && f.sources.length) add("source_gone", gone / f.sources.length, `${gone} source page(s) gone`);
  const unchecked = f.sources.map((s) => s.uncheckedDays).filter((d): d is number => d !== null && d > 180);
  if (unchecked.length) add("unrefreshed", 1, `source not re-checked for ${Math.round(Math.min(...unchecked))} days`);
  const years = Math.max(0, f.ageDays) / 365;
  if (years >= 0.5) add("age", Math.log1p(years), `said ${years.toFixed(1)} years ago`);
  add("inferred", Math.min(3, f.inferred), `${f.inferred} inferred link(s)`);
  return out;
}

/**
 * The confidence of an atom and its reasons (module doc), under `weights` (default: the fitted ones). The value is
 * rounded to 3 decimals, the reason weights to 2.
 */
export function explainConfidence(f: ConfidenceFacts, weights = CONFIDENCE_WEIGHTS): ExplainedConfidence {
  let z = weights.bias;
  const reasons: ConfidenceReason[] = [];
  for (const { code, x, text } of confidenceFeatures(f)) {
    const term = weights[code] * x;
    z += term;
    if (Math.abs(term) >= REASON_FLOOR) reasons.push({ code, weight: Math.round(term * 100) / 100, text });
  }
  reasons.sort((a, b) => Math.abs(b.weight) - Math.abs(a.weight));
  return { value: Math.round(sigmoid(z) * 1000) / 1000, reasons };
}

/** A reason on one line: `+1.20 verified by independent sites`. */
export function reasonLine(r: Pick<ConfidenceReason, "weight" | "text">): string {
  return `${r.weight >= 0 ? "+" : "−"}${Math.abs(r.weight).toFixed(2)} ${r.text}`;
}

/** The reason that lowers the confidence most, as a short tag ("contested"), or null when none lowers it. */
export function lowestReason(e: ExplainedConfidence): string | null {
  const neg = e.reasons.filter((r) => r.weight < 0).sort((a, b) => a.weight - b.weight)[0];
  return neg ? SHORT[neg.code] : null;
}

const SHORT: Record<FeatureName, string> = {
  stated: "stated low",
  sources: "weak sources",
  unsourced: "no source",
  corroborated: "corroborated",
  verified: "verified",
  unchecked: "unverified",
  contested: "contested",
  superseded: "superseded",
  stale: "stale",
  source_gone: "source gone",
  unrefreshed: "source not re-checked",
  age: "old",
  inferred: "inferred",
};
