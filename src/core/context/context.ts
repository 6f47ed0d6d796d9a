/**
 * memory_get_context: what the agent should read before answering a question, packed to a token budget.
 *
 * 1. Hybrid search for the question (k hits; candidate, verified and contested atoms; read deeper, see fillDepth).
 * 2. Graph expansion: the neighbourhood of each hit (1–2 hops, every edge kind but `contradicts`), ranked by the
 *    strength of the path that reached it (hit score × link confidences), adds up to k more atoms.
 * 3. Deduplication by atom and claim; `contradicts` marks an atom contested (with its opponent), low confidence too.
 * 4. Packing: items in rank order, each rendered as one Markdown line with its numbered citations showing the
 *    sentences of the atom that answer (search/snippet.ts: longer at larger budgets, down to one sentence cut
 *    short), added while both forms a client may hand the model — the block, and the JSON of the concise structured
 *    content — stay within `budget_tokens`; both are counted again at the end with the tokenizer. A last line says
 *    what was left out and how to get it (a larger budget, or memory_get of an atom).
 *
 * Tokens are counted with gpt-tokenizer's `o200k_base` encoding (the BPE of OpenAI's GPT-4o family): a well-kept
 * library, exact for that family and a close estimate for other models' BPE vocabularies.
 */
import { invalidInput, PegasError } from "../../errors.ts";
import type { Candidate, ContextCitation, ContextInput, ContextItem, ContextResult } from "./types.ts";
import {
  CITATIONS_PER_ATOM,
  citationKey,
  citationLine,
  compose,
  conciseCitation,
  conciseContext,
  itemBody,
  jsonEscaped,
  leftOutLine,
  renderItem,
} from "./render.ts";
import type { GraphEdge, Subgraph } from "../../ports/projections/graph-store.ts";
import { search } from "../search/search.ts";
import { readAsOf } from "../search/as-of.ts";
import { queryTerms, termWeights, textUnits } from "../search/snippet.ts";
import type { Services } from "../services.ts";
import { explainedConfidences } from "../knowledge/confidence.ts";

export type { ContextCitation, ContextInput, ContextItem, ContextResult, Opponent } from "./types.ts";
export { conciseContext } from "./render.ts";

/** Defaults and bounds of the inputs. */
export const CONTEXT_LIMITS = {
  budget: { min: 100, max: 32_000, default: 2000 },
  k: { min: 1, max: 30, default: 8 },
  hops: { min: 0, max: 2, default: 1 },
} as const;
/** The tokenizer the counts come from. */
export const TOKENIZER = "o200k_base (gpt-tokenizer)";
/** Neighbours read around one hit. */
const NEIGHBOURS_PER_HIT = 25;
/** Statuses context shows (as search's default: stale and retracted atoms never). */
const SHOWN = new Set(["candidate", "verified", "contested"]);

/** Tokens a short hit costs at least in the concise JSON (its line, one source line and citation entry). */
const TOKENS_PER_FILLER = 40;

/**
 * How many search hits to read: the `k` that rank first, and below them as many more as the budget could hold if
 * every hit were short ({@link TOKENS_PER_FILLER}; at most 50, search's cap), so that a budget the first hits and
 * their links leave unspent holds the next-ranked hits (packing stops at the budget; rank order is kept).
 */
export function fillDepth(k: number, budget: number): number {
  return Math.min(50, Math.max(k, Math.floor(budget / TOKENS_PER_FILLER)));
}

type Counter = (text: string) => number;
let counter: Promise<Counter> | null = null;

/** The token counter, loaded on first use (its BPE ranks are a few MB). */
export function tokenCounter(): Promise<Counter> {
  counter ??= import("gpt-tokenizer/encoding/o200k_base").then((m) => (text: string) => m.countTokens(text));
  return counter;
}

function bounded(v: number | undefined, name: keyof typeof CONTEXT_LIMITS, label: string): number {
  const { min, max, default: d } = CONTEXT_LIMITS[name];
  const n = v ?? d;
  if (!Number.isInteger(n) || n < min || n > max)
    throw invalidInput(`${label} must be an integer from ${min} to ${max}, got ${JSON.stringify(v)}`);
  return n;
}

/** Atoms reached over links from the hits, strongest path first; `contradicts` edges are collected apart. */
async function expand(
  s: Pick<Services, "graph">,
  hits: Candidate[],
  hops: number,
  signal?: AbortSignal,
): Promise<{ reached: Candidate[]; contradicts: GraphEdge[]; degraded?: string }> {
  const reached = new Map<number, Candidate>();
  const contradicts = new Map<string, GraphEdge>();
  let degraded: string | undefined;
  const seeds = new Set(hits.map((h) => h.atomId));
  for (const hit of hits) {
    if (signal?.aborted) throw new PegasError("CANCELLED", "memory_get_context was cancelled");
    let g: Subgraph;
    try {
      g = await s.graph.neighbours({
        node: `atom:${hit.atomId}`,
        depth: Math.max(1, hops),
        direction: "both",
        limit: NEIGHBOURS_PER_HIT,
      });
    } catch (err) {
      if (err instanceof PegasError && err.code === "NOT_FOUND") continue; // retracted meanwhile
      throw err;
    }
    degraded ??= g.degraded;
    for (const e of g.edges) if (e.kind === "contradicts") contradicts.set(e.key, e);
    if (hops === 0) continue;
    // Strongest path from the hit to each reached atom over non-contradicts edges (BFS layers, best product).
    const strength = new Map<string, { value: number; kind: string; hops: number }>([
      [`atom:${hit.atomId}`, { value: 1, kind: "", hops: 0 }],
    ]);
    for (let layer = 1; layer <= hops; layer++) {
      for (const e of g.edges) {
        if (e.kind === "contradicts") continue;
        for (const [from, to] of [
          [e.src, e.dst],
          [e.dst, e.src],
        ]) {
          const at = strength.get(from);
          if (!at || at.hops !== layer - 1) continue;
          const value = at.value * e.confidence;
          const prev = strength.get(to);
          if (!prev || (prev.hops === layer && prev.value < value))
            strength.set(to, { value, kind: at.hops === 0 ? e.kind : at.kind, hops: layer });
        }
      }
    }
    for (const n of g.nodes) {
      if (n.label !== "Atom") continue;
      const id = Number(n.props.atom_id);
      const st = strength.get(n.id);
      if (!st || st.hops === 0 || seeds.has(id) || !SHOWN.has(String(n.props.status))) continue;
      const score = hit.score * st.value * 0.5 ** st.hops;
      const prev = reached.get(id);
      if (!prev || prev.score < score)
        reached.set(id, {
          atomId: id,
          source: "graph",
          score,
          via: { atom_id: hit.atomId, kind: st.kind, hops: st.hops },
        });
    }
  }
  return {
    reached: [...reached.values()].sort((a, b) => b.score - a.score || a.atomId - b.atomId),
    contradicts: [...contradicts.values()],
    degraded,
  };
}

/**
 * Assembles the context for `input.question` (see the module comment).
 * @throws PegasError INVALID_INPUT (empty question, bounds), CANCELLED, STORE_UNAVAILABLE, LLM_FAILED (query embedding).
 */
export async function getContext(
  s: Parameters<typeof search>[0] & Pick<Services, "atomReads" | "graph" | "confidence">,
  input: ContextInput,
  signal?: AbortSignal,
): Promise<ContextResult> {
  const budget = bounded(input.budget_tokens, "budget", "budget_tokens");
  const k = bounded(input.k, "k", "k");
  const hops = bounded(input.hops, "hops", "hops");
  const count = await tokenCounter();
  const asOf = readAsOf(input);
  const at = asOf ? { valid_at: input.valid_at, known_at: input.known_at } : {};
  const found = await search(s, { query: input.question, k: fillDepth(k, budget), ...at }, signal);
  const question = found.query;
  const ranked = found.hits.map((h): Candidate => ({ atomId: h.atom_id, source: "search", score: h.score, via: null }));
  const hits = ranked.slice(0, k);
  const filler = ranked.slice(k);
  const expansion = hits.length
    ? await expand(s, hits, hops, signal)
    : { reached: [], contradicts: [] as GraphEdge[], degraded: undefined };
  const reached = expansion.reached.slice(0, k);
  const held = asOf
    ? new Set(
        await s.supersession.filterAsOf(
          reached.map((c) => c.atomId),
          asOf,
        ),
      )
    : null;
  const candidates = [...hits, ...(held ? reached.filter((c) => held.has(c.atomId)) : reached), ...filler];

  // Opponents: both ends of every `contradicts` edge seen, for the atoms shown.
  const opponentIds = new Map<number, Set<number>>();
  for (const e of expansion.contradicts) {
    const a = Number(e.src.slice(5));
    const b = Number(e.dst.slice(5));
    if (!e.src.startsWith("atom:") || !e.dst.startsWith("atom:")) continue;
    (opponentIds.get(a) ?? opponentIds.set(a, new Set()).get(a)!).add(b);
    (opponentIds.get(b) ?? opponentIds.set(b, new Set()).get(b)!).add(a);
  }
  const wanted = [
    ...new Set([...candidates.map((c) => c.atomId), ...[...opponentIds.values()].flatMap((x) => [...x])]),
  ];
  const read = await Promise.all([s.atomReads.atomsByIds(wanted, CITATIONS_PER_ATOM), explainedConfidences(s, wanted)]);
  const atoms = new Map(read[0].map((a) => [a.id, a]));
  const confidence = read[1];

  const terms = queryTerms(question);
  const weights = termWeights(
    terms,
    candidates.flatMap((c) => {
      const a = atoms.get(c.atomId);
      return a ? [textUnits(a.content || a.claim)] : [];
    }),
  );
  const citations: ContextCitation[] = [];
  const citationNo = new Map<string, number>();
  const items: ContextItem[] = [];
  const lines: string[] = [];
  const seen = new Set<string>();
  const omittedIds: number[] = [];
  const degraded = found.degraded ?? expansion.degraded;
  // Counted as the JSON of the concise structured content, the larger of the two forms: the wrapper, the sources
  // heading, and room for the left-out line at its longest; then each line and each new source (its line and its
  // entry in `citations`).
  const json = (t: string) => count(jsonEscaped(t));
  const named = budget < 300 ? 1 : budget < 1000 ? 3 : 5; // atom ids the left-out line names
  let used =
    count(JSON.stringify(conciseContext({ markdown: "", citations: [], degraded }))) +
    json("\nSources:\n") +
    json(`\n${leftOutLine(Array(named + 1).fill(1e9), true, named)}`);
  const lengths = [Math.min(1200, Math.max(240, Math.round(budget * 0.7))), 240, 120, 70];
  for (const c of candidates) {
    const atom = atoms.get(c.atomId);
    if (!atom || !(SHOWN.has(atom.status) || (asOf && atom.status === "superseded"))) continue;
    const claimKey = atom.claim.replace(/\s+/g, " ").trim().toLowerCase();
    if (seen.has(claimKey)) continue;
    let taken: { r: ReturnType<typeof renderItem>; cost: number } | null = null;
    for (const max of lengths) {
      const body = itemBody(atom, terms, weights, max);
      if (seen.has(body.text)) break;
      const r = renderItem(atom, c, body, opponentIds, atoms, citationNo, citations.length, confidence.get(atom.id));
      const all = [...citations, ...r.newCitations];
      const cost =
        json(r.text) +
        r.newCitations.reduce(
          (n, cit) => n + json(citationLine(cit, all)) + count(JSON.stringify(conciseCitation(cit))) + 1,
          0,
        );
      if (used + cost <= budget) {
        taken = { r, cost };
        break;
      }
    }
    if (!taken) {
      omittedIds.push(atom.id);
      continue;
    }
    used += taken.cost;
    seen.add(claimKey);
    seen.add(taken.r.item.shown);
    for (const cit of taken.r.newCitations) {
      citations.push(cit);
      citationNo.set(citationKey(cit), cit.n);
    }
    lines.push(taken.r.text);
    items.push({ ...taken.r.item, tokens: taken.cost });
  }
  const block = () => {
    const keep = new Set(items.flatMap((i) => i.citations));
    const cited = citations.filter((c) => keep.has(c.n));
    const markdown = compose(
      lines,
      cited,
      omittedIds,
      items.some((i) => i.cut),
      named,
    );
    return {
      markdown,
      cited,
      cost: Math.max(count(markdown), count(JSON.stringify(conciseContext({ markdown, citations: cited, degraded })))),
    };
  };
  // BPE merges across joins can differ from the sum of parts: drop items from the end until both forms fit.
  let b = block();
  while (b.cost > budget && items.length) {
    omittedIds.push(items.pop()!.atom_id);
    lines.pop();
    b = block();
  }
  return {
    question,
    markdown: b.markdown,
    items,
    citations: b.cited,
    budget_tokens: budget,
    used_tokens: b.cost,
    tokenizer: TOKENIZER,
    omitted: omittedIds.length,
    ...(degraded ? { degraded } : {}),
  };
}
