/**
 * Text content (tool.ts `render`) and concise structured content of the research tools: memory_add_gap,
 * memory_list_gaps, memory_verify and memory_infer.
 */
import { day, lines, moreLine, oneLine, withoutNulls } from "../../render.ts";

type Out = { [key: string]: any };

/** A gap as one line: `gap 3 · p5 · open — question (why: reason; asked 2 more times)`. */
function gapLine(g: Out): string {
  const m = g.metadata ?? {};
  const extra = [
    g.reason ? `why: ${oneLine(g.reason, 160)}` : "",
    m.repeat_count ? `asked ${m.repeat_count} more time(s)` : "",
    m.attempt_count ? `${m.attempt_count} research attempt(s)` : "",
    m.answer?.atom_ids?.length ? `answered by atoms ${m.answer.atom_ids.join(", ")}` : "",
  ].filter(Boolean);
  return `gap ${g.id} · p${g.priority} · ${g.status} — ${oneLine(g.question, 300)}${extra.length ? ` (${extra.join("; ")})` : ""}`;
}

/**
 * A gap as the concise content shows it: question and reason cut as the text cuts them, no update time, and only the
 * counters and answer of its metadata (repeats and attempts are long).
 */
export function conciseGap(g: Out): Out {
  const m = g.metadata ?? {};
  const metadata = withoutNulls({
    repeat_count: m.repeat_count ?? null,
    attempt_count: m.attempt_count ?? null,
    answer: m.answer ? { atom_ids: m.answer.atom_ids } : null,
  });
  const { updated_at, ...rest } = g;
  void updated_at;
  return withoutNulls({
    ...rest,
    question: oneLine(g.question, 300),
    reason: g.reason ? oneLine(g.reason, 160) : null,
    metadata,
  });
}

/** memory_add_gap's text: the gap added, or the open gap the question repeats and its raised priority. */
export function renderAddGap(out: Out): string {
  if (out.created) return `Added ${gapLine(out.gap)}.`;
  return `Not added: it repeats open ${gapLine(out.gap)}; priority ${out.previous_priority ?? "?"} → ${out.gap.priority}${out.decided_by ? ` (decided by ${out.decided_by})` : ""}.`;
}

/** memory_list_gaps's concise content: gaps with their counters only; suggestions without scores and times. */
export function conciseListGaps(out: Out): Out {
  return {
    gaps: (out.gaps as Out[]).map(conciseGap),
    total: out.total,
    suggested: (out.suggested as Out[]).map((s) => ({ query: s.query, misses: s.misses, last_at: s.last_at })),
    suggested_total: out.suggested_total,
  };
}

/** memory_list_gaps's text: one line per gap, the paging line, then the suggested gaps. */
export function renderListGaps(out: Out, args: { status?: string; offset?: number }): string {
  const gaps = out.gaps as Out[];
  const offset = args.offset ?? 0;
  const status = args.status ?? "open";
  const next = offset + gaps.length;
  return lines([
    gaps.length
      ? `${out.total} ${status === "all" ? "" : `${status} `}gap(s), most urgent first${offset ? ` (from ${offset})` : ""}:`
      : `No ${status === "all" ? "" : `${status} `}gaps${offset ? ` from offset ${offset}` : ""}.`,
    ...gaps.map((g) => `- ${gapLine(g)}`),
    out.total > next ? `(${out.total - next} more: call memory_list_gaps with offset ${next})` : "",
    out.suggested.length
      ? `Searches that missed repeatedly, no gap asks yet (memory_add_gap to record one; ${out.suggested_total} in all):`
      : "",
    ...(out.suggested as Out[]).map(
      (s) => `- “${oneLine(s.query, 200)}” missed ${s.misses} times, last ${day(s.last_at)}`,
    ),
  ]);
}

/** Changes, history entries and answered gaps listed by default in memory_verify's answer. */
export const VERIFY_LISTED = 20;
const HISTORY_LISTED = 10;

const changeOut = (c: Out): Out => ({ ...c, reason: oneLine(c.reason ?? "", 200) });

/** memory_verify's concise content: the counts, the first changes (reasons cut) and the recent history. */
export function conciseVerify(out: Out): Out {
  return {
    ...out,
    changes: (out.changes as Out[]).slice(0, VERIFY_LISTED).map(changeOut),
    gaps_answered: (out.gaps_answered as Out[]).slice(0, VERIFY_LISTED),
    history: (out.history as Out[]).slice(0, HISTORY_LISTED).map(changeOut),
    warnings: (out.warnings as string[]).slice(0, VERIFY_LISTED),
  };
}

function changeLine(c: Out): string {
  const ev = c.evidence?.length ? `; evidence atoms ${c.evidence.slice(0, 10).join(", ")}` : "";
  const who = c.actor ? ` by ${c.actor}` : "";
  const when = c.created_at ? ` ${day(c.created_at)}` : "";
  const undone = c.reverted_at ? ` (undone ${day(c.reverted_at)})` : "";
  return `- atom ${c.atom_id}: ${c.from} → ${c.to} (change ${c.change_id}${when}${who}): ${oneLine(c.reason ?? "", 200)}${ev}${undone}`;
}

/** memory_verify's text: verdict counts, status changes, gaps answered, the atom's history, what remains. */
export function renderVerify(out: Out): string {
  const detailed = 'call memory_verify with response_format "detailed" for up to 200';
  const history = (out.history as Out[]).slice(0, HISTORY_LISTED);
  if (out.mode === "revert") {
    const r = out.reverted;
    return lines([
      r
        ? `Reverted change ${r.change_id} of atom ${r.atom_id} (${r.from} → ${r.to}); the atom is ${r.from} again.`
        : "Reverted.",
      ...(out.changes as Out[]).map(changeLine),
      history.length ? "History (newest first):" : "",
      ...history.map(changeLine),
    ]);
  }
  const v = out.verdicts;
  const changes = (out.changes as Out[]).slice(0, VERIFY_LISTED);
  return lines([
    `Checked ${out.checked} atom(s) with the ${out.judge} judge; verdicts against their nearest atoms: ${v.new} new, ${v.duplicate} duplicate, ${v.corroborates} corroborate, ${v.contradicts} contradict; ${out.confidence_raised} confidence(s) raised, ${out.links_added} contradicts link(s) added.`,
    changes.length ? `Status changes (${out.changes_total}):` : "No status changed.",
    ...changes.map(changeLine),
    moreLine("changes", changes.length, out.changes_total, detailed),
    ...(out.gaps_answered as Out[])
      .slice(0, VERIFY_LISTED)
      .map((g) => `Gap ${g.gap_id} answered by atoms ${g.atom_ids.join(", ")} (${g.decided_by}).`),
    ...(out.warnings as string[]).slice(0, VERIFY_LISTED).map((w) => `Warning: ${oneLine(w, 300)}`),
    out.remaining && !(out.warnings as string[]).some((w) => w.includes("memory_verify again"))
      ? `${out.remaining} atom(s) of the selection remain: call memory_verify again for them.`
      : "",
    history.length ? "History of the atom (newest first):" : "",
    ...history.map(changeLine),
    moreLine("history entries", history.length, out.history.length, detailed),
    out.changes_total ? "Undo a change with memory_verify {revert_change_id}." : "",
  ]);
}

/** Rules and ignored rules listed in memory_infer's answer. */
export const INFER_LISTED = 30;

/** memory_infer's concise content: the first rules and ignored rules, with their totals. */
export function conciseInfer(out: Out): Out {
  return {
    ...out,
    rules: (out.rules as Out[]).slice(0, INFER_LISTED),
    rules_total: out.rules.length,
    ignored: (out.ignored as Out[]).slice(0, INFER_LISTED).map((x) => ({ ...x, reason: oneLine(x.reason, 200) })),
    ignored_total: out.ignored.length,
  };
}

/** memory_infer's text: the fixpoint, one line per rule, the ignored rules with why. */
export function renderInfer(out: Out): string {
  const rules = (out.rules as Out[]).slice(0, INFER_LISTED);
  const ignored = (out.ignored as Out[]).slice(0, INFER_LISTED);
  const narrow = "pass rule_ids to run and see particular rules";
  return lines([
    `Fixpoint after ${out.iterations} round(s): ${out.edges_added} edge(s) derived${out.skipped ? `, ${out.skipped} no table can hold` : ""}, ${out.retracted} retracted first (a premise went).`,
    ...rules.map(
      (r) =>
        `- rule atom ${r.rule_id}: ${r.if.join(" ∘ ")} ⇒ ${r.then}: ${r.edges_added} new edge(s)${r.skipped ? `, ${r.skipped} skipped` : ""}`,
    ),
    moreLine("rules", rules.length, out.rules.length, narrow),
    ...ignored.map((x) => `- ignored atom ${x.rule_id}: ${oneLine(x.reason, 200)}`),
    moreLine("ignored rules", ignored.length, out.ignored.length, narrow),
    out.edges_added ? "Derived edges are in memory_query_graph (inferred: true) and memory_get's links." : "",
  ]);
}
