/**
 * Code without fences: code pasted into text or extracted without markup (the block's whitespace kept, but no fence
 * and no language; a blank line inside the block splits it into paragraphs) and Markdown's indented blocks. A
 * paragraph is code when most of its lines look like code and none reads as prose; neighbouring code paragraphs
 * are one block. (Our HTML parser fences `<pre>`: code-block.ts.)
 */
import { scanTokens } from "../../../../domain/text.ts";
import { collapse, type Paragraph } from "./blocks.ts";

/** Line shapes that only code has: comments, preprocessor, prompts, statement and block ends, calls, operators. */
const STRONG = [
  /^\s*(?:\/\/|\/\*|\*\/|#include\b|#define\b|#!\/|<\?php|<!--)/,
  /^\s*\$ \S/,
  /[;{]\s*$/,
  /^\s*[)}\]]+[;,)]*\s*$/,
  /=>|->|::|\+\+|--\w|&&|\+=|-=|===?|!==?|<=|>=/,
  /\b(?:const|let|var|function|return|import|export|def|class|public|private|static|void|int|char|fn|func|struct|package|#?define)\b.*[({=:;]/,
  /\b[\w$.]+\([^()]*\)\s*[;{)]?\s*$/,
  /^\s*\((?:func|module|param|local|i32|i64|f32|f64|call|export|import)\b/,
];

/** A one-line shell command: a lower-case program name followed by at least one option (`emcc -O3 add.c`). */
const COMMAND = /^(?:\$ )?[a-z][\w.+-]*(?: +(?:-{1,2}[\w=.+-]+|[\w./=:@+-]+))* +-{1,2}[A-Za-z][\w=.+-]*(?: +\S+)*$/;

function isStrong(line: string): boolean {
  return STRONG.some((r) => r.test(line));
}

/** Characters that are rare in prose and common in code. */
const CODE_PUNCT = /[{}()[\];=<>$&|*/\\]/g;

/** Prose: six or more words and (almost) no code punctuation, whatever the line ends with. */
export function isProse(line: string): boolean {
  const t = line.trim();
  let words = 0; // pieces of t.split(/\s+/) with two letters in a row
  scanTokens(t, (_s, _e, _letters, run) => {
    if (run >= 2) words++;
  });
  if (words < 6) return false;
  const punct = (t.match(CODE_PUNCT) ?? []).length;
  return punct < t.length * 0.03 && !/=>|\(\)|;\s*$|\{\s*$/.test(t);
}

/** Code marks beyond a line ending: an operator, a call, a keyword with syntax, a comment or a prompt. */
function hasCodeToken(line: string): boolean {
  return STRONG.some((r, i) => i !== 2 && r.test(line));
}

/** A line that fits code without proving it: an ALL_CAPS macro, closing brackets, or program output after a prompt. */
function isNeutral(line: string, session: boolean): boolean {
  const t = line.trim();
  return /^[A-Z][A-Z0-9_]{2,}$/.test(t) || /^[)}\]]+[;,]?$/.test(t) || (session && t.length <= 60);
}

/** One line alone is code only with unmistakable marks: a shell command with an option, braces with a call or arrow, or a statement. */
function singleLineCode(t: string): boolean {
  if (!/\p{L}{2}/u.test(t) || isProse(t)) return false;
  return COMMAND.test(t) || (/[{}]/.test(t) && /=>|\w\(.*\)/.test(t)) || (/;\s*$/.test(t) && hasCodeToken(t));
}

/** True when the paragraph is code (see module doc). */
export function looksLikeCode(text: string): boolean {
  const lines = text.split("\n").filter((l) => l.trim());
  if (lines.length === 0) return false;
  if (lines.length === 1) return singleLineCode(lines[0].trim());
  if (lines.some(isProse)) return false;
  const session = lines.some((l) => /^\s*\$ \S/.test(l));
  const strong = lines.filter(isStrong).length;
  const neutral = lines.filter((l) => !isStrong(l) && isNeutral(l, session)).length;
  const indented = lines.filter((l) => /^(?: {2,}|\t)\S/.test(l)).length;
  return strong >= Math.max(1, lines.length * 0.3) && (strong + neutral + indented * 0.5) / lines.length >= 0.6;
}

/** Markdown indented code: every line indented by four spaces or a tab, and not prose. */
export function isIndentedBlock(text: string, rawFirstLineIndent: string): boolean {
  const lines = text.split("\n").filter((l) => l.trim());
  if (!/^(?: {4,}|\t)$/.test(rawFirstLineIndent)) return false;
  return lines.slice(1).every((l) => /^(?: {4,}|\t)/.test(l)) && !lines.some(isProse);
}

/** Languages by the file extension a first-line comment names (`// hello.cpp`). */
const EXTENSIONS: Record<string, string> = {
  c: "c",
  h: "c",
  cc: "cpp",
  cpp: "cpp",
  cxx: "cpp",
  hpp: "cpp",
  js: "javascript",
  mjs: "javascript",
  ts: "typescript",
  py: "python",
  rs: "rust",
  go: "go",
  java: "java",
  rb: "ruby",
  sh: "shell",
  bash: "shell",
  sql: "sql",
  wat: "wat",
};

/** A likely language for unfenced code, from marks only that language uses; undefined when unsure. */
export function guessLanguage(code: string): string | undefined {
  const named = /^\s*(?:\/\/|#|--|;+)\s*[\w./-]+\.(\w+)\s*$/m.exec(code.split("\n", 1)[0]);
  const ext = named?.[1].toLowerCase();
  if (ext && Object.hasOwn(EXTENSIONS, ext)) return EXTENSIONS[ext]; // own keys only: "// a.constructor" is no language
  if (/^\s*\((?:func|module)\b/m.test(code)) return "wat";
  if (/#include\s*<(?:iostream|vector|string)>|std::|\bcout\b/.test(code)) return "cpp";
  if (/#include\s*[<"]/.test(code)) return "c";
  if (/^\s*\$ /m.test(code) || COMMAND.test(code.trim())) return "shell";
  if (/\b(?:const|let|var)\s+\w+\s*=|=>|console\.\w+\(|require\(/.test(code)) return "javascript";
  if (/^\s*def \w+\(.*\):\s*$|^\s*from [\w.]+ import /m.test(code)) return "python";
  if (/^\s*(?:SELECT|INSERT|CREATE TABLE|UPDATE)\b/im.test(code)) return "sql";
  return undefined;
}

/** Merges runs of neighbouring code paragraphs (only blank lines between them) into blocks. */
export function mergeRuns(
  paragraphs: Paragraph[],
  isCode: (p: Paragraph, i: number) => boolean,
  text: string,
): Paragraph[][] {
  const runs: Paragraph[][] = [];
  let run: Paragraph[] = [];
  paragraphs.forEach((p, i) => {
    const prev = run[run.length - 1];
    const adjacent = prev && !text.slice(prev.end, p.start).trim();
    if (isCode(p, i)) {
      if (prev && !adjacent) {
        runs.push(run);
        run = [];
      }
      run.push(p);
    } else if (run.length) {
      runs.push(run);
      run = [];
    }
  });
  if (run.length) runs.push(run);
  return runs;
}

/**
 * One-line summary of a code block: the introducing sentence right before it when that ends with a colon ("For
 * example, we can do this in Node.js:"), else the block's first line (often a `// file.c` comment), prefixed by
 * "Code" and the language when known.
 */
export function codeClaim(code: string, lang: string | undefined, intro: string | null): string {
  const prefix = lang ? `Code (${lang})` : "Code";
  const introText = intro && /:\s*$/.test(intro) ? collapse(intro).replace(/:\s*$/, "") : "";
  const first = collapse(code.split("\n").find((l) => l.trim()) ?? "").replace(/^(?:\/\/|#|--|;+)\s*/, "");
  const summary = introText ? (introText.split(/(?<=[.!?])\s+/).pop() ?? introText) : first;
  return `${prefix}: ${summary}`;
}
