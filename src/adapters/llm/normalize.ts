/**
 * A validated answer → the port's DistillResult. What a model gets wrong without breaking the schema is repaired
 * or dropped here, each with a warning: links out of range, to the atom itself or repeated are dropped; a blank
 * claim takes the quote; a blank content takes the quote (or the claim); atoms whose quote is not in the chunk are
 * dropped by the shared quote check, which renumbers the links. A claim of a Russian chunk with no Cyrillic letter
 * (a translation) is kept with a warning. The entities the model named are checked by entities.ts.
 */
import { detectLang } from "../../domain/text.ts";
import { checkQuotes } from "../../domain/quote.ts";
import type { DistilledAtom, DistilledLink, DistillInput, DistillResult } from "../../ports/models/distiller.ts";
import { checkEntities } from "./entities.ts";
import type { DistillAnswer } from "./schema.ts";

type AnswerAtom = DistillAnswer["atoms"][number];

/** Links of atom `from` that point at another atom of the answer, each (to, kind) once. */
function cleanLinks(atom: AnswerAtom, from: number, count: number, warnings: string[]): DistilledLink[] {
  const out: DistilledLink[] = [];
  for (const link of atom.links) {
    if (link.to >= count) {
      warnings.push(`atom ${from}: link '${link.kind}' to atom ${link.to} dropped: the answer has ${count} atoms`);
    } else if (link.to === from) {
      warnings.push(`atom ${from}: link '${link.kind}' to itself dropped`);
    } else if (!out.some((l) => l.to === link.to && l.kind === link.kind)) {
      out.push({ to: link.to, kind: link.kind });
    }
  }
  return out;
}

/** True when a claim of a Russian chunk has Latin letters but no Cyrillic one: the model translated it. */
function translatedFromRussian(claim: string, lang: string): boolean {
  return lang === "ru" && detectLang(claim) === "en" && !/\p{Script=Cyrillic}/u.test(claim);
}

function toAtom(a: AnswerAtom, i: number, count: number, lang: string, warnings: string[]): DistilledAtom {
  const quote = a.quote.trim();
  let claim = a.claim.trim();
  if (claim === "") {
    warnings.push(`atom ${i}: empty claim replaced by its quote`);
    claim = quote;
  }
  if (a.type !== "code" && translatedFromRussian(claim, lang)) {
    warnings.push(`atom ${i}: the claim is not in Russian although the chunk is ("${claim.slice(0, 60)}")`);
  }
  const content = a.content.trim() || quote || claim;
  return { type: a.type, claim, content, confidence: a.confidence, quote, links: cleanLinks(a, i, count, warnings) };
}

/**
 * Turns a validated answer for `input` into atoms and warnings (see the module doc). The chunk's language is
 * `input.lang`, or guessed from its script when "und" or empty.
 */
export function toDistillResult(answer: DistillAnswer, input: Pick<DistillInput, "text" | "lang">): DistillResult {
  const warnings: string[] = [];
  const lang = input.lang && input.lang !== "und" ? input.lang : detectLang(input.text);
  const count = answer.atoms.length;
  const atoms = answer.atoms.map((a, i) => toAtom(a, i, count, lang, warnings));
  const checked = checkQuotes(atoms, input.text);
  const entities = checkEntities(answer.entities, input.text, warnings);
  return { atoms: checked.kept, warnings: [...warnings, ...checked.warnings], ...(entities ? { entities } : {}) };
}
