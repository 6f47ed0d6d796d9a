/**
 * Unknown tool arguments: which names a call gave that its tool does not take, and the nearest name it does take,
 * so that the refusal tells a model how to call again (the MCP 2025-11-25 advice: input errors are tool results a
 * model can correct, not protocol errors). "Nearest" is a known synonym first (`limit` for `k`, `q` for `query`),
 * then the same name in another spelling (`atomId`, `atom-id`), then the smallest optimal-string-alignment distance
 * (Damerau–Levenshtein with adjacent transpositions) within a third of the name's length.
 */

/**
 * Names callers use for one meaning, the tools' own name among them. A name is suggested for an unknown argument in
 * its group only when the tool takes it.
 */
const SYNONYMS: readonly (readonly string[])[] = [
  ["k", "limit", "top_k", "topk", "n", "count", "max_results", "num_results", "size", "top", "max_hits", "max_links"],
  ["query", "q", "question", "search", "search_query", "prompt", "keywords", "term"],
  ["atom_id", "id", "atom", "atomid"],
  ["atom_ids", "ids", "atoms"],
  ["doc_id", "document_id", "doc", "document", "docid", "doc_ids", "document_ids"],
  ["cursor", "offset", "page", "skip", "after", "next_cursor", "page_token", "links_offset"],
  ["types", "type", "atom_type", "atom_types"],
  ["kinds", "kind", "relation", "relations", "edge_kinds", "link_kind"],
  ["languages", "language", "lang", "langs"],
  ["budget_tokens", "max_tokens", "budget", "tokens", "token_budget", "max_budget"],
  ["hops", "depth", "max_depth", "max_hops"],
  ["url", "uri", "link", "href", "source_url", "source_uri", "source"],
  ["text", "content", "body", "data", "document_text"],
  ["claim", "statement", "fact", "summary"],
  ["src", "from", "source_id", "from_id", "subject"],
  ["dst", "to", "target", "target_id", "to_id", "object"],
  ["response_format", "format", "verbosity", "detail", "detailed", "verbose"],
  ["rule_ids", "rules", "rule", "rule_id"],
  ["status", "state", "statuses"],
  ["title", "name"],
  ["path", "file", "filepath", "file_path", "dir", "directory"],
  ["session", "session_id", "sessionid"],
];

/** A name with case, `-` and `_` ignored: `atomId`, `atom-id` and `atom_id` are one spelling. */
const spelling = (name: string): string => name.toLowerCase().replace(/[-_\s]/g, "");

/** Optimal string alignment distance (Levenshtein with adjacent transpositions) between `a` and `b`, in code units. */
export function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0][j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.length][b.length];
}

/** Longest unknown name compared by edit distance (longer ones get no suggestion: the table would be large). */
const MAX_COMPARED = 64;

/**
 * The name of `allowed` a caller most likely meant by `name`, or undefined when none is near: a synonym
 * ({@link SYNONYMS}), the same spelling, or the nearest name by {@link editDistance} when it is at most
 * max(1, ⌊length/3⌋) edits away (ties: the earlier name of `allowed`).
 */
export function nearestName(name: string, allowed: readonly string[]): string | undefined {
  const key = spelling(name);
  for (const group of SYNONYMS) {
    if (!group.some((g) => spelling(g) === key)) continue;
    const hit = group.find((g) => allowed.includes(g));
    if (hit) return hit;
  }
  const same = allowed.find((a) => spelling(a) === key);
  if (same || name.length > MAX_COMPARED) return same;
  let best: string | undefined;
  let bestDistance = Math.max(1, Math.floor(name.length / 3)) + 1;
  for (const a of allowed) {
    const d = editDistance(key, spelling(a));
    if (d < bestDistance) [best, bestDistance] = [a, d];
  }
  return best;
}

/** Most unknown names quoted in one refusal (a model rarely needs more to correct a call). */
const MAX_NAMED = 5;
/** Longest unknown name quoted as given (longer ones are cut, with "…"). */
const MAX_QUOTED = 40;

const quote = (name: string): string =>
  `'${[...name].length > MAX_QUOTED ? `${[...name].slice(0, MAX_QUOTED).join("")}…` : name}'`;

/**
 * The refusal of a call whose `args` hold names not in `allowed` (the tool's input fields, in schema order), or null
 * when every name is allowed. One unknown name: "unknown argument 'limit'; did you mean 'k'? allowed: query, k, …";
 * several: "unknown arguments 'limit' (did you mean 'k'?), 'x'; allowed: …"; a tool without arguments says so.
 */
export function unknownArgumentsMessage(args: Record<string, unknown>, allowed: readonly string[]): string | null {
  const unknown = Object.keys(args).filter((k) => !allowed.includes(k));
  if (!unknown.length) return null;
  const tail = allowed.length ? `allowed: ${allowed.join(", ")}` : "this tool takes no arguments";
  if (unknown.length === 1) {
    const near = nearestName(unknown[0], allowed);
    return `unknown argument ${quote(unknown[0])}; ${near ? `did you mean '${near}'? ` : ""}${tail}`;
  }
  const named = unknown.slice(0, MAX_NAMED).map((u) => {
    const near = nearestName(u, allowed);
    return near ? `${quote(u)} (did you mean '${near}'?)` : quote(u);
  });
  const more = unknown.length > MAX_NAMED ? ` and ${unknown.length - MAX_NAMED} more` : "";
  return `unknown arguments ${named.join(", ")}${more}; ${tail}`;
}
