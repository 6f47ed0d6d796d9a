/**
 * Rules of memory_infer: a `logical_rule` atom whose content (or, failing that, claim) is JSON
 * `{"if": "imports", "then": "depends_on"}` (every a-imports→b gives a-depends_on→b) or
 * `{"if": ["depends_on", "depends_on"], "then": "depends_on"}` (a chain: a→b, b→c gives a→c; any length ≥ 1).
 * As a Datalog clause: `then(x0, xn) :- if[0](x0, x1), …, if[n-1](x(n-1), xn)`. Pure parsing; nothing is applied here.
 */

/** A relation kind: one lower-case token (the CHECK of every edge table). */
export const RELATION_KIND = /^[a-z][a-z0-9_]{0,63}$/;

/** Longest chain body accepted (each step is a join). */
export const MAX_BODY = 8;

/** A rule that can be applied. */
export interface ChainRule {
  /** The `logical_rule` atom holding it. */
  ruleAtomId: number;
  /** Edge kinds of the chain, in order (length 1..{@link MAX_BODY}). */
  body: string[];
  /** Kind of the derived edge. */
  head: string;
}

/** A rule atom that is not applied, and why. */
export interface IgnoredRule {
  ruleAtomId: number;
  reason: string;
}

/** The fields of a rule atom this parser reads. */
export interface RuleAtom {
  id: number;
  type: string;
  status: string;
  claim: string;
  content: string;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text.trim());
  } catch {
    return undefined;
  }
}

function kindProblem(what: string, k: unknown): string | null {
  if (typeof k !== "string") return `${what} must be a relation kind (a string), got ${JSON.stringify(k) ?? typeof k}`;
  if (!RELATION_KIND.test(k))
    return `${what} ${JSON.stringify(k)} is not a single-token kind (^[a-z][a-z0-9_]{0,63}$: lower case, digits, _; no spaces)`;
  return null;
}

/**
 * Parses one rule atom: a {@link ChainRule}, or an {@link IgnoredRule} with the reason (not a logical_rule, retracted
 * or stale, not JSON, wrong shape, a kind that is not a single token, a chain longer than {@link MAX_BODY}).
 */
export function parseRule(a: RuleAtom): ChainRule | IgnoredRule {
  const ignored = (reason: string): IgnoredRule => ({ ruleAtomId: a.id, reason });
  if (a.type !== "logical_rule") return ignored(`atom ${a.id} is a ${a.type} atom, not a logical_rule`);
  if (a.status === "retracted" || a.status === "stale") return ignored(`rule atom ${a.id} is ${a.status}`);
  const json = parseJson(a.content) ?? parseJson(a.claim);
  if (json === undefined)
    return ignored('neither content nor claim is JSON; write {"if": "imports", "then": "depends_on"}');
  if (typeof json !== "object" || json === null || Array.isArray(json))
    return ignored('the rule must be a JSON object {"if": …, "then": …}');
  const o = json as Record<string, unknown>;
  const extra = Object.keys(o).filter((k) => k !== "if" && k !== "then");
  if (extra.length)
    return ignored(`unknown key(s) ${extra.map((k) => JSON.stringify(k)).join(", ")}; a rule has only "if" and "then"`);
  if (!("if" in o) || !("then" in o)) return ignored('a rule needs both "if" and "then"');
  const body = Array.isArray(o.if) ? o.if : [o.if];
  if (!body.length) return ignored('"if" is an empty list');
  if (body.length > MAX_BODY) return ignored(`"if" has ${body.length} steps; at most ${MAX_BODY}`);
  for (const [i, k] of body.entries()) {
    const p = kindProblem(Array.isArray(o.if) ? `"if"[${i}]` : '"if"', k);
    if (p) return ignored(p);
  }
  const h = kindProblem('"then"', o.then);
  if (h) return ignored(h);
  return { ruleAtomId: a.id, body: body as string[], head: o.then as string };
}

/** True for a parsed rule (as opposed to an ignored one). */
export function isChainRule(r: ChainRule | IgnoredRule): r is ChainRule {
  return "body" in r;
}
