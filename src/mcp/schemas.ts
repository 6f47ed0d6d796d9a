/** zod schemas shared by several tools' input and output shapes. */
import { z } from "zod";
import { ATOM_STATUSES, ATOM_TYPES, SEARCHABLE_STATUSES } from "../domain/atom.ts";

/** An atom type. */
export const atomType = z.enum(ATOM_TYPES);
/** An atom status. */
export const atomStatus = z.enum(ATOM_STATUSES);
/** A status a search may filter by (never `retracted`). */
export const searchableStatus = z.enum(SEARCHABLE_STATUSES as [string, ...string[]]);
/** A database id (positive integer). */
export const id = z.number().int().positive();

/** Where evidence sits in its document. */
export const locator = z
  .object({
    char_start: z.number().int().optional(),
    char_end: z.number().int().optional(),
    line_start: z.number().int().optional(),
    line_end: z.number().int().optional(),
    page: z.number().int().optional(),
    chapter: z.string().optional(),
    chapter_index: z.number().int().optional(),
    href: z.string().optional(),
  })
  .describe(
    "char_* are code-point offsets (0-based, end exclusive) in the document text; line_* are 1-based, inclusive; " +
      "chapter_index is the EPUB spine position; href the EPUB chapter file, or the file path in a code repository",
  );

/** A citation: atom → document → locator → quoted text. */
export const citation = z.object({
  doc_id: id,
  uri: z.string(),
  title: z.string().nullable(),
  kind: z.string(),
  doc_version: z.number().int(),
  locator,
  quote: z.string(),
});

/** One recorded status change of an atom. */
export const statusChange = z.object({
  change_id: id,
  atom_id: id,
  from: atomStatus,
  to: atomStatus,
  reason: z.string(),
  evidence: z.array(z.number().int()).describe("atom ids that support the change"),
});

/** A status change as the atom's history shows it: who made it, and whether it was undone. */
export const statusHistoryEntry = statusChange.extend({
  actor: z.string().describe("verify | revert | unmerge | forget | …"),
  reverts: id.optional().describe("the change this one undid"),
  reverted_at: z.string().optional().describe("when this change was undone (ISO 8601)"),
  created_at: z.string(),
});

/**
 * The `response_format` input of tools whose "detailed" answer adds scores, ranks and per-item data (tool.ts). Listed
 * without a description (its values say it, and ten tools carry it on every request); docs and CLI help take
 * {@link RESPONSE_FORMAT_DETAIL}.
 */
export const responseFormat = z.enum(["concise", "detailed"]).optional();

/** What docs and CLI help say of `response_format`. */
export const RESPONSE_FORMAT_DETAIL =
  "concise (default) holds what the text holds; detailed adds scores, ranks and per-item data";

/** The words docs and CLI help give an input field the listed schema leaves undescribed. */
export function fieldDetail(fieldDetails: Record<string, string> | undefined, name: string): string {
  return fieldDetails?.[name] ?? (name === "response_format" ? RESPONSE_FORMAT_DETAIL : "");
}

/**
 * A read time (valid_at, known_at): an ISO 8601 date or date-time; a date counts to its last instant. No length bound
 * in the schema (the listing's token budget): core/search/as-of.ts refuses anything that is not a date.
 */
export const readTime = z.string();
