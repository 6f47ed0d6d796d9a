/**
 * The block pass: everything that is not prose, found before sentences so that code and table cells never become
 * "sentences". Order matters: fenced blocks (JSON rule blocks or code), bare one-line rule objects, tables, then
 * unfenced code paragraphs. Each pass marks its spans consumed.
 */
import { type Consumed, freeParagraphs, trimSpan, type Paragraph } from "./blocks.ts";
import { fencedBlocks } from "./fences.ts";
import { codeClaim, guessLanguage, isIndentedBlock, looksLikeCode, mergeRuns } from "./code.ts";
import { PRIORS } from "../priors.ts";
import { proposal, type Proposal } from "../proposal.ts";
import { bareRules, ruleClaim, ruleContent, rulesInJson } from "../rules.ts";
import { findTables, type FoundTable } from "./tables.ts";

/** The paragraph right before `start` (only whitespace between), for a code block's introducing sentence. */
function paragraphBefore(text: string, start: number): string | null {
  let end = start;
  while (end > 0 && /\s/u.test(text[end - 1])) end--;
  // Walk back line by line (not over the whole prefix: many blocks in one text must stay linear).
  let from = end;
  while (from > 0) {
    const lineStart = text.lastIndexOf("\n", from - 2) + 1;
    if (!text.slice(lineStart, from).trim()) break;
    from = lineStart;
    if (lineStart === 0) break;
  }
  return text.slice(from, end).trim() || null;
}

function fencedPass(text: string, consumed: Consumed, out: Proposal[]): void {
  for (const block of fencedBlocks(text)) {
    consumed.add(block);
    const body = trimSpan(text, block.body);
    if (body.end <= body.start) continue;
    const code = text.slice(body.start, body.end);
    const rules = block.lang === "json" || block.lang === "jsonc" || block.lang === "" ? rulesInJson(code) : [];
    for (const rule of rules) {
      out.push(
        proposal({
          type: "logical_rule",
          claim: ruleClaim(rule),
          content: ruleContent(rule),
          confidence: PRIORS.logical_rule,
          ...body,
        }),
      );
    }
    if (rules.length) continue;
    const lang = block.lang || guessLanguage(code);
    const claim = codeClaim(code, lang, paragraphBefore(text, block.start));
    out.push(proposal({ type: "code", claim, content: code, confidence: PRIORS.code_fenced, ...body }));
  }
}

function rulePass(text: string, consumed: Consumed, out: Proposal[]): void {
  for (const range of consumed.free(text.length)) {
    for (const found of bareRules(text, range.start, range.end)) {
      consumed.add(found);
      out.push(
        proposal({
          type: "logical_rule",
          claim: ruleClaim(found.rule),
          content: ruleContent(found.rule),
          confidence: PRIORS.logical_rule,
          start: found.start,
          end: found.end,
        }),
      );
    }
  }
}

/** The caption, else the keys of a key/value table, else the header cells; a bare "Table: X" caption gets the keys. */
function tableClaim(t: FoundTable): string {
  if (t.caption && /^\S+\s*:/u.test(t.caption) && t.keys.length >= 2) return `${t.caption} — ${t.keys.join(", ")}`;
  if (t.caption) return t.caption;
  if (t.keys.length >= 2) return `Table: ${t.keys.join(", ")}`;
  return `Table: ${t.header.filter((c) => c).join(" | ")}`;
}

function tablePass(text: string, consumed: Consumed, out: Proposal[]): void {
  for (const range of consumed.free(text.length)) {
    for (const t of findTables(text, range.start, range.end)) {
      if (consumed.overlaps(t)) continue;
      // Code with pipes (shell pipelines) is code, not a table.
      if (looksLikeCode(text.slice(t.start, t.end)) && t.style !== "markdown") continue;
      consumed.add(t);
      const confidence =
        t.style === "markdown" ? PRIORS.table_markdown : t.style === "pipe" ? PRIORS.table_pipe : PRIORS.table_tab;
      out.push(
        proposal({
          type: "table",
          claim: tableClaim(t),
          content: text.slice(t.start, t.end),
          confidence,
          start: t.start,
          end: t.end,
        }),
      );
    }
  }
}

/** The indentation of the paragraph's first line as it stands in the chunk (trimSpan removed it from `p`). */
function firstIndent(text: string, p: Paragraph): string {
  const lineStart = text.lastIndexOf("\n", p.start - 1) + 1;
  return text.slice(lineStart, p.start);
}

function codePass(text: string, consumed: Consumed, out: Proposal[]): void {
  const paragraphs = freeParagraphs(text, consumed);
  const isCode = (p: Paragraph): boolean => looksLikeCode(p.text) || isIndentedBlock(p.text, firstIndent(text, p));
  for (const run of mergeRuns(paragraphs, isCode, text)) {
    const start = run[0].start;
    const end = run[run.length - 1].end;
    // Keep the first line's indentation: it is part of the code's layout.
    const lineStart = text.lastIndexOf("\n", start - 1) + 1;
    const from = /^[ \t]*$/.test(text.slice(lineStart, start)) ? lineStart : start;
    const code = text.slice(from, end);
    consumed.add({ start: from, end });
    const claim = codeClaim(code, guessLanguage(code), paragraphBefore(text, from));
    out.push(proposal({ type: "code", claim, content: code, confidence: PRIORS.code_detected, start: from, end }));
  }
}

/** Runs the block pass over `text`; returns the proposals, and marks their spans in `consumed`. */
export function structuredPass(text: string, consumed: Consumed): Proposal[] {
  const out: Proposal[] = [];
  fencedPass(text, consumed, out);
  rulePass(text, consumed, out);
  tablePass(text, consumed, out);
  codePass(text, consumed, out);
  return out;
}
