/**
 * The units a snippet is chosen from (search hits and memory_get_context lines): sentences of prose, and lines of
 * tables and code whole. A passage of a Markdown source (or of a web page, whose code the HTML parser fences) keeps
 * its markup in memory, since citations quote it; here its block syntax is read rather than shown, so that no `#`,
 * list bullet, fence or HTML comment reaches a line of the answer: a heading (`## Configuration`, or a Setext one)
 * becomes the unit "Configuration:", a list item (`- `, `* `, `+ `, `1. `) its own unit without its marker, a fenced
 * block's lines whole units without the fences, a quote's `>` and `<!-- comments -->` are dropped, and a thematic
 * break says nothing. Inline markup (`code`, **bold**, links) is kept: the lines are Markdown themselves. Pure.
 */
import { detectLang, sentenceSegmenter } from "../../domain/text.ts";

const HEADING = /^ {0,3}#{1,6}(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/u;
const SETEXT = /^ {0,3}(?:=+|-+)[ \t]*$/u;
const BREAK = /^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$/u;
const BULLET = /^[ \t]*[-*+][ \t]+/u;
/** An ordered item; as in CommonMark, only "1." may interrupt a paragraph (a wrapped line may begin "1998."). */
const ORDERED = /^[ \t]*(\d{1,3})[.)][ \t]+/u;
const FENCE = /^[ \t]*(`{3,}|~{3,})/u;
const QUOTE = /^[ \t]*(?:>[ \t]?)+/u;
const COMMENT = /<!--[\s\S]*?-->/gu;

/** A heading's text as a unit: "Configuration:" (no colon after a heading that ends in punctuation). */
export function headingUnit(text: string): string {
  const t = text.replace(/\s+/gu, " ").trim();
  return !t || /[.:!?…;]$/u.test(t) ? t : `${t}:`;
}

/** A claim or a line as a context line shows it: without a leading `#` heading marker, list marker or `>`. */
export function plainLine(text: string): string {
  const heading = HEADING.exec(text.split("\n")[0]);
  const rest = heading ? `${headingUnit(heading[1] ?? "")} ${text.slice(text.indexOf("\n") + 1 || text.length)}` : text;
  return rest.replace(QUOTE, "").replace(BULLET, "").replace(ORDERED, "").trim();
}

/**
 * The units of a text: each line of a table (`|`-rows), of code (`code`) or of a fenced block whole, prose cut into
 * sentences (the lines of a paragraph joined first: hard-wrapped text breaks its sentences over lines; a blank line,
 * a heading and a list item end a paragraph); Markdown block syntax read as the module comment says; whitespace
 * collapsed, empty units dropped.
 */
export function textUnits(text: string, code = false): string[] {
  const units: string[] = [];
  let prose: string[] = [];
  const flush = () => {
    const flat = prose.join(" ").replace(/\s+/gu, " ").trim();
    prose = [];
    if (!flat) return;
    for (const s of sentenceSegmenter(detectLang(flat)).segment(flat)) {
      const u = s.segment.trim();
      if (u) units.push(u);
    }
  };
  let fence: string | null = null;
  let inQuote = false;
  for (const raw of (code ? text : text.replace(COMMENT, " ")).split("\n")) {
    const flat = raw.replace(/\s+/gu, " ").trim();
    if (code) {
      if (flat && !/^\|[\s|:-]*\|$/.test(flat)) units.push(flat);
      continue;
    }
    const open = FENCE.exec(raw)?.[1];
    if (fence !== null || open) {
      flush();
      // A fence closes on a line of at least as many of its marks; its own lines are no content.
      if (fence === null) fence = open ?? null;
      else if (open && open[0] === fence[0] && open.length >= fence.length && !raw.trim().slice(open.length))
        fence = null;
      else if (flat) units.push(flat);
      continue;
    }
    if (flat.startsWith("|")) {
      flush();
      if (!/^\|[\s|:-]*\|$/.test(flat)) units.push(flat); // a table's `| --- |` rule says nothing
      continue;
    }
    const quoted = QUOTE.test(raw);
    // A quote begins a block of its own; its `>` marks are no content.
    if (quoted !== inQuote) flush();
    inQuote = quoted;
    const line = raw.replace(QUOTE, "");
    const heading = HEADING.exec(line);
    if (heading) {
      flush();
      const h = headingUnit(heading[1] ?? "");
      if (h) units.push(h);
    } else if (SETEXT.test(line) && prose.length && prose[prose.length - 1]) {
      const h = headingUnit(prose.pop() ?? "");
      flush();
      if (h) units.push(h);
    } else if (BREAK.test(line) || !line.trim()) flush();
    else if (BULLET.test(line)) {
      flush();
      prose.push(line.replace(BULLET, ""));
    } else if (ORDERED.exec(line) && (!prose.length || ORDERED.exec(line)?.[1] === "1")) {
      flush();
      prose.push(line.replace(ORDERED, ""));
    } else prose.push(line);
  }
  flush();
  return units;
}
