/**
 * Helpers of the inference tests: atoms, rules and links written straight into SQL (no dedup in the way), the
 * edges of a kind read back by atom claim, and the expected transitive closure computed in TypeScript.
 */
import type { SqlCanonicalStore } from "../../src/adapters/sql/store.ts";
import type { Services } from "../../src/core/services.ts";

/** The SQL client of services. */
export function sqlOf(services: Services) {
  return (services.maintenance as SqlCanonicalStore).db.sql;
}

let seq = 0;

/** Inserts an atom; returns its id. */
export async function atom(
  s: Services,
  claim: string,
  opts: { type?: string; content?: string; status?: string } = {},
): Promise<number> {
  const sql = sqlOf(s);
  const [r] = await sql`
    INSERT INTO pm_atom (type, claim, content, content_hash, status, search_tsv)
    VALUES (${opts.type ?? "fact"}, ${claim}, ${opts.content ?? claim}, ${`test-${Date.now()}-${++seq}-${claim}`}, ${opts.status ?? "candidate"},
            to_tsvector('pegas', ${claim}))
    RETURNING id`;
  return Number(r.id);
}

/** Inserts a logical_rule atom holding `rule` (JSON text as given). */
export function rule(s: Services, json: string, status = "candidate"): Promise<number> {
  return atom(s, `rule ${json}`, { type: "logical_rule", content: json, status });
}

/** Inserts an extracted atom link; returns its id. */
export async function link(s: Services, a: number, b: number, kind: string, confidence = 0.9): Promise<number> {
  const [r] = await sqlOf(
    s,
  )`INSERT INTO pm_atom_link (src_atom_id, dst_atom_id, kind, confidence) VALUES (${a}, ${b}, ${kind}, ${confidence}) RETURNING id`;
  return Number(r.id);
}

/** Edges of `kind` between the given atoms, as "A>B" by name, sorted; `inferred` filters. */
export async function atomEdges(
  s: Services,
  names: Record<string, number>,
  kind: string,
  inferred?: boolean,
): Promise<string[]> {
  const byId = new Map(Object.entries(names).map(([n, id]) => [id, n]));
  const ids = [...byId.keys()];
  const rows = await sqlOf(s)`
    SELECT src_atom_id, dst_atom_id, inferred FROM pm_atom_link
     WHERE kind = ${kind} AND src_atom_id = ANY(${ids}::bigint[]) AND dst_atom_id = ANY(${ids}::bigint[])`;
  return rows
    .filter((r) => inferred === undefined || Boolean(r.inferred) === inferred)
    .map((r) => `${byId.get(Number(r.src_atom_id))}>${byId.get(Number(r.dst_atom_id))}`)
    .sort();
}

/** The transitive closure of `edges` ("A>B"), as "A>B" sorted (self-loops where a node is on a cycle). */
export function closure(edges: string[]): string[] {
  const out = new Map<string, Set<string>>();
  for (const e of edges) {
    const [a, b] = e.split(">");
    if (!out.has(a)) out.set(a, new Set());
    out.get(a)!.add(b);
  }
  const all = new Set<string>();
  for (const start of out.keys()) {
    const seen = new Set<string>();
    const stack = [...out.get(start)!];
    while (stack.length) {
      const n = stack.pop()!;
      if (seen.has(n)) continue;
      seen.add(n);
      all.add(`${start}>${n}`);
      for (const m of out.get(n) ?? []) stack.push(m);
    }
  }
  return [...all].sort();
}
