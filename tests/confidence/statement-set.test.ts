/**
 * The labelled statement set of the confidence calibration: at least 300 statements, Russian and English, true and
 * false; every line well formed (its half is its hash's); the check half frozen by a digest recorded when the set was
 * written, before any weight of the confidence model was fitted (weights are fitted on the tune half only).
 */
import { describe, expect, test } from "bun:test";
import { checkDigest, loadStatementSet } from "./statement-set.ts";

const FROZEN_CHECK_DIGEST = "2e0a028ea978dea8ba2f90f7033c8448e9e63a12a5abc7c911bdb83ed75cfbe8";

describe("confidence statement set", () => {
  const set = loadStatementSet();

  test("≥ 300 statements, both languages and both labels in each half", () => {
    expect(set.length).toBeGreaterThanOrEqual(300);
    for (const half of ["tune", "check"] as const)
      for (const lang of ["en", "ru"] as const)
        for (const label of [true, false]) {
          const n = set.filter((s) => s.half === half && s.lang === lang && s.label === label).length;
          expect(n).toBeGreaterThanOrEqual(10);
        }
    expect(new Set(set.map((s) => s.text)).size).toBe(set.length);
  });

  test("the check half is the one frozen before the fit", () => {
    expect(checkDigest(set)).toBe(FROZEN_CHECK_DIGEST);
  });
});
