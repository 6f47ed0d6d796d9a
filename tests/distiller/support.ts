/** Helpers for the distiller tests: distill one text and pick atoms by type. */
import { distillText } from "../../src/adapters/distiller/heuristic/index.ts";
import type { DistilledAtom } from "../../src/ports/models/distiller.ts";
import { quoteOccurs } from "../../src/domain/quote.ts";

/** Atoms of `text` (throws when a quote is not in the text: every test checks the evidence promise too). */
export function atomsOf(text: string, lang = "en"): DistilledAtom[] {
  const { atoms } = distillText({ text, lang });
  for (const a of atoms) {
    if (!quoteOccurs(a.quote, text) || !text.includes(a.quote)) throw new Error(`quote not verbatim: ${a.quote}`);
  }
  return atoms;
}

/** Atoms of one type. */
export function ofType(text: string, type: DistilledAtom["type"], lang = "en"): DistilledAtom[] {
  return atomsOf(text, lang).filter((a) => a.type === type);
}

/** The single atom of `text` (fails the test when there is not exactly one). */
export function only(text: string, lang = "en"): DistilledAtom {
  const atoms = atomsOf(text, lang);
  if (atoms.length !== 1)
    throw new Error(`expected one atom, got ${atoms.length}: ${JSON.stringify(atoms.map((a) => [a.type, a.claim]))}`);
  return atoms[0];
}
