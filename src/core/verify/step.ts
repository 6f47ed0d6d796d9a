/**
 * One step of memory_verify: one atom against its nearest atoms by embedding. The judge gives a verdict per
 * neighbour; {@link planStep} turns the verdicts into status changes, `contradicts` links and a confidence raise,
 * which the store applies in one transaction (see VerificationStore.applyVerification).
 */
import { mayReplace } from "../../domain/supersession/decide.ts";
import { supersedeFor } from "../knowledge/supersession.ts";
import type { AtomStatus } from "../../domain/atom.ts";
import {
  type WeightedSource,
  confirmedConfidence,
  homeSiteOf,
  sameFactVerdict,
  siteOf,
  siteWeights,
} from "../../domain/evidence.ts";
import { PegasError, toPegasError } from "../../errors.ts";
import type {
  JudgeNeighbour,
  JudgedAtom,
  NeighbourVerdict,
  Verdict,
  VerdictJudge,
} from "../../ports/models/verdict-judge.ts";
import type {
  StatusChangeInput,
  VerificationApplied,
  VerificationWrite,
  VerifySubject,
} from "../../ports/store/verification.ts";
import { atomSearchText } from "../knowledge/atoms.ts";
import type { Services } from "../services.ts";

/** Statuses a neighbour may have (stale and retracted atoms are not evidence). */
export const LIVE_STATUSES: AtomStatus[] = ["candidate", "verified", "contested"];

/** A neighbour with its cosine to the atom and the judge's verdict. */
export interface JudgedNeighbour {
  subject: VerifySubject;
  cosine: number;
  verdict: Verdict;
  reason: string;
}

/**
 * What one step needs: the services, the judge and its fallback for LLM failures (the heuristic judge), k,
 * cancellation and the run's warnings. Atoms are passed to judges with their `sites` (a judge may read them).
 */
export interface StepContext {
  services: Pick<
    Services,
    | "verification"
    | "embeddingStore"
    | "embedder"
    | "judge"
    | "projection"
    | "searchReads"
    | "supersession"
    | "vectorIndex"
  >;
  judge: VerdictJudge;
  fallback: VerdictJudge;
  k: number;
  signal?: AbortSignal;
  warnings: string[];
}

/** Outcome of one step: the verdicts given and what was written (null when the atom was not checked). */
export interface StepOutcome {
  verdicts: Verdict[];
  applied: VerificationApplied | null;
}

const sitesOf = (s: VerifySubject): string[] => [...new Set(s.sources.map(siteOf))];

/** The atom's stored embedding of the current model; an atom without one is embedded now and the vector stored. */
async function vectorOf(ctx: StepContext, s: VerifySubject): Promise<Float32Array> {
  const { embeddingStore, embedder } = ctx.services;
  const stored = (await embeddingStore.embeddingsOf([s.id], embedder.model)).get(s.id);
  if (stored) return stored;
  const [fresh] = await embedder.embedDocuments([atomSearchText(s.claim, s.content)], ctx.signal);
  await embeddingStore.putEmbeddings([{ atomId: s.id, vector: fresh }], embedder.model);
  return fresh;
}

/** The k nearest live atoms by cosine, itself excluded, re-read from the store (the projection may lag). */
async function neighboursOf(
  ctx: StepContext,
  s: VerifySubject,
  vector: Float32Array,
): Promise<Array<{ subject: VerifySubject; cosine: number }>> {
  await ctx.services.projection.sync();
  const hits = (await ctx.services.vectorIndex.search(vector, ctx.k + 1, { status: LIVE_STATUSES }))
    .filter((h) => h.atomId !== s.id)
    .slice(0, ctx.k);
  const cosine = new Map(hits.map((h) => [h.atomId, h.score]));
  const subjects = await ctx.services.verification.verificationSubjects(hits.map((h) => h.atomId));
  return subjects
    .filter((n) => LIVE_STATUSES.includes(n.status))
    .map((n) => ({ subject: n, cosine: cosine.get(n.id) ?? 0 }));
}

/** The configured judge's verdicts; an LLM failure falls back to the heuristic judge for this atom, with a warning. */
async function verdictsFor(
  ctx: StepContext,
  atom: JudgedAtom,
  neighbours: JudgeNeighbour[],
): Promise<NeighbourVerdict[]> {
  if (!neighbours.length) return [];
  try {
    return await ctx.judge.judge(atom, neighbours, ctx.signal);
  } catch (err) {
    const e = toPegasError(err);
    if (e.code !== "LLM_FAILED" || ctx.judge === ctx.fallback) throw e;
    ctx.warnings.push(
      `atom ${atom.id}: judge ${ctx.judge.name} failed (${e.message}); the heuristic judge decided instead`,
    );
    return ctx.fallback.judge(atom, neighbours, ctx.signal);
  }
}

/**
 * Joins verdicts to neighbours by id. A same-fact verdict is made `duplicate` or `corroborates` by the sites; a
 * duplicate of another type (a `definition` and a `fact` of one sentence) is `new`, as dedup keeps types apart.
 */
function joinVerdicts(
  atom: VerifySubject,
  found: Array<{ subject: VerifySubject; cosine: number }>,
  verdicts: NeighbourVerdict[],
  warnings: string[],
): JudgedNeighbour[] {
  const byId = new Map(verdicts.map((v) => [v.id, v]));
  return found.map(({ subject, cosine }) => {
    const v = byId.get(subject.id);
    if (!v) warnings.push(`atom ${atom.id}: the judge gave no verdict on neighbour ${subject.id}; counted as new`);
    let verdict: Verdict = v?.verdict ?? "new";
    let reason = v?.reason ?? "no verdict";
    if (verdict === "duplicate" || verdict === "corroborates")
      verdict = sameFactVerdict(sitesOf(atom), sitesOf(subject));
    if (verdict === "duplicate" && subject.type !== atom.type) {
      verdict = "new";
      reason = `same statement as a ${subject.type} atom, kept as a ${atom.type} (types differ)`;
    } else if (
      (verdict === "duplicate" || verdict === "corroborates") &&
      (atom.keptApart.includes(subject.id) || subject.keptApart.includes(atom.id))
    ) {
      verdict = "new";
      reason = `a merge of atoms ${atom.id} and ${subject.id} was undone: kept apart`;
    } else if (
      verdict === "contradicts" &&
      (atom.notContradicting.includes(subject.id) || subject.notContradicting.includes(atom.id))
    ) {
      verdict = "new";
      reason = `a contradiction between atoms ${atom.id} and ${subject.id} was reverted`;
    } else if (verdict === "contradicts" && mayReplace(subject.content, atom.content)) {
      verdict = "new"; // a newer value of the same property: supersession (core/knowledge/supersession.ts) decides
      reason = `atoms ${atom.id} and ${subject.id} state one property at two times: supersession, not a contradiction`;
    }
    return { subject, cosine, verdict, reason };
  });
}

/**
 * Verifies one atom (see module doc). An atom that is stale or retracted by now is not checked (null `applied`).
 * @throws PegasError CANCELLED, LLM_FAILED (embedding), STORE_UNAVAILABLE, INDEX_UNAVAILABLE.
 */
export async function verifyStep(ctx: StepContext, atomId: number): Promise<StepOutcome> {
  const [subject] = await ctx.services.verification.verificationSubjects([atomId]);
  if (!subject || !LIVE_STATUSES.includes(subject.status)) return { verdicts: [], applied: null };
  const vector = await vectorOf(ctx, subject);
  if (ctx.signal?.aborted) throw new PegasError("CANCELLED", `verification cancelled at atom ${atomId}`);
  const found = await neighboursOf(ctx, subject, vector);
  const sited = (s: VerifySubject) => ({
    id: s.id,
    claim: s.claim,
    content: s.content,
    lang: s.lang,
    sites: sitesOf(s),
  });
  const verdicts = await verdictsFor(
    ctx,
    sited(subject),
    found.map((f) => ({ ...sited(f.subject), cosine: f.cosine })),
  );
  const judged = joinVerdicts(subject, found, verdicts, ctx.warnings);
  const write = { ...planStep(subject, judged), checked: { atomId: subject.id, judge: ctx.services.judge.name } };
  const applied = await ctx.services.verification.applyVerification(write);
  // Atoms stored without a supersession check (an ingest) get it here; most atoms state no property (no query).
  await supersedeFor(ctx.services, subject.id, subject.content);
  return { verdicts: judged.map((j) => j.verdict), applied };
}

/**
 * Turns verdicts into writes (pure):
 * - `duplicate` → the later atom (higher id) `stale`, evidence the earlier; a stale atom gets nothing else;
 * - `contradicts` → both sides `contested` (a candidate or verified one) and a `contradicts` link;
 * - the atom's own evidence plus that of `corroborates` neighbours, grouped by site: two or more independent
 *   sites make a `candidate` `verified`; the noisy-OR of the sites other than its home site raises its confidence.
 */
export function planStep(subject: VerifySubject, judged: JudgedNeighbour[]): VerificationWrite {
  const status = new Map<number, AtomStatus>([
    [subject.id, subject.status],
    ...judged.map((j) => [j.subject.id, j.subject.status] as [number, AtomStatus]),
  ]);
  const changes: StatusChangeInput[] = [];
  const change = (atomId: number, to: AtomStatus, reason: string, evidence: number[]) => {
    const from = status.get(atomId)!;
    if (from === to) return;
    changes.push({ atomId, from, to, reason, evidence });
    status.set(atomId, to);
  };
  for (const j of judged.filter((x) => x.verdict === "duplicate")) {
    const [earlier, later] = subject.id < j.subject.id ? [subject.id, j.subject.id] : [j.subject.id, subject.id];
    if (status.get(later) !== "stale") change(later, "stale", `duplicate of atom ${earlier}: ${j.reason}`, [earlier]);
  }
  const write: VerificationWrite = { actor: "verify", changes, links: [], confidence: [] };
  if (status.get(subject.id) === "stale") return write;
  for (const j of judged.filter((x) => x.verdict === "contradicts")) {
    for (const [a, b] of [
      [subject.id, j.subject.id],
      [j.subject.id, subject.id],
    ]) {
      const s = status.get(a);
      if (s === "candidate" || s === "verified") change(a, "contested", `contradicts atom ${b}: ${j.reason}`, [b]);
    }
    write.links.push({
      src: subject.id,
      dst: j.subject.id,
      kind: "contradicts",
      confidence: Math.min(1, Math.max(0, j.cosine)),
    });
  }
  const corroborating = judged.filter((j) => j.verdict === "corroborates");
  const sources: WeightedSource[] = [
    ...subject.sources.map((s) => ({ ...s, agreement: 1 })),
    ...corroborating.flatMap((j) => j.subject.sources.map((s) => ({ ...s, agreement: j.cosine }))),
  ];
  const sites = siteWeights(sources);
  if (sites.length >= 2 && status.get(subject.id) === "candidate") {
    const names = sites.map((s) => s.site).join(", ");
    change(
      subject.id,
      "verified",
      `confirmed by ${sites.length} independent sites: ${names}`,
      corroborating.map((j) => j.subject.id),
    );
  }
  const value = confirmedConfidence(subject.prior, sites, homeSiteOf(subject.docId, subject.sources));
  if (value > subject.confidence + 1e-6) write.confidence.push({ atomId: subject.id, value });
  return write;
}
