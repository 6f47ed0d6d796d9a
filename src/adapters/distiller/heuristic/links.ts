/**
 * Links between atoms of one chunk, only where the text itself shows the relation, always of kind `reference`:
 * - a sentence ending in ":" right before a code block or table refers to it ("For example, we can do this in Node.js:");
 * - an atom whose claim uses a term that a definition in the same chunk defines refers to that definition.
 * Nothing is inferred beyond that (no cause, no contradiction): those need understanding, not patterns.
 */
import type { DistilledLink } from "../../../ports/models/distiller.ts";
import type { Proposal } from "./proposal.ts";

/** Most links from one atom; a term used everywhere must not turn a chunk into a clique. */
export const MAX_LINKS_PER_ATOM = 3;
/** Shortest term worth linking (shorter ones match inside unrelated words' abbreviations). */
const MIN_TERM = 3;

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

function termPattern(term: string): RegExp {
  return new RegExp(`(?<![\\p{L}\\p{N}])${escapeRegExp(term)}(?![\\p{L}\\p{N}])`, "iu");
}

/** Links per atom (same order as `atoms`, which are sorted by position in `text`). */
export function linkAtoms(atoms: readonly Proposal[], text: string): DistilledLink[][] {
  const links: DistilledLink[][] = atoms.map(() => []);
  const add = (from: number, to: number): void => {
    const list = links[from];
    if (from !== to && list.length < MAX_LINKS_PER_ATOM && !list.some((l) => l.to === to))
      list.push({ to, kind: "reference" });
  };
  atoms.forEach((a, i) => {
    const next = atoms[i + 1];
    if (!a.introduces || !next || (next.type !== "code" && next.type !== "table")) return;
    // Between the sentence and the block only whitespace and a fence line ("```js") may stand.
    const gap = text.slice(a.end, next.start).replace(/^[ \t]*(?:`{3,}|~{3,}).*$/gm, "");
    if (!gap.trim()) add(i, i + 1);
  });
  const definitions = atoms
    .map((a, i) => ({ i, term: a.type === "definition" ? a.term?.trim() : undefined }))
    .filter((d): d is { i: number; term: string } => !!d.term && d.term.length >= MIN_TERM)
    .map((d) => ({ ...d, pattern: termPattern(d.term) }));
  if (definitions.length === 0) return links;
  atoms.forEach((a, i) => {
    for (const d of definitions) {
      if (d.i === i || (a.type === "definition" && a.term === d.term)) continue;
      if (d.pattern.test(a.claim)) add(i, d.i);
    }
  });
  return links;
}
