/**
 * The two readings of memory_get's answer for a model (tool.ts): the text content (the atom, numbered sources,
 * recent history, links as atom lines, what was left out) and the concise structured content holding the same.
 */
import { atomLine, day, eventLabel, lines, moreLine, observedLabel, oneLine, Sources } from "../../render.ts";
import type { CitationLike } from "../../render.ts";
import { GET_QUANTITIES, quantitiesLine } from "./render-quantities.ts";

/** Content characters shown by default (the whole content: response_format detailed). */
export const GET_CONTENT_CHARS = 6000;
/** Citations shown by default, and the characters of each quote. */
export const GET_CITATIONS = 5;
const QUOTE_CHARS = 200;
/** Status changes shown by default, newest first. */
export const GET_HISTORY = 5;
/** Confidence reasons shown, largest first. */
export const GET_REASONS = 5;
/** Characters of the other atom's claim on a link line. */
const LINK_CLAIM_CHARS = 160;

type Out = { [key: string]: any };

/** A link as the concise content keeps it: the relation and the other end, `inferred` only when true. */
function conciseLink(l: Out): Out {
  const base = l.symbol_id
    ? { link_id: l.link_id, kind: l.kind, symbol_id: l.symbol_id, path: l.path, line: l.line }
    : { link_id: l.link_id, kind: l.kind, atom_id: l.atom_id, claim: oneLine(l.claim ?? "", LINK_CLAIM_CHARS) };
  const more = l.symbol_id
    ? { qualified_name: l.qualified_name, symbol_kind: l.symbol_kind, repo: l.repo }
    : { type: l.type, status: l.status };
  return { ...base, ...more, ...(l.inferred ? { inferred: true } : {}) };
}

const TIME_KEYS = ["observed_at", "event", "superseded_by", "supersedes"] as const;

/** The atom's times and supersessions, only those present. */
function timeFields(out: Out): Out {
  return Object.fromEntries(TIME_KEYS.filter((k) => out[k] !== undefined).map((k) => [k, out[k]]));
}

/** "Said 2024-01-15 · happened 2024-03 (month)" and "Superseded by atom 12." / "Supersedes atoms 3, 4.", or "". */
function timeLines(out: Out): string {
  const when = [
    out.observed_at ? `said ${observedLabel(out.observed_at)}` : "",
    out.event ? `happened ${eventLabel(out.event)} (${out.event.granularity})` : "",
  ].filter(Boolean);
  const ids = (l: number[]) => `atom${l.length > 1 ? "s" : ""} ${l.join(", ")}`;
  return lines([
    when.length ? `${when[0][0].toUpperCase()}${when.join(" · ").slice(1)}.` : "",
    out.superseded_by?.length ? `Superseded by ${ids(out.superseded_by)}.` : "",
    out.supersedes?.length ? `Supersedes ${ids(out.supersedes)}.` : "",
  ]);
}

/** memory_get's concise structured content: content, citations and history cut as the text cuts them. */
export function conciseGet(out: Out): Out {
  const content: string = out.content ?? "";
  return {
    atom_id: out.atom_id,
    type: out.type,
    status: out.status,
    claim: out.claim,
    content: content.length > GET_CONTENT_CHARS ? `${content.slice(0, GET_CONTENT_CHARS - 1)}…` : content,
    confidence: out.confidence,
    ...(out.confidence_reasons?.length ? { confidence_reasons: out.confidence_reasons.slice(0, GET_REASONS) } : {}),
    lang: out.lang,
    ...(out.doc_id != null ? { doc_id: out.doc_id } : {}),
    created_at: out.created_at,
    ...timeFields(out),
    ...(out.quantities?.length ? { quantities: out.quantities.slice(0, GET_QUANTITIES) } : {}),
    citations: (out.citations as Out[]).slice(0, GET_CITATIONS).map((c) => ({
      doc_id: c.doc_id,
      uri: c.uri,
      title: c.title,
      kind: c.kind,
      doc_version: c.doc_version,
      locator: c.locator,
      quote: oneLine(c.quote ?? "", QUOTE_CHARS),
    })),
    citation_count: out.citation_count,
    status_history: (out.status_history as Out[]).slice(0, GET_HISTORY).map((h) => ({
      change_id: h.change_id,
      atom_id: h.atom_id,
      from: h.from,
      to: h.to,
      reason: h.reason,
      evidence: h.evidence,
      actor: h.actor,
      ...(h.reverted_at ? { reverted_at: h.reverted_at } : {}),
      created_at: h.created_at,
    })),
    links_out: (out.links_out as Out[]).map(conciseLink),
    links_out_total: out.links_out_total,
    links_in: (out.links_in as Out[]).map(conciseLink),
    links_in_total: out.links_in_total,
    symbols: (out.symbols as Out[]).map(conciseLink),
    symbols_total: out.symbols_total,
    ...(out.merged_into ? { merged_into: out.merged_into } : {}),
  };
}

function linkLine(l: Out, arrow: "→" | "←"): string {
  const flag = l.inferred ? " (inferred)" : "";
  if (l.symbol_id)
    return `- ${l.kind} → symbol:${l.symbol_id} ${l.qualified_name} (${l.symbol_kind}) ${l.path}:${l.line}${flag}`;
  return `- ${l.kind} ${arrow} ${atomLine(l as { atom_id: number }, LINK_CLAIM_CHARS)}${flag}`;
}

/** memory_get's text content. */
export function renderGet(out: Out, args: { atom_id: number; max_links?: number; links_offset?: number }): string {
  const sources = new Sources();
  const cited = (out.citations as CitationLike[]).slice(0, GET_CITATIONS).map((c) => sources.ref(c));
  const content: string = out.content ?? "";
  const head = `${atomLine({ atom_id: out.atom_id, type: out.type, status: out.status })} · confidence ${Number(out.confidence).toFixed(2)} · ${out.lang} · ${day(out.created_at)}`;
  const claim = `Claim: ${out.claim}${cited.length ? ` ${cited.map((n) => `[${n}]`).join("")}` : " (no source)"}`;
  const body =
    content && content !== out.claim
      ? content.length > GET_CONTENT_CHARS
        ? `${content.slice(0, GET_CONTENT_CHARS - 1)}…\n(content cut at ${GET_CONTENT_CHARS} of ${content.length} characters: response_format "detailed" gives it whole)`
        : content
      : "";
  const detailed = 'call memory_get with response_format "detailed"';
  const history = (out.status_history as Out[]).slice(0, GET_HISTORY).map((h) => {
    const ev = h.evidence?.length ? `; evidence atoms ${h.evidence.join(", ")}` : "";
    const undone = h.reverted_at ? ` (undone ${day(h.reverted_at)})` : "";
    return `- change ${h.change_id} ${day(h.created_at)}: ${h.from} → ${h.to} by ${h.actor}: ${oneLine(h.reason, 200)}${ev}${undone}`;
  });
  const offset = args.links_offset ?? 0;
  const page = (list: Out[], total: number, what: string, arrow: "→" | "←") => {
    if (total === 0) return "";
    const rows = list.map((l) => linkLine(l, arrow));
    const next = offset + list.length;
    const more =
      total > next
        ? `(${list.length} of ${total} from ${offset}: call memory_get with links_offset ${next} for more)`
        : "";
    return lines([`${what} (${total}):`, ...rows, more]);
  };
  return lines(
    [
      head,
      claim,
      timeLines(out),
      quantitiesLine(out.quantities),
      out.confidence_reasons?.length
        ? `Confidence ${Number(out.confidence).toFixed(2)}: ${(out.confidence_reasons as string[]).slice(0, GET_REASONS).join("; ")}.`
        : "",
      body,
      out.merged_into
        ? `Merged into atom ${out.merged_into.atom_id} (merge ${out.merged_into.merge_id}; memory_unmerge undoes it).`
        : "",
      sources.size
        ? lines([sources.block(QUOTE_CHARS), moreLine("citations", cited.length, out.citation_count, detailed)])
        : "",
      history.length
        ? lines([
            "History (newest first):",
            ...history,
            moreLine("changes", history.length, out.status_history.length, detailed),
          ])
        : "",
      page(out.links_out, out.links_out_total, "Links out", "→"),
      page(out.links_in, out.links_in_total, "Links in", "←"),
      page(out.symbols, out.symbols_total, "Code", "→"),
    ],
    true,
  );
}
