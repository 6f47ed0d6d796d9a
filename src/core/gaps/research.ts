/**
 * The research runner (issue 7, item 7): takes open gaps, most urgent first (or one gap), asks a web search backend
 * (a SearxNG-compatible JSON API, adapters/search/searxng.ts) with the gap's question, ingests the top results
 * through URL ingest — a page that is blocked or unfetchable, or yields no text, is stored as the result's snippet
 * (a `snippet` web document, authority 0.3) — verifies what was ingested (cross-confirmation: a fact two distinct
 * sites state becomes `verified`), then checks the gap (core/gaps/answer.ts): answered, or left open with what was
 * tried appended to `metadata.attempts`. Bounded by `maxUrls` (over the whole run) and `budgetS` (wall clock: no
 * search or fetch starts after the deadline and the one in flight is aborted; what was already fetched is still
 * verified and checked, which the bound does not cover); cancellable (what was stored stays, the attempt is recorded).
 * Progress (domain/progress.ts) is one strictly increasing count: one unit for choosing the gaps, then
 * {@link GAP_UNITS} per gap split over its search, the ingest of each result, the verification and the check.
 */
import { type ProgressFn, ProgressReporter, type ProgressSpan } from "../../domain/progress.ts";
import { PegasError, invalidInput, toPegasError } from "../../errors.ts";
import type { WebSearch, WebSearchResult } from "../../ports/models/web-search.ts";
import type { GapRow } from "../../ports/store/gaps.ts";
import { checkGaps } from "./answer.ts";
import { ingest, type IngestServices } from "../documents/ingest.ts";
import { verifyAtoms } from "../verify/verify.ts";

/** What research runs on: an ingest, memory_verify and the gap checks, each whole. */
export type ResearchServices = IngestServices & Parameters<typeof verifyAtoms>[0] & Parameters<typeof checkGaps>[0];

/** Input: one gap (`gapId`) or the open ones by priority (at most `maxGaps`); bounds on URLs and seconds. */
export interface ResearchInput {
  gapId?: number;
  /** URLs fetched over the whole run (default 8, 1..100). */
  maxUrls?: number;
  /** Wall-clock budget of the run in seconds (default 120, 1..3600). */
  budgetS?: number;
  /** Open gaps taken when no `gapId` is given (default 5). */
  maxGaps?: number;
  /** Search results taken per gap (default 5), within `maxUrls`. */
  perGap?: number;
  signal?: AbortSignal;
  /** Progress (the CLI draws it on stderr): strictly increasing, `total` once the gaps are chosen, a message. */
  onProgress?: ProgressFn;
  /** Least time between two progress notifications that are not phase changes (ms; default 500). */
  progressEveryMs?: number;
}

/** Progress units of one gap. */
export const GAP_UNITS = 1000;
/** Weights of a gap's phases in its progress units. */
const GAP_PHASES = { search: 5, ingest: 70, verify: 15, check: 10 } as const;

/** What happened to one search result: ingested as a `page`, as its `snippet`, `failed`, or `skipped` (budget). */
export interface ResearchSource {
  url: string;
  outcome: "page" | "snippet" | "failed" | "skipped";
  doc_id: number | null;
  atoms_created: number;
  error?: string;
}

/** One gap's research: its status after, the answering atoms, the sources tried, the search error if any. */
export interface ResearchGapResult {
  gap_id: number;
  question: string;
  status: "answered" | "open";
  answered_by: number[];
  decided_by: string | null;
  sources: ResearchSource[];
  verified_atoms: number;
  search_error?: string;
}

/** Summary of a run. */
export interface ResearchResult {
  backend: string;
  gaps: ResearchGapResult[];
  answered: number;
  /** URLs tried: fetched, or refused and stored as their snippet, or failed (the `max_urls` budget counts these). */
  urls_fetched: number;
  budget_exhausted: boolean;
  took_ms: number;
  warnings: string[];
}

function bounded(v: number | undefined, dflt: number, min: number, max: number, name: string): number {
  if (v === undefined) return dflt;
  if (!Number.isInteger(v) || v < min || v > max)
    throw invalidInput(`${name} must be an integer from ${min} to ${max}, got ${JSON.stringify(v)}`);
  return v;
}

/** Run-wide state: limits, the deadline and its signal, counters. */
interface Run {
  services: ResearchServices;
  web: WebSearch;
  maxUrls: number;
  perGap: number;
  deadline: number;
  stop: AbortSignal;
  user?: AbortSignal;
  urls: number;
  budgetExhausted: boolean;
  warnings: string[];
}

function outOfBudget(run: Run): boolean {
  if (Date.now() >= run.deadline || run.urls >= run.maxUrls) run.budgetExhausted = true;
  return run.budgetExhausted;
}

function checkCancelled(run: Run): void {
  if (run.user?.aborted)
    throw new PegasError(
      "CANCELLED",
      "research cancelled; what was ingested stays, the attempt is recorded in the gap",
    );
}

/** Ingests one result: the page, or its snippet when the page is blocked or empty (URL ingest decides). */
async function ingestResult(run: Run, r: WebSearchResult, progress: ProgressSpan): Promise<ResearchSource> {
  run.urls++;
  progress.start(`fetching ${r.url}`);
  try {
    const res = await ingest(
      run.services,
      { url: r.url, snippet: r.content || undefined, title: r.title || undefined },
      { signal: run.stop, progress },
    );
    const d = res.documents[0];
    if (!d?.stored)
      return {
        url: r.url,
        outcome: "failed",
        doc_id: null,
        atoms_created: 0,
        error: d?.warnings.join("; ") || "nothing could be extracted",
      };
    return { url: r.url, outcome: d.snippet ? "snippet" : "page", doc_id: d.doc_id, atoms_created: d.atoms_created };
  } catch (err) {
    const e = toPegasError(err);
    checkCancelled(run);
    if (e.code === "CANCELLED") run.budgetExhausted = true; // the deadline aborted the fetch
    return { url: r.url, outcome: "failed", doc_id: null, atoms_created: 0, error: `${e.code}: ${e.userMessage}` };
  }
}

/** Verifies the atoms of the ingested documents; returns how many became `verified`. */
async function verifyDocs(run: Run, docIds: number[], progress: ProgressSpan): Promise<number> {
  let verified = 0;
  const docs = [...new Set(docIds)];
  for (const [i, docId] of docs.entries()) {
    checkCancelled(run);
    const part = progress.part(i, docs.length);
    const v = await verifyAtoms(run.services, {
      doc_id: docId,
      limit: 1000,
      signal: run.user,
      onProgress: (done, total, m) => part.at(done, total, m),
    });
    verified += v.changes.filter((c) => c.to === "verified").length;
    run.warnings.push(...v.warnings.filter((w) => !w.includes("more atom(s) of this selection")));
  }
  return verified;
}

async function researchGap(run: Run, gap: GapRow, progress: ProgressSpan): Promise<ResearchGapResult> {
  const phases = progress.split(GAP_PHASES);
  const out: ResearchGapResult = {
    gap_id: gap.id,
    question: gap.question,
    status: "open",
    answered_by: [],
    decided_by: null,
    sources: [],
    verified_atoms: 0,
  };
  phases.search.start(`gap ${gap.id} (priority ${gap.priority}): searching ${run.web.name} for «${gap.question}»`);
  let results: WebSearchResult[] = [];
  try {
    results = await run.web.search(gap.question, run.perGap, run.stop);
  } catch (err) {
    checkCancelled(run);
    out.search_error = toPegasError(err).message;
  }
  try {
    for (const [i, r] of results.entries()) {
      if (outOfBudget(run)) out.sources.push({ url: r.url, outcome: "skipped", doc_id: null, atoms_created: 0 });
      else out.sources.push(await ingestResult(run, r, phases.ingest.part(i, results.length)));
    }
    const docIds = out.sources.flatMap((s) => (s.doc_id !== null ? [s.doc_id] : []));
    if (docIds.length) {
      phases.verify.start(`gap ${gap.id}: verifying ${docIds.length} document(s)`);
      out.verified_atoms = await verifyDocs(run, docIds, phases.verify);
    }
    phases.check.start(`gap ${gap.id}: checking whether it is answered`);
    const check = await checkGaps(run.services, { gapIds: [gap.id], signal: run.user });
    run.warnings.push(...check.warnings);
    const after = await run.services.gaps.getGap(gap.id);
    if (after.status === "answered") {
      const ev = after.metadata.answer as { atom_ids?: number[]; decided_by?: string } | undefined;
      Object.assign(out, { status: "answered", answered_by: ev?.atom_ids ?? [], decided_by: ev?.decided_by ?? null });
    }
  } finally {
    if (out.status === "open")
      await recordAttempt(run, out).catch((e) =>
        run.warnings.push(`gap ${gap.id}: attempt not recorded: ${toPegasError(e).message}`),
      );
  }
  phases.check.end(
    `gap ${gap.id}: ${out.status}${out.answered_by.length ? ` by atom(s) ${out.answered_by.join(", ")}` : ""}`,
  );
  return out;
}

/** Appends what was tried to an open gap's `metadata.attempts`. */
function recordAttempt(run: Run, r: ResearchGapResult): Promise<GapRow> {
  const attempt = {
    at: new Date().toISOString(),
    backend: run.web.name,
    query: r.question,
    verified_atoms: r.verified_atoms,
    sources: r.sources.map((s) => ({
      url: s.url,
      outcome: s.outcome,
      doc_id: s.doc_id,
      ...(s.error ? { error: s.error.slice(0, 300) } : {}),
    })),
    ...(r.search_error ? { search_error: r.search_error } : {}),
    ...(run.budgetExhausted ? { budget_exhausted: true } : {}),
  };
  return run.services.gaps.updateGap(r.gap_id, { appendAttempt: attempt });
}

/**
 * Runs the research loop (module doc) with `web` as the search backend.
 * @throws PegasError INVALID_INPUT (bad bounds; `gapId` not open), NOT_FOUND (unknown gap), CANCELLED (the gaps done
 * before stay done, the current one's attempt is recorded), STORE_UNAVAILABLE.
 */
export async function research(
  services: ResearchServices,
  web: WebSearch,
  input: ResearchInput = {},
): Promise<ResearchResult> {
  const started = Date.now();
  const reporter = new ProgressReporter(input.onProgress, input.progressEveryMs ?? 500);
  reporter.report(0, "choosing the gaps to research", true);
  const maxUrls = bounded(input.maxUrls, 8, 1, 100, "max-urls");
  const budgetS = bounded(input.budgetS, 120, 1, 3600, "budget-s");
  const maxGaps = bounded(input.maxGaps, 5, 1, 100, "max-gaps");
  const perGap = bounded(input.perGap, 5, 1, 20, "per-gap");
  let gaps: GapRow[];
  if (input.gapId !== undefined) {
    const g = await services.gaps.getGap(bounded(input.gapId, 0, 1, Number.MAX_SAFE_INTEGER, "gap"));
    if (g.status !== "open")
      throw invalidInput(`gap ${g.id} is ${g.status}, not open`, "give an open gap (pegas-memory gaps lists them)");
    gaps = [g];
  } else gaps = (await services.gaps.listGaps("open", maxGaps)).gaps;
  reporter.setTotal(1 + gaps.length * GAP_UNITS);
  const span = reporter.span(1, 1 + gaps.length * GAP_UNITS);
  span.start(`${gaps.length} open gap(s) to research`);
  const deadline = started + budgetS * 1000;
  const timer = AbortSignal.timeout(budgetS * 1000);
  const run: Run = {
    services,
    web,
    maxUrls,
    perGap,
    deadline,
    stop: input.signal ? AbortSignal.any([input.signal, timer]) : timer,
    user: input.signal,
    urls: 0,
    budgetExhausted: false,
    warnings: [],
  };
  const results: ResearchGapResult[] = [];
  for (const [i, gap] of gaps.entries()) {
    checkCancelled(run);
    if (outOfBudget(run)) break;
    results.push(await researchGap(run, gap, span.part(i, gaps.length)));
  }
  const answered = results.filter((r) => r.status === "answered").length;
  span.end(`done: ${answered} of ${results.length} gap(s) answered`);
  return {
    backend: web.name,
    gaps: results,
    answered,
    urls_fetched: run.urls,
    budget_exhausted: run.budgetExhausted,
    took_ms: Date.now() - started,
    warnings: [...new Set(run.warnings)].slice(0, 100),
  };
}
