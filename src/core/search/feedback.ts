/**
 * Pseudo-relevance feedback for the lexical leg (RM3: Lavrenko & Croft, 2001, "Relevance-Based Language Models";
 * Abdul-Jaleel et al., 2004): the best-ranked atoms of a first BM25 pass are taken as relevant, their lexemes
 * weighted by how often each occurs in them and by how well each atom scored, and the strongest terms join the query
 * (interpolated with the original terms) for a second pass.
 */
import type { AtomFilter } from "../../domain/atom.ts";
import type { LexemeTf } from "../../domain/tsvector.ts";
import type { Services } from "../services.ts";

/** RM3 parameters: atoms taken as relevant, expansion terms kept, weight of the original query (0..1). */
export interface FeedbackParams {
  docs: number;
  terms: number;
  originalWeight: number;
}

/**
 * The parameters in use, tuned on the SciFact tune half (bench/notes.md): 10 atoms, 30 terms, original query 0.9
 * (Anserini's defaults 10 / 10 / 0.5 lowered nDCG@10 by 0.045 there).
 */
export const FEEDBACK: FeedbackParams = {
  docs: 10,
  terms: 30,
  originalWeight: 0.9,
};

/**
 * A second BM25 pass with the query expanded from the first pass's best atoms (their indexed lexemes, one read);
 * the first pass's hits when it found nothing or feedback is off (`docs` 0).
 * @throws PegasError STORE_UNAVAILABLE from the lexeme read.
 */
export async function withFeedback(
  services: Pick<Services, "projection" | "searchReads">,
  query: LexemeTf[],
  first: Array<{ atomId: number; score: number }>,
  depth: number,
  filter: AtomFilter,
  params: FeedbackParams = FEEDBACK,
): Promise<Array<{ atomId: number; score: number }>> {
  if (params.docs <= 0 || first.length === 0) return first;
  const top = first.slice(0, params.docs);
  const positions = await services.searchReads.lexemePositions(top.map((h) => h.atomId));
  const feedback = top.map((h) => ({
    lexemes: [...(positions.get(h.atomId) ?? new Map<string, number[]>())].map(([lexeme, p]) => ({
      lexeme,
      tf: Math.max(1, p.length),
    })),
    score: h.score,
  }));
  return services.projection.lexical(expandQuery(query, feedback, params), depth, filter);
}

/**
 * The expanded query: original lexemes (weights normalised to sum 1) × `originalWeight` plus the relevance model's
 * top `terms` lexemes × (1 − `originalWeight`), each weight scaled so the strongest original term keeps its count.
 * `feedback` holds the lexemes of each feedback atom with its first-pass score (best first).
 */
export function expandQuery(
  query: LexemeTf[],
  feedback: Array<{ lexemes: LexemeTf[]; score: number }>,
  params: FeedbackParams,
): LexemeTf[] {
  const fb = feedback.slice(0, params.docs).filter((f) => f.lexemes.length && f.score > 0);
  if (fb.length === 0 || query.length === 0) return query;
  const total = fb.reduce((s, f) => s + f.score, 0);
  const model = new Map<string, number>();
  for (const f of fb) {
    const len = f.lexemes.reduce((s, l) => s + l.tf, 0);
    for (const l of f.lexemes) model.set(l.lexeme, (model.get(l.lexeme) ?? 0) + (l.tf / len) * (f.score / total));
  }
  const top = [...model].sort((a, b) => b[1] - a[1]).slice(0, params.terms);
  const topSum = top.reduce((s, [, w]) => s + w, 0) || 1;
  const qSum = query.reduce((s, l) => s + l.tf, 0);
  const weights = new Map<string, number>();
  for (const l of query) weights.set(l.lexeme, (weights.get(l.lexeme) ?? 0) + (params.originalWeight * l.tf) / qSum);
  for (const [t, w] of top) weights.set(t, (weights.get(t) ?? 0) + ((1 - params.originalWeight) * w) / topSum);
  const scale = qSum / params.originalWeight;
  return [...weights].map(([lexeme, w]) => ({ lexeme, tf: w * scale }));
}
