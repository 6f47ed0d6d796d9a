/**
 * The Markdown of memory_get_context (context.ts): one line per atom — the sentences of it that answer the question,
 * its numbered citations, its id, and the atoms that contradict it — then the numbered sources
 * `[n] title — locator (uri)` (a later locator of the same document as `[n] as [m] — locator`), then one line saying
 * what was left out and how to get it. Also the "concise" structured content, which the budget holds too.
 */
import { formatLocator } from "../../domain/locator.ts";
import { type ExplainedConfidence, LOW_CONFIDENCE, lowestReason } from "../../domain/confidence/model.ts";
import type { AtomView, CitationView } from "../../ports/store/atom-reads.ts";
import { type QueryTerms, snippet, textUnits } from "../search/snippet.ts";
import { plainLine } from "../search/text-units.ts";
import type { Candidate, ContextCitation, ContextItem, ContextResult, Opponent } from "./types.ts";

/** Citations shown per atom. */
export const CITATIONS_PER_ATOM = 2;
/** Atom ids named in the left-out line. */
const LEFT_OUT_IDS = 5;

/** `text` on one line (whitespace collapsed), cut at `max` characters with "…". */
export function oneLine(text: string, max: number): string {
  const t = text.replace(/\s+/g, " ").trim();
  return t.length <= max ? t : `${t.slice(0, max - 1)}…`;
}

/** Identity of a citation: its document and locator. */
export function citationKey(c: { doc_id: number; locator: string }): string {
  return `${c.doc_id}\u0000${c.locator}`;
}

/** `text` as it reads inside a JSON string (its quotes left off): what the JSON of the structured content costs. */
export function jsonEscaped(text: string): string {
  return JSON.stringify(text).slice(1, -1);
}

/** The locator of a citation that spans its whole document (a note, a short text): said by saying none. */
export const WHOLE_DOCUMENT = "whole document";

/**
 * A source line: `[n] title — locator (uri)`, or `[n] as [m] — locator` when source m cites the same document; a
 * citation of the whole document names no locator. A text given inline has a content-hash URI (text:sha256:…): its
 * title says all a reader can use.
 */
export function citationLine(c: ContextCitation, all: readonly ContextCitation[]): string {
  const where = c.locator === WHOLE_DOCUMENT ? "" : ` — ${c.locator}`;
  const first = all.find((o) => o.doc_id === c.doc_id && o.n < c.n);
  if (first) return `[${c.n}] as [${first.n}]${where}\n`;
  const uri = c.title && !c.uri.startsWith("text:") ? ` (${c.uri})` : "";
  return `[${c.n}] ${c.title ? oneLine(c.title, 120) : c.uri}${where}${uri}\n`;
}

/**
 * The line saying what was left out and how to get it, or null when nothing was: atoms left out for the budget
 * (the first `named` ids named) and passages shown by their answering sentences only.
 */
export function leftOutLine(omittedIds: readonly number[], cut: boolean, named = LEFT_OUT_IDS): string | null {
  if (!omittedIds.length && !cut) return null;
  const ids = omittedIds.slice(0, named).join(", ") + (omittedIds.length > named ? ", …" : "");
  if (!omittedIds.length) return "_Passages cut at … are whole in memory_get <atom id>._\n";
  return `_Left out: ${omittedIds.length} more atom(s) (${ids}): raise budget_tokens; memory_get <atom id> gives any whole._\n`;
}

/** The whole block: the lines (or why there are none), the sources, the left-out line (naming `named` ids). */
export function compose(
  lines: readonly string[],
  citations: readonly ContextCitation[],
  omittedIds: readonly number[],
  cut: boolean,
  named = LEFT_OUT_IDS,
): string {
  const empty = omittedIds.length
    ? `_${omittedIds.length} matching atom(s), none within the token budget: raise budget_tokens._\n`
    : "_Nothing in memory matches this question._\n";
  if (!lines.length) return empty;
  const sources = citations.length ? `\nSources:\n${citations.map((c) => citationLine(c, citations)).join("")}` : "";
  const left = leftOutLine(omittedIds, cut, named);
  return `${lines.join("")}${sources}${left ? `\n${left}` : ""}`;
}

/**
 * A citation as the concise structured content has it: number, document, and locator unless it is the whole
 * document (title and uri are in the block).
 */
export function conciseCitation(c: ContextCitation): { n: number; doc_id: number; locator?: string } {
  return { n: c.n, doc_id: c.doc_id, ...(c.locator === WHOLE_DOCUMENT ? {} : { locator: c.locator }) };
}

/** The "concise" structured content of a context: the block and its citations by number, document and locator. */
export function conciseContext(r: Pick<ContextResult, "markdown" | "citations" | "degraded">): Record<string, unknown> {
  return {
    markdown: r.markdown,
    citations: r.citations.map(conciseCitation),
    ...(r.degraded ? { degraded: r.degraded } : {}),
  };
}

/**
 * What a line shows of an atom: its sentences that answer (see search/snippet.ts) within about `maxChars`
 * characters, no Markdown block syntax (`#`, bullets, fences: search/text-units.ts); a table's caption and header
 * before its best rows; code by its description alone.
 */
export function itemBody(
  atom: Pick<AtomView, "type" | "claim" | "content">,
  terms: QueryTerms,
  weights: Map<string, number>,
  maxChars: number,
): { text: string; cut: boolean } {
  const claim = oneLine(atom.type === "code" ? atom.claim : plainLine(atom.claim), maxChars);
  if (atom.type === "code") return { text: claim, cut: true };
  const units = textUnits(atom.content || atom.claim);
  if (atom.type === "table") {
    const rows = snippet(units, terms, weights, Math.max(60, maxChars - claim.length), units[0]);
    return { text: rows.text ? `${claim}: ${rows.text}` : claim, cut: true };
  }
  const s = snippet(units, terms, weights, maxChars);
  return s.text ? { text: s.text, cut: s.cut } : { text: claim, cut: true };
}

/**
 * One item's Markdown line and the citations it adds (numbered after `known` ones), showing `body`; an atom whose
 * explained `confidence` is below LOW_CONFIDENCE is marked `low confidence: <the reason lowering it most>`.
 */
export function renderItem(
  atom: AtomView,
  c: Candidate,
  body: { text: string; cut: boolean },
  opponentIds: Map<number, Set<number>>,
  atoms: Map<number, AtomView>,
  citationNo: Map<string, number>,
  known: number,
  confidence?: ExplainedConfidence,
): { text: string; item: Omit<ContextItem, "tokens">; newCitations: ContextCitation[] } {
  const refs: number[] = [];
  const fresh: ContextCitation[] = [];
  for (const cv of atom.citations.slice(0, CITATIONS_PER_ATOM)) {
    const cit = toCitation(cv, 0);
    const n = citationNo.get(citationKey(cit)) ?? fresh.find((f) => citationKey(f) === citationKey(cit))?.n;
    if (n !== undefined) {
      if (!refs.includes(n)) refs.push(n);
      continue;
    }
    cit.n = known + fresh.length + 1;
    fresh.push(cit);
    refs.push(cit.n);
  }
  const opponents: Opponent[] = [...(opponentIds.get(atom.id) ?? [])]
    .map((id) => atoms.get(id))
    // A retracted or stale opponent (its source no longer says it) settles nothing the reader must weigh.
    .filter((o): o is AtomView => !!o && o.status !== "retracted" && o.status !== "stale")
    .map((o) => ({ atom_id: o.id, claim: oneLine(o.claim, 200) }));
  const marks = [`atom ${atom.id}`];
  const low = confidence && confidence.value < LOW_CONFIDENCE ? (lowestReason(confidence) ?? "") : null;
  if (atom.status !== "candidate" && low !== atom.status) marks.push(atom.status);
  if (low !== null) marks.push(low ? `low confidence: ${low}` : "low confidence");
  if (c.via) marks.push(`via ${c.via.kind} from ${c.via.atom_id}`);
  let text = `- ${body.text}${refs.length ? ` ${refs.map((n) => `[${n}]`).join("")}` : " (no source)"} (${marks.join(", ")})\n`;
  for (const o of opponents) text += `  ⚠ contested by atom ${o.atom_id}: ${o.claim}\n`;
  return {
    text,
    newCitations: fresh,
    item: {
      atom_id: atom.id,
      type: atom.type,
      status: atom.status,
      confidence: confidence?.value ?? atom.confidence,
      claim: atom.claim,
      shown: body.text,
      cut: body.cut,
      source: c.source,
      score: c.score,
      ...(c.via ? { via: c.via } : {}),
      citations: refs,
      contested_by: opponents,
    },
  };
}

function toCitation(cv: CitationView, n: number): ContextCitation {
  return {
    n,
    doc_id: cv.doc_id,
    ...(cv.title ? { title: cv.title } : {}),
    uri: cv.uri,
    locator: formatLocator(cv.locator) || WHOLE_DOCUMENT,
    quote: oneLine(cv.quote, 300),
  };
}
