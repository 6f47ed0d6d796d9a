/**
 * Questions about time rank dated evidence (issue 22). For a question that asks when (domain/time/when-question.ts)
 * the atoms among the best {@link WINDOW} fused candidates that have an event time form one more reciprocal-rank-
 * fusion leg, `dated`, in their fused order and with weight {@link DATED_WEIGHT}: a dated atom gains what one more
 * ranker's vote would give it. A question that names a date ("in the week before 16 November 2023", «в марте 2024
 * года», "as mentioned on November 6, 2023") puts in that leg only the atoms whose event time falls near it (the
 * named period widened by {@link MARGIN_DAYS}) or that were said within it (observed_at, a day's slack for time
 * zones). Any other question is returned untouched, so it ranks exactly as without this hook. An atom lifted for
 * its event time (read from its text, so noisier, and in an encyclopaedic corpus nearly every passage has one) must
 * also score at least {@link MIN_RELEVANCE} of the best lexical score; one said within the named period (its
 * source's date, given by the client or the document) needs no such floor. Measured together: XQuAD-ru nDCG@10
 * 0.9435 with no floor on named periods, 0.9509 with it on both kinds or on event times only; LoCoMo dev search
 * recall@10 72.1 with it on both kinds (temporal 80.9), 73.8 with it on event times only (temporal 84.1).
 *
 * A named period is a constraint the question states outright, and such a question often shares few words with
 * its answer beyond a name ("What did Joanna accomplish in January 2022?" ↔ "Joanna: I finally finished my first
 * screenplay"): the candidates are then read deeper ({@link PERIOD_WINDOW}, see {@link candidateDepth}) and the
 * atoms of the period vote with {@link PERIOD_WEIGHT}, the lexical leg's own weight — time-filtered retrieval as a
 * fusion leg rather than a hard filter (a date in the question may also be wrong or loose). A month named without
 * a year ("camping in June", «в мае») is such a period too: an atom set or said in that month of any year meets it.
 */
import type { FusedItem } from "../../domain/rrf.ts";
import type { AtomTime } from "../../domain/time/atom-time.ts";
import { findTimeExpressions } from "../../domain/time/extract.ts";
import { asksWhen } from "../../domain/time/when-question.ts";
import type { Services } from "../services.ts";

/** Fused candidates looked at: the dated leg ranks only these. */
export const WINDOW = 100;
/** Weight of the dated leg (the lexical leg's is 1). */
export const DATED_WEIGHT = 0.5;
/**
 * Least lexical score, as a share of the best one, of an atom the dated leg may vote for. Time orders evidence that
 * matches the question's words nearly as well as the best match; it does not lift a passage that merely holds some
 * date above the one that answers. Without it, XQuAD-ru «Когда…?» / «В каком году…?» questions (Wikipedia
 * paragraphs, most of them dated) ranked a dated but unrelated paragraph first: tune half nDCG@10 0.9492 without
 * the leg, 0.9359 with it; floor 0.5 / 0.7 / 0.85 → 0.9463 / 0.9498 / 0.9505. LoCoMo conversations 0–1, search
 * recall@10: no floor 75.8, 0.5 75.8 (temporal 90.5 → 92.1), 0.7 74.8 (temporal 88.9): 0.5 keeps both.
 */
export const MIN_RELEVANCE = 0.5;
/** Fused candidates looked at, and lexical hits read, when the question names a period. */
export const PERIOD_WINDOW = 1000;
/** Weight of the dated leg when the question names a period. */
export const PERIOD_WEIGHT = 1;
/** How far around a date the question names an event still counts as near it ("the week before…", "around…"). */
export const MARGIN_DAYS = 7;

const DAY_MS = 86_400_000;

/** The periods a question names by absolute dates, as [start, end) ms. */
export function questionPeriods(query: string): Array<[number, number]> {
  return findTimeExpressions(query).map((e) => [Date.parse(e.event.start), Date.parse(e.event.end)]);
}

const EN_MONTHS = "january february march april may june july august september october november december".split(" ");
const RU_MONTHS = "январе феврале марте апреле мае июне июле августе сентябре октябре ноябре декабре".split(" ");
const EN_MONTH =
  /\b(?:in|of|during)\s+(?:(?:early|late|mid)-?\s*)?(january|february|march|april|may|june|july|august|september|october|november|december)\b(?!\s*,?\s*\d)/giu;
const RU_MONTH =
  /(?<![\p{L}])во?\s+(?:(?:начале|конце|середине)\s+)?(январе|феврале|марте|апреле|мае|июне|июле|августе|сентябре|октябре|ноябре|декабре)(?![\p{L}])(?!\s*\d)/giu;

/**
 * The months (0–11) a question names without a year ("in June", "the second week of November", «в мае»): a
 * conversation's memory is usually asked about its own months, so an atom set or said in that month of any year
 * meets it. Months given with a year or a day are dates ({@link questionPeriods}) and are left to them.
 */
export function bareMonths(query: string): number[] {
  const found = new Set<number>();
  for (const m of query.matchAll(EN_MONTH)) found.add(EN_MONTHS.indexOf(m[1].toLowerCase()));
  for (const m of query.matchAll(RU_MONTH)) found.add(RU_MONTHS.indexOf(m[1].toLowerCase()));
  return [...found].filter((i) => i >= 0);
}

/** Whether the question names a period, dated or a bare month. */
function namesPeriod(query: string): boolean {
  return questionPeriods(query).length > 0 || bareMonths(query).length > 0;
}

/** Lexical hits a search for `query` should read at least: {@link PERIOD_WINDOW} when it names a period, else 0. */
export function candidateDepth(query: string): number {
  return namesPeriod(query) ? PERIOD_WINDOW : 0;
}

/** Whether an atom was said within one of `periods` (a day's slack for time zones). */
function saidIn(t: AtomTime, periods: Array<[number, number]>): boolean {
  const said = t.observedAt ? Date.parse(t.observedAt) : Number.NaN;
  return Number.isFinite(said) && periods.some(([a, b]) => said < b + DAY_MS && a - DAY_MS < said + 1);
}

/** Whether an atom was said in one of `months` (0–11, UTC) of any year. */
function saidInMonths(t: AtomTime, months: number[]): boolean {
  return months.length > 0 && t.observedAt !== undefined && months.includes(new Date(t.observedAt).getUTCMonth());
}

/** Whether an atom's event (finer than a year) starts, or its saying falls, in one of `months` (UTC). */
function inMonths(t: AtomTime, months: number[]): boolean {
  if (!months.length) return false;
  const event = t.event && t.event.granularity !== "year" ? new Date(t.event.start).getUTCMonth() : -1;
  const said = t.observedAt ? new Date(t.observedAt).getUTCMonth() : -1;
  return months.includes(event) || months.includes(said);
}

/** Whether an atom's time meets one of the periods: its event within the margin, or its saying within a day. */
function near(t: AtomTime, periods: Array<[number, number]>): boolean {
  const overlaps = (s: number, e: number, margin: number) =>
    periods.some(([a, b]) => s < b + margin && a - margin < Math.max(e, s + 1));
  const said = t.observedAt ? Date.parse(t.observedAt) : Number.NaN;
  return (
    (t.event !== undefined && overlaps(Date.parse(t.event.start), Date.parse(t.event.end), MARGIN_DAYS * DAY_MS)) ||
    (Number.isFinite(said) && overlaps(said, said, DAY_MS))
  );
}

/**
 * `fused` reranked with the dated leg when `query` asks when or names a date; else `fused` itself. With `lexical`
 * (atom id → lexical score), an atom lifted for its event time, or by a "when" question naming no period, joins the
 * leg only when it scores at least {@link MIN_RELEVANCE} × the best one there; one said within a named period joins
 * without that floor.
 */
export async function rankDatedForWhen(
  services: Pick<Services, "searchReads">,
  query: string,
  fused: FusedItem[],
  rrfK: number,
  lexical?: Map<number, number>,
): Promise<FusedItem[]> {
  if (!fused.length) return fused;
  const periods = questionPeriods(query);
  const months = bareMonths(query);
  const named = periods.length > 0 || months.length > 0;
  if (!named && !asksWhen(query)) return fused;
  const window = named ? PERIOD_WINDOW : WINDOW;
  const weight = named ? PERIOD_WEIGHT : DATED_WEIGHT;
  const head = fused.slice(0, window);
  const times = await services.searchReads.atomTimes(head.map((f) => f.id));
  const floor = lexical?.size ? MIN_RELEVANCE * Math.max(...lexical.values()) : 0;
  const member = (id: number) => {
    const t = times.get(id);
    if (t === undefined) return false;
    if (named && (saidIn(t, periods) || saidInMonths(t, months))) return true;
    if (lexical?.size && (lexical.get(id) ?? 0) < floor) return false;
    return named ? near(t, periods) || inMonths(t, months) : t.event !== undefined;
  };
  if (!head.some((f) => member(f.id))) return fused;
  let rank = 0;
  const boosted = head.map((f) => {
    if (!member(f.id)) return f;
    rank++;
    return { ...f, score: f.score + weight / (rrfK + rank), ranks: { ...f.ranks, dated: rank } };
  });
  // Stable: equal scores keep the fused order (itself deterministic).
  const order = new Map(head.map((f, i) => [f.id, i]));
  boosted.sort((a, b) => b.score - a.score || order.get(a.id)! - order.get(b.id)!);
  return [...boosted, ...fused.slice(window)];
}
