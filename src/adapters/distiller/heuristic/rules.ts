/**
 * Logical rules, only from explicit JSON in the text: `{"if": "imports", "then": "depends_on"}` or a chain
 * `{"if": ["depends_on", "depends_on"], "then": "depends_on"}`, in a fenced json block or as a bare one-line object.
 * Rules are never inferred from prose: a sentence such as "imports imply dependencies" stays a sentence.
 */
import type { Span } from "./blocks/blocks.ts";

/** A rule in normalized form: `if` is one kind or a chain of kinds, `then` one kind; all single tokens. */
export interface RuleJson {
  if: string | string[];
  then: string;
}

/** A rule found in the chunk: where its JSON is, and the rule. */
export interface FoundRule extends Span {
  rule: RuleJson;
}

/** A relation kind the inference engine accepts: one token of letters, digits and underscores, letter first. */
const KIND = /^\p{L}[\p{L}\p{N}_]*$/u;
/** Longest chain a rule may name; longer ones are not rules anyone writes by hand. */
const MAX_CHAIN = 8;

function isKind(v: unknown): v is string {
  return typeof v === "string" && v.length <= 64 && KIND.test(v);
}

/** The rule in `value` (a parsed JSON value), or null when it is not exactly a valid if/then rule object. */
export function asRule(value: unknown): RuleJson | null {
  if (!value || typeof value !== "object" || Array.isArray(value)) return null;
  const o = value as Record<string, unknown>;
  if (!isKind(o.then)) return null;
  if (isKind(o.if)) return { if: o.if, then: o.then };
  if (Array.isArray(o.if) && o.if.length >= 1 && o.if.length <= MAX_CHAIN && o.if.every(isKind)) {
    return { if: o.if.length === 1 ? o.if[0] : [...o.if], then: o.then };
  }
  return null;
}

/** The rules in a JSON text (one object or an array of objects), or [] when it is not JSON or holds no rule. */
export function rulesInJson(json: string): RuleJson[] {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    return [];
  }
  const items = Array.isArray(value) ? value : [value];
  const rules = items.map(asRule);
  // A mixed array is data that merely contains rule-shaped objects; only an all-rules block is a rule block.
  return rules.length > 0 && rules.every((r) => r !== null) ? (rules as RuleJson[]) : [];
}

/** Normalized JSON of a rule: keys `if` then `then`, no whitespace (identical rules hash identically). */
export function ruleContent(rule: RuleJson): string {
  return JSON.stringify({ if: rule.if, then: rule.then });
}

/** A one-line statement of a rule: "Rule: if imports then depends_on", chains joined by " ∘ ". */
export function ruleClaim(rule: RuleJson): string {
  const premise = Array.isArray(rule.if) ? `${rule.if.join(" ∘ ")} (chain)` : rule.if;
  return `Rule: if ${premise} then ${rule.then}`;
}

/** One-line JSON objects that mention both keys; a cheap filter before JSON.parse. */
const BARE_OBJECT = /\{[^{}\n]{0,400}\}/g;

/** Bare one-line rule objects in `text[from, to)`, e.g. a line `{"if": "imports", "then": "depends_on"}`. */
export function bareRules(text: string, from: number, to: number): FoundRule[] {
  const out: FoundRule[] = [];
  const slice = text.slice(from, to);
  for (const m of slice.matchAll(BARE_OBJECT)) {
    if (!/"if"\s*:/.test(m[0]) || !/"then"\s*:/.test(m[0])) continue;
    const [rule] = rulesInJson(m[0]);
    if (rule) out.push({ start: from + m.index, end: from + m.index + m[0].length, rule });
  }
  return out;
}
