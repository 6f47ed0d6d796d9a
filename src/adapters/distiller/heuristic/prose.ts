/**
 * The prose pass: the paragraphs left after the block pass, sentence by sentence. Each sentence becomes at most
 * one atom, by priority definition > fact > text, so that one statement is not stored three times. Decision on
 * context: a text or fact atom's content is its sentence alone, except when the sentence opens with an anaphor
 * ("This …", "It …", "Они …"): then the content is the previous sentence of the paragraph plus this one, because
 * "It contains the obvious add function" means nothing on its own. The claim and the quote are always the sentence.
 * A sentence that instructs a model ("Ignore all previous instructions …") is at most a text atom (injection.ts).
 */
import { collapse, type Consumed, freeParagraphs, type Paragraph, type Span } from "./blocks/blocks.ts";
import { definitionPrior, findDefinition, findGlossary, type FoundDefinition } from "./definitions.ts";
import { factRule } from "./facts.ts";
import { isInstructionToModel } from "./injection.ts";
import { PRIORS } from "./priors.ts";
import { proposal, type Proposal } from "./proposal.ts";
import { ENTRY_START, isReference } from "./references.ts";
import { fragmentReason, isDebris, isFurniture, isHeading, sentenceSpans, wordCount } from "./sentences.ts";

const ANAPHOR =
  /^["“«(]?(?:This|That|These|Those|It|Its|They|Their|He|She|His|Her|Such|Both|Here|There|However|Therefore|Thus|Hence|Это|Этот|Эта|Эти|Этим|Этого|Он|Она|Оно|Они|Его|Ее|Её|Их|Такой|Такая|Такое|Такие|Там|Тогда|Поэтому|Однако|При этом)(?![\p{L}])/u;

/** An abbreviation list item ("AMR, antimicrobial resistance"): a short code with two capitals, then its expansion. */
const ABBREVIATION_ITEM = /^([\p{Lu}\p{N}][\p{L}\p{N}/&+-]{0,15}),\s+(\S.{1,118})$/u;
const ABBREVIATION_LABEL = /^(?:Abbreviations|Сокращения|Список сокращений)\s*:\s*/iu;

/** Items of an abbreviation list paragraph ("AMR, antimicrobial resistance; HIV, …"), or [] when it is not one. */
function abbreviationItems(_text: string, p: Paragraph): Proposal[] {
  if (!p.text.includes(";")) return [];
  const out: Proposal[] = [];
  const label = ABBREVIATION_LABEL.exec(p.text)?.[0].length ?? 0;
  let at = label;
  const parts = p.text.slice(label).split(";");
  for (const part of parts) {
    const from = p.start + at;
    at += part.length + 1;
    const lead = part.length - part.trimStart().length;
    // The last item may run into furniture ("… coverage. https://doi.org/…"): keep its first sentence.
    const item = part.trim().replace(/\.(?:\s[\s\S]*)?$/u, "");
    const m = ABBREVIATION_ITEM.exec(collapse(item));
    if (!m || (m[1].match(/\p{Lu}/gu) ?? []).length < 2) continue;
    const start = from + lead;
    out.push(
      proposal({
        type: "definition",
        claim: `${m[1]}: ${m[2]}`,
        content: collapse(item),
        confidence: PRIORS.definition_abbreviation,
        start,
        end: start + item.length,
        term: m[1],
      }),
    );
  }
  // Most items must parse, or this is prose that happens to contain semicolons.
  return out.length >= 3 && out.length * 5 >= parts.length * 4 ? out : [];
}

/** One sentence of the chunk, with what the glossary decision needs. */
interface SentenceRecord {
  p: Paragraph;
  spans: Span[];
  i: number;
  text: string;
  /** Index of the line-start unit (paragraph or list line) the sentence opens, or -1 inside a line. */
  unit: number;
  glossary: FoundDefinition | null;
}

/** True when the sentence starts a line (glossary entries sit at line starts). */
function atLineStart(text: string, p: Paragraph, span: Span): boolean {
  return span.start === p.start || /\n[ \t]*$/.test(text.slice(p.start, span.start));
}

/**
 * Glossary entries are accepted only in a list: a neighbouring line-start unit is an entry too, and the term is
 * unique in the chunk (a speaker repeated in a play or a poem, "Poet: …" twice, is a speaker, not a term).
 */
function acceptGlossary(records: SentenceRecord[]): Set<SentenceRecord> {
  const byUnit = new Map<number, SentenceRecord>();
  const terms = new Map<string, number>();
  for (const r of records) {
    if (!r.glossary) continue;
    byUnit.set(r.unit, r);
    const key = r.glossary.term.toLowerCase();
    terms.set(key, (terms.get(key) ?? 0) + 1);
  }
  const accepted = new Set<SentenceRecord>();
  for (const [unit, r] of byUnit) {
    const listed = byUnit.has(unit - 1) || byUnit.has(unit + 1);
    if (listed && terms.get(r.glossary!.term.toLowerCase()) === 1) accepted.add(r);
  }
  return accepted;
}

function definitionAtom(s: string, span: Span, glossary: FoundDefinition | null): Proposal | null {
  const d = findDefinition(s) ?? glossary;
  if (!d || wordCount(s) < 3 || isReference(s) || isFurniture(s) || isDebris(s)) return null;
  const claim = d.claimIsSentence ? s : `${d.term}: ${d.definition}`;
  return proposal({ type: "definition", claim, content: s, confidence: definitionPrior(d), ...span, term: d.term });
}

function sentenceAtom(text: string, r: SentenceRecord, glossary: boolean): Proposal | null {
  const span = r.spans[r.i];
  const s = r.text;
  const instruction = isInstructionToModel(s);
  const def = instruction ? null : definitionAtom(s, span, glossary ? r.glossary : null);
  if (def) return def;
  if (fragmentReason(s)) return null;
  const prev = r.i > 0 ? r.spans[r.i - 1] : null;
  const content = prev && ANAPHOR.test(s) ? collapse(text.slice(prev.start, span.end)) : s;
  const fact = instruction ? null : factRule(s);
  const terminated = /[.!…;:]["”»)\]]*$/u.test(s);
  const type = fact ? "fact" : "text";
  const confidence = fact ? PRIORS[fact] : terminated ? PRIORS.text : PRIORS.text_unterminated;
  return proposal({ type, claim: s, content, confidence, ...span, introduces: /:\s*$/.test(s) });
}

/**
 * Whole paragraphs that hold no claim: headings, page furniture, reference entries. A long paragraph with a couple
 * of bibliographic marks is prose that cites; only a short one, or one opening like an entry, is an entry.
 */
function skipParagraph(p: Paragraph): boolean {
  if (isHeading(p.text) || isFurniture(p.text)) return true;
  return (p.text.length < 600 || ENTRY_START.test(p.text)) && isReference(p.text); // the cheap test first
}

/** Runs the prose pass over the unconsumed paragraphs of `text`. */
export function prosePass(text: string, consumed: Consumed, lang: string): Proposal[] {
  const out: Proposal[] = [];
  const records: SentenceRecord[] = [];
  let unit = 0;
  for (const p of freeParagraphs(text, consumed)) {
    if (skipParagraph(p)) continue;
    const abbreviations = abbreviationItems(text, p);
    if (abbreviations.length) {
      out.push(...abbreviations);
      continue;
    }
    const spans = sentenceSpans(p, lang);
    spans.forEach((span, i) => {
      const s = collapse(text.slice(span.start, span.end));
      const lineStart = atLineStart(text, p, span);
      records.push({
        p,
        spans,
        i,
        text: s,
        unit: lineStart ? unit++ : -1,
        glossary: lineStart ? findGlossary(s) : null,
      });
    });
  }
  const glossary = acceptGlossary(records);
  for (const r of records) {
    const atom = sentenceAtom(text, r, glossary.has(r));
    if (atom) out.push(atom);
  }
  return out;
}
