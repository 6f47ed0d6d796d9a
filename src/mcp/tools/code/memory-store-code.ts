/** memory_store_code tool. */
import { z } from "zod";
import { storeCode } from "../../../core/code/ingest.ts";
import { VENDORED_DIRS } from "../../../core/code/walk.ts";
import { id } from "../../schemas.ts";
import type { ToolDef } from "../../tool.ts";
import { conciseStoreCode, renderStoreCode } from "./render.ts";
import { CODE_LANGUAGES } from "../../../core/services.ts";

const counts = z.record(z.string(), z.number().int());

/** Store a repository's code symbols, dependencies and documented symbols. */
export const memoryStoreCode: ToolDef = {
  name: "memory_store_code",
  title: "Store a code repository",
  description: "Store a code repository's symbols and dependencies (12 languages; incremental).",
  details:
    "Walk a code repository (a directory inside the server's PEGAS_INGEST_ROOTS) and store its symbols (functions, " +
    "methods, classes, interfaces, structs, enums, modules, constants, types: qualified name, signature, path and line " +
    `range, docstring) and dependencies (imports, calls, inherits) for ${CODE_LANGUAGES.join(", ")}, parsed by tree-sitter. ` +
    "Honours .gitignore files at every level; skips .git, hidden files and directories, and dependency directories " +
    `below the path (${[...VENDORED_DIRS].slice(0, 8).join(", ")}, virtualenvs, …; an include pattern that names one, ` +
    "e.g. 'node_modules/x/**', walks it), symlinks, binary files, generated files (minified bundles, " +
    "lockfiles, 'Code generated … DO NOT EDIT' headers) and files over 1 MiB. Incremental: a file whose content hash is " +
    "unchanged is not parsed again, a changed one is replaced, one that is gone (or now ignored/excluded) is removed. " +
    "Dependency targets are resolved to symbols when unambiguous (same file, import, same package), else kept as names. " +
    "Documented public symbols also become `code` atoms cited as path:line, so memory_search finds them beside text. " +
    "A file that cannot be read or parsed is reported in `errors` (and counted in files.failed) and the walk goes on. " +
    "Sends progress notifications (strictly increasing; the message names the phase: walk, parse, write, resolve; total once known); " +
    "cancellation keeps what was committed (batches of 200 files) and a new call continues.",
  fieldDetails: {
    path: "the repository directory (absolute, or relative to the server's working directory)",
    exclude: "gitignore-syntax patterns to leave out (e.g. ['tests/', '*_test.go'])",
    languages: "only these languages",
  },
  inputSchema: {
    path: z.string().min(1).max(4096),
    repo: z.string().min(1).max(300).optional().describe("default: the absolute path"),
    include: z.array(z.string().min(1).max(500)).max(200).optional().describe("gitignore patterns"),
    exclude: z.array(z.string().min(1).max(500)).max(200).optional(),
    languages: z.array(z.enum(CODE_LANGUAGES)).optional(),
  },
  outputSchema: {
    repo: z.string().describe("the repository key for memory_search_code / memory_code_graph"),
    doc_id: id.describe("the repository's code_repo document"),
    root: z.string(),
    files: z.object({
      seen: z.number().int(),
      parsed: z.number().int(),
      unchanged: z.number().int().describe("same content hash as stored: not parsed"),
      failed: z.number().int().describe("files that could not be read, parsed or stored (each in errors)"),
      removed: z
        .number()
        .int()
        .describe("stored files that are gone, ignored or excluded now: their symbols were removed"),
      skipped: counts.describe(
        "files passed over by reason: hidden, ignored, excluded, not_included, unsupported, language_filtered, symlink, binary, generated, too_large",
      ),
    }),
    directories_skipped: counts.describe(
      "directories not entered by reason: vendored, hidden, vcs, ignored, excluded, symlink, unreadable",
    ),
    symbols: z.number().int().describe("symbols stored from the files parsed now"),
    dependencies: z.object({
      stored: z.number().int().describe("edges stored from the files parsed now"),
      resolved_now: z.number().int().describe("targets resolved to a symbol by this call"),
      resolved: z.number().int().describe("edges of the repository with a resolved target"),
      unresolved: z
        .number()
        .int()
        .describe("edges of the repository whose target is only a name (external or ambiguous)"),
    }),
    atoms: z.object({
      created: z.number().int(),
      existing: z.number().int(),
      staled: z.number().int().describe("code atoms whose symbol changed or went"),
    }),
    syntax_error_files: z.number().int().describe("parsed files with syntax errors (extracted as far as they parse)"),
    noted: z
      .array(z.object({ path: z.string(), reason: z.string() }))
      .describe(
        "files worth a look (at most 100), on every run: skipped as binary, generated or too_large, with syntax errors, or decoded with a guessed charset ('charset windows-1251 (detected)')",
      ),
    noted_total: z.number().int(),
    errors: z
      .array(z.object({ path: z.string(), code: z.string(), message: z.string() }))
      .describe(
        "files that failed (unreadable: INVALID_INPUT; a parse or store failure keeps its code on later runs while unchanged) and unreadable directories (path ending in '/'), at most 100",
      ),
    errors_total: z.number().int().describe("files.failed + directories_skipped.unreadable"),
    warnings: z.array(z.string()),
    took_ms: z.number(),
  },
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  run: async (services, args, ctx) => ({
    ...(await storeCode(services, args, {
      signal: ctx.signal,
      onProgress: (p, t, m) => ctx.progress(p, t, m),
    })),
  }),
  render: renderStoreCode,
  concise: conciseStoreCode,
};
