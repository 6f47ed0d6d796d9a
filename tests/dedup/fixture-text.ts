/**
 * The text of a fixture as the project reads it, for checking that a pair's `a` is really quoted from it: `.txt`
 * files as UTF-8, HTML through the project's HTML parser (Readability), PDF through its PDF parser. Cached per
 * path. Comparison is on {@link foldForQuote}: NFKC, lower case, whitespace runs as one space.
 */
import { readFileSync } from "node:fs";
import { htmlParser } from "../../src/adapters/parsers/html/html-parser.ts";
import { pdfParser } from "../../src/adapters/parsers/pdf/index.ts";
import type { ParseLimits } from "../../src/ports/models/parser.ts";
import { fixturePath } from "../support/shared.ts";

const LIMITS: ParseLimits = {
  maxBytes: 64 << 20,
  maxZipEntries: 10_000,
  maxZipTotalBytes: 256 << 20,
  maxZipEntryBytes: 64 << 20,
};
const cache = new Map<string, Promise<string>>();

/** NFKC, lower case, every whitespace run as one space, trimmed. */
export function foldForQuote(s: string): string {
  return s.normalize("NFKC").toLowerCase().replace(/\s+/gu, " ").trim();
}

async function read(rel: string): Promise<string> {
  const path = fixturePath(rel);
  if (rel.endsWith(".txt")) return readFileSync(path, "utf8");
  const parser = rel.endsWith(".pdf") ? pdfParser : rel.endsWith(".html") ? htmlParser : null;
  if (!parser) throw new Error(`no reader for fixture '${rel}': expected .txt, .html or .pdf`);
  const doc = await parser.parse({ bytes: new Uint8Array(readFileSync(path)), uri: `file://${path}` }, LIMITS);
  return doc.sections.map((s) => s.text).join("\n\n");
}

/** The folded text of fixture `rel` (a path under shared/fixtures). @throws when the file is missing or unreadable. */
export function fixtureText(rel: string): Promise<string> {
  let p = cache.get(rel);
  if (!p) {
    p = read(rel).then(foldForQuote);
    cache.set(rel, p);
  }
  return p;
}
