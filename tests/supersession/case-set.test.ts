/** The labelled supersession set: its size and shape, and the check half as frozen by hash. */
import { describe, expect, test } from "bun:test";
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { caseHalf, loadCases } from "./case-set.ts";

const CASES = loadCases();

describe("supersession case set", () => {
  test("has at least 40 cases, 15 negatives, both languages, dated pairs", () => {
    expect(CASES.length).toBeGreaterThanOrEqual(40);
    expect(CASES.filter((c) => c.label === "none").length).toBeGreaterThanOrEqual(15);
    expect(CASES.filter((c) => c.lang === "ru").length).toBeGreaterThanOrEqual(15);
    for (const c of CASES) {
      expect(c.a.observed_at).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(c.b.observed_at).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    }
  });

  test("every recorded half is the hash's", () => {
    for (const c of CASES) expect(`${c.half}:${c.a.text}`).toBe(`${caseHalf(c.a.text, c.b.text)}:${c.a.text}`);
  });

  test("the check half is the one frozen before tuning", () => {
    const check = CASES.filter((c) => c.half === "check").map((c) => JSON.stringify([c.label, c.a, c.b]));
    const digest = createHash("sha256").update(check.join("\n")).digest("hex").slice(0, 16);
    expect(`${check.length}:${digest}`).toBe(FROZEN);
  });
});

/** Count and digest of the check half, written when it was frozen (before the rules were tuned). */
const FROZEN = readFileSync(new URL("./check-half.frozen", import.meta.url), "utf8").trim();
