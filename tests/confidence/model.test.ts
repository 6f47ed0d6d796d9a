/**
 * The confidence model (src/domain/confidence/model.ts) and the calibration metrics (metrics.ts): each reason moves
 * the confidence its way and is listed with its sign; the metrics give their known values on hand-made inputs; a
 * constant confidence fails the goals (AUROC 0.5 < 0.75) however well its level matches.
 */
import { describe, expect, test } from "bun:test";
import {
  type ConfidenceFacts,
  explainConfidence,
  LOW_CONFIDENCE,
  lowestReason,
  reasonLine,
} from "../../src/domain/confidence/model.ts";
import { auroc, expectedCalibrationError, logLoss, reliabilityTable } from "../../src/domain/confidence/metrics.ts";
import { CONFIDENCE_WEIGHTS } from "../../src/domain/confidence/weights.ts";

/** An agent's atom citing one ordinary web page, checked by memory_verify, nothing else known. */
const base: ConfidenceFacts = {
  status: "candidate",
  prior: 0.5,
  stored: 0.5,
  sources: [{ site: "web:example.org", authority: 0.5, gone: false, uncheckedDays: 1 }],
  checked: true,
  contradictions: 0,
  supersededBy: 0,
  inferred: 0,
  duplicate: false,
  ageDays: 1,
};
const with_ = (f: Partial<ConfidenceFacts>) => explainConfidence({ ...base, ...f });
const codes = (f: Partial<ConfidenceFacts>) => with_(f).reasons.map((r) => r.code);

describe("confidence model", () => {
  test("the value is the logistic of the bias plus the listed terms", () => {
    const e = with_({});
    const z = CONFIDENCE_WEIGHTS.bias + e.reasons.reduce((s, r) => s + r.weight, 0);
    expect(e.value).toBeCloseTo(1 / (1 + Math.exp(-z)), 2);
    expect(e.reasons.map((r) => r.code)).toEqual(["sources"]);
    expect(e.reasons[0].text).toBe("1 source site(s): example.org");
  });

  test("verification and corroboration raise it; contradictions, supersession, staleness, gone pages lower it", () => {
    const plain = with_({}).value;
    const verified = with_({ status: "verified", stored: 0.7 });
    expect(verified.value).toBeGreaterThan(0.9);
    expect(verified.reasons[0]).toMatchObject({ code: "verified" });
    expect(verified.reasons.find((r) => r.code === "corroborated")?.weight).toBeGreaterThan(0);
    for (const f of [
      { status: "contested", contradictions: 1 },
      { status: "superseded", supersededBy: 1 },
      { status: "stale" },
      { sources: [{ ...base.sources[0], gone: true }] },
      { ageDays: 365 * 5 },
      { checked: false },
      { sources: [] },
    ] as Partial<ConfidenceFacts>[]) {
      const e = with_(f);
      expect(e.value).toBeLessThan(plain);
      expect(e.reasons.some((r) => r.weight < 0)).toBe(true);
    }
    expect(codes({ status: "contested", contradictions: 3 })).toContain("contested");
    expect(with_({ status: "contested", contradictions: 3 }).value).toBeLessThan(
      with_({ status: "contested", contradictions: 1 }).value,
    );
    expect(with_({ inferred: 2 }).value).toBeGreaterThan(plain);
    expect(with_({ prior: 0.9 }).value).toBeGreaterThan(plain);
  });

  test("independent sites of higher authority count more; one site counts once; gone pages do not count", () => {
    const two = with_({
      sources: [...base.sources, { site: "web:nature.com", authority: 0.9, gone: false, uncheckedDays: 1 }],
    });
    expect(two.value).toBeGreaterThan(with_({}).value);
    expect(two.reasons[0].text).toBe("2 source site(s): example.org, nature.com");
    const samesite = with_({ sources: [base.sources[0], { ...base.sources[0] }] });
    expect(samesite.value).toBe(with_({}).value);
    expect(codes({ sources: [{ ...base.sources[0], gone: true }] })).toEqual(
      expect.arrayContaining(["source_gone", "unsourced"]),
    );
  });

  test("a duplicate kept stale is not penalised as dropped by its source; a re-checked page is not 'unrefreshed'", () => {
    expect(codes({ status: "stale", duplicate: true })).not.toContain("stale");
    expect(codes({ status: "stale" })).toContain("stale");
    expect(codes({ sources: [{ ...base.sources[0], uncheckedDays: 400 }] })).toContain("unrefreshed");
    expect(codes({ sources: [{ ...base.sources[0], uncheckedDays: null }] })).not.toContain("unrefreshed");
  });

  test("reasons are sorted by size, printed with their sign; the low tag names the reason lowering it most", () => {
    const e = with_({ status: "contested", contradictions: 2, ageDays: 800 });
    const sizes = e.reasons.map((r) => Math.abs(r.weight));
    expect(sizes).toEqual([...sizes].sort((a, b) => b - a));
    expect(e.value).toBeLessThan(LOW_CONFIDENCE);
    expect(lowestReason(e)).toBe("contested");
    expect(reasonLine({ weight: -1.5, text: "contested by 2 atom(s)" })).toBe("−1.50 contested by 2 atom(s)");
    expect(reasonLine({ weight: 0.5, text: "x" })).toBe("+0.50 x");
    expect(lowestReason(with_({ status: "verified", stored: 0.8 }))).toBeNull();
  });
});

describe("calibration metrics", () => {
  const T = (p: number) => ({ p, label: true });
  const F = (p: number) => ({ p, label: false });

  test("AUROC: perfect ranking 1, reversed 0, ties one half, a constant 0.5", () => {
    expect(auroc([F(0.1), F(0.2), T(0.8), T(0.9)])).toBe(1);
    expect(auroc([T(0.1), T(0.2), F(0.8), F(0.9)])).toBe(0);
    expect(auroc([T(0.5), F(0.5)])).toBe(0.5);
    // 2 true × 2 false pairs: (0.6 > 0.3 ✓, 0.6 > 0.7 ✗, 0.3 = 0.3 ½, 0.3 > 0.7 ✗) = 1.5 / 4
    expect(auroc([T(0.6), T(0.3), F(0.3), F(0.7)])).toBe(0.375);
  });

  test("ECE over 10 bins and the reliability table on known inputs", () => {
    // Bin [0.2, 0.3): 4 items at 0.25, 1 true → |0.25 − 0.25| = 0; bin [0.9, 1]: 4 at 0.95, 2 true → |0.5 − 0.95|.
    const items = [T(0.25), F(0.25), F(0.25), F(0.25), T(0.95), T(0.95), F(0.95), F(0.95)];
    expect(expectedCalibrationError(items)).toBeCloseTo(0.5 * 0.45, 10);
    expect(reliabilityTable(items)).toEqual([
      { lo: 0.2, hi: 0.3, n: 4, confidence: 0.25, accuracy: 0.25 },
      { lo: 0.9, hi: 1, n: 4, confidence: 0.95, accuracy: 0.5 },
    ]);
    expect(reliabilityTable([T(1)])[0]).toMatchObject({ lo: 0.9, n: 1 }); // 1.0 falls in the last bin
    expect(logLoss([T(0.5), F(0.5)])).toBeCloseTo(Math.log(2), 10);
    expect(() => expectedCalibrationError([])).toThrow();
    expect(() => auroc([T(1.2)])).toThrow(/outside/);
  });

  test("a constant confidence fails the goals (ECE ≤ 0.1 and AUROC ≥ 0.75) even at the base rate", () => {
    const labels = Array.from({ length: 200 }, (_, i) => i % 5 < 3); // 60 % true
    const constant = labels.map((label) => ({ p: 0.6, label }));
    const passes = (xs: typeof constant) => expectedCalibrationError(xs) <= 0.1 && auroc(xs) >= 0.75;
    expect(auroc(constant)).toBe(0.5);
    expect(passes(constant)).toBe(false);
    // A confidence that ranks and is calibrated passes the same check.
    const informed = labels.map((label, i) => ({ p: label ? (i % 10 === 0 ? 0.15 : 0.95) : 0.15, label }));
    expect(passes(informed)).toBe(true);
  });
});
