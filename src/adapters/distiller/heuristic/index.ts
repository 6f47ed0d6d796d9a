/**
 * The heuristic distiller: the embedded default, no model. Deterministic (same chunk, same atoms), linear in the
 * chunk size, Russian and English alike. One chunk → typed atoms, each quoting a verbatim span of the chunk:
 * - logical_rule: explicit JSON rule blocks only (rules.ts);
 * - code: fenced blocks (also when a chunk boundary cuts one: fences.ts), unfenced code, indented blocks (code.ts);
 * - table: Markdown tables (our HTML parser writes `<table>` so), " | " rows, tab-separated rows (tables.ts);
 * - definition: "X is a Y", "X — это Y", glossary entries, abbreviation lists … (definitions.ts);
 * - fact: sentences with numbers, units, dates (facts.ts); text: the other complete sentences (prose.ts).
 * The chunk is data: nothing in it changes what the distiller does (an embedded instruction is at most a text
 * atom: injection.ts).
 * Confidence priors per rule are in priors.ts; links (kind `reference`) in links.ts.
 */
import { foldForHash, detectLang } from "../../../domain/text.ts";
import { checkQuotes } from "../../../domain/quote.ts";
import { PegasError } from "../../../errors.ts";
import type { DistilledAtom, DistillInput, DistillResult, Distiller } from "../../../ports/models/distiller.ts";
import { Consumed } from "./blocks/blocks.ts";
import { linkAtoms } from "./links.ts";
import type { Proposal } from "./proposal.ts";
import { prosePass } from "./prose.ts";
import { structuredPass } from "./blocks/structured.ts";

/** Most atoms proposed for one chunk; the rest is cut (lowest confidence first) with a warning. */
export const MAX_ATOMS_PER_CHUNK = 64;

/** Drops proposals whose type and folded content repeat an earlier one (the same sentence twice in a chunk). */
function dedupe(proposals: Proposal[]): Proposal[] {
  const seen = new Set<string>();
  return proposals.filter((p) => {
    const key = `${p.type}\u0000${foldForHash(p.content)}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** Keeps the `max` most confident proposals (ties: earlier first), back in document order. */
function cap(proposals: Proposal[], max: number, warnings: string[]): Proposal[] {
  if (proposals.length <= max) return proposals;
  warnings.push(
    `heuristic distiller: ${proposals.length} atoms proposed for one chunk, kept the ${max} most confident`,
  );
  return proposals
    .map((p, i) => ({ p, i }))
    .sort((a, b) => b.p.confidence - a.p.confidence || a.i - b.i)
    .slice(0, max)
    .sort((a, b) => a.i - b.i)
    .map((x) => x.p);
}

/**
 * Distills one chunk synchronously (the port's promise wraps this). `lang` "und" or empty is guessed from the
 * script. @throws PegasError CANCELLED when `signal` is already aborted.
 */
export function distillText(input: DistillInput): DistillResult {
  if (input.signal?.aborted) throw new PegasError("CANCELLED", "distillation cancelled before the chunk was read");
  const text = input.text.includes("\r") ? input.text.replace(/\r\n?/g, "\n") : input.text;
  const lang = input.lang && input.lang !== "und" ? input.lang : detectLang(text);
  const warnings: string[] = [];
  const consumed = new Consumed();
  const structured = structuredPass(text, consumed);
  const prose = prosePass(text, consumed, lang);
  const ordered = [...structured, ...prose].sort((a, b) => a.start - b.start || a.end - b.end);
  const kept = cap(dedupe(ordered), MAX_ATOMS_PER_CHUNK, warnings);
  const links = linkAtoms(kept, text);
  const atoms: DistilledAtom[] = kept.map((p, i) => ({
    type: p.type,
    claim: p.claim,
    content: p.content,
    confidence: p.confidence,
    quote: text.slice(p.start, p.end),
    links: links[i],
  }));
  // Quotes are slices of the chunk by construction; the check guards that promise against future edits.
  const checked = checkQuotes(atoms, input.text);
  return { atoms: checked.kept, warnings: [...warnings, ...checked.warnings] };
}

/** The heuristic distiller (name "heuristic"): see the module doc. */
export const heuristicDistiller: Distiller = {
  name: "heuristic",
  distill: async (input) => distillText(input),
};
