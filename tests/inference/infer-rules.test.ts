/** parseRule: the accepted rule shapes and every reason a rule atom is ignored. */
import { describe, expect, test } from "bun:test";
import { isChainRule, MAX_BODY, parseRule, type RuleAtom } from "../../src/domain/inference/rules.ts";

const atom = (content: string, more: Partial<RuleAtom> = {}): RuleAtom => ({
  id: 7,
  type: "logical_rule",
  status: "candidate",
  claim: "a rule",
  content,
  ...more,
});

describe("parseRule", () => {
  test("one step, a chain, JSON in the claim when the content is prose", () => {
    expect(parseRule(atom('{"if": "imports", "then": "depends_on"}'))).toEqual({
      ruleAtomId: 7,
      body: ["imports"],
      head: "depends_on",
    });
    expect(parseRule(atom(' {"if": ["depends_on", "depends_on", "calls"], "then": "reaches"} '))).toEqual({
      ruleAtomId: 7,
      body: ["depends_on", "depends_on", "calls"],
      head: "reaches",
    });
    expect(parseRule(atom("Зависимость транзитивна.", { claim: '{"if": ["x1", "x1"], "then": "x1"}' }))).toMatchObject({
      body: ["x1", "x1"],
      head: "x1",
    });
  });

  test("every other rule is ignored with its reason", () => {
    const reason = (a: RuleAtom) => {
      const r = parseRule(a);
      if (isChainRule(r)) throw new Error("accepted");
      return r.reason;
    };
    expect(reason(atom("not json"))).toContain("JSON");
    expect(reason(atom("[1, 2]"))).toContain("JSON object");
    expect(reason(atom('{"if": "imports"}'))).toContain('both "if" and "then"');
    expect(reason(atom('{"if": "imports", "then": "uses", "weight": 2}'))).toContain("unknown key");
    expect(reason(atom('{"if": [], "then": "uses"}'))).toContain("empty");
    expect(reason(atom(JSON.stringify({ if: Array(MAX_BODY + 1).fill("a"), then: "b" })))).toContain(
      `at most ${MAX_BODY}`,
    );
    expect(reason(atom('{"if": "depends on", "then": "uses"}'))).toContain("single-token");
    expect(reason(atom('{"if": ["imports", "Calls"], "then": "uses"}'))).toContain('"if"[1]');
    expect(reason(atom('{"if": "imports", "then": "зависит"}'))).toContain('"then"');
    expect(reason(atom('{"if": "imports", "then": 3}'))).toContain("a string");
    expect(reason(atom('{"if": "imports", "then": "uses"}', { status: "retracted" }))).toContain("retracted");
    expect(reason(atom('{"if": "imports", "then": "uses"}', { status: "stale" }))).toContain("stale");
    expect(reason(atom('{"if": "imports", "then": "uses"}', { type: "fact" }))).toContain("not a logical_rule");
  });
});
