/**
 * The Markdown of memory_get_context (context.ts): one line per atom with its numbered citations and the atoms that
 * contradict it, then the numbered sources `[n] title — locator (uri)`.
 */
import { formatLocator } from "../../domain/locator.ts";
import type { AtomView, CitationView } from "../../ports/store/atom-reads.ts";
import type { Candidate, ContextCitation, ContextItem, Opponent } from "./types.ts";

/** Longest content shown for an atom (characters). */
const CONTENT_CHARS = 600;
/** Citations shown per atom. */
export const CITATIONS_PER_ATOM = 2;

/** `text` on one line (whitespace collapsed), cut at `max` characters with "…". */
export function oneLine(text: string, max: number): string {
  const t = text.replace(/\s+/g, " ").trim();
  return t.length <= max ? t : `${t.slice(0, max - 1)}…`;
}

export function citationKey(c: { doc_id: number; locator: string }): string {
  return `${c.doc_id}\u0000${c.locator}`;
}

export function citationLine(c: ContextCitation): string {
  // A text given inline has a content-hash URI (text:sha256:…): its title says all a reader can use.
  const uri = c.title && !c.uri.startsWith("text:") ? ` (${c.uri})` : "";
  return `[${c.n}] ${c.title ? oneLine(c.title, 120) : c.uri} — ${c.locator}${uri}\n`;
}

export function compose(header: string, lines: string[], citations: ContextCitation[], omitted = 0): string {
  const empty = omitted
    ? `_${omitted} matching atom(s), none within the token budget: raise budget_tokens._\n`
    : "_Nothing in memory matches this question._\n";
  const body = lines.length ? lines.join("") : empty;
  const sources = citations.length ? `\nSources:\n${citations.map(citationLine).join("")}` : "";
  return `${header}\n${body}${sources}`;
}

/** One item's Markdown line and the citations it adds (numbered after `known` ones); `claimOnly` leaves the content out. */
export function renderItem(
  atom: AtomView,
  c: Candidate,
  opponentIds: Map<number, Set<number>>,
  atoms: Map<number, AtomView>,
  citationNo: Map<string, number>,
  known: number,
  claimOnly: boolean,
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
  // A passage's claim is its first sentence: then the content alone says it all, shown once.
  const claim = oneLine(atom.claim, 400);
  const full = atom.content && !claimOnly ? oneLine(atom.content, CONTENT_CHARS) : "";
  const lead = full && full !== claim && full.startsWith(claim.replace(/…$/, "")) ? full : claim;
  const content = full && full !== claim && lead === claim ? full : null;
  const opponents: Opponent[] = [...(opponentIds.get(atom.id) ?? [])]
    .map((id) => atoms.get(id))
    .filter((o): o is AtomView => !!o && o.status !== "retracted")
    .map((o) => ({ atom_id: o.id, claim: oneLine(o.claim, 200) }));
  const marks = [atom.type, atom.status, `confidence ${atom.confidence.toFixed(2)}`, `atom ${atom.id}`];
  if (c.via) marks.push(`via ${c.via.kind} from atom ${c.via.atom_id}`);
  let text = `- ${lead}${refs.length ? ` ${refs.map((n) => `[${n}]`).join("")}` : " (no source)"} _(${marks.join(", ")})_\n`;
  if (content) text += `  ${content}\n`;
  for (const o of opponents) text += `  ⚠ contested by atom ${o.atom_id}: ${o.claim}\n`;
  return {
    text,
    newCitations: fresh,
    item: {
      atom_id: atom.id,
      type: atom.type,
      status: atom.status,
      confidence: atom.confidence,
      claim: atom.claim,
      content: lead === claim ? content : lead,
      source: c.source,
      score: c.score,
      via: c.via,
      citations: refs,
      contested_by: opponents,
    },
  };
}

function toCitation(cv: CitationView, n: number): ContextCitation {
  return {
    n,
    doc_id: cv.doc_id,
    title: cv.title,
    uri: cv.uri,
    locator: formatLocator(cv.locator) || "whole document",
    quote: oneLine(cv.quote, 300),
  };
}
