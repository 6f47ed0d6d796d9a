/**
 * One walked file of memory_store_code, before the run counts it (code-ingest.ts): too large, unsupported, filtered,
 * generated, binary, unchanged by content hash, or read, extracted and planned into code atoms. Touches no run state,
 * so several files are prepared at once (their extraction runs on the extractor's worker threads).
 */
import { readFile, stat } from "node:fs/promises";
import { sha256Hex } from "../../domain/hash.ts";
import { PegasError, toPegasError } from "../../errors.ts";
import type { CodeFileWrite, StoredCodeFile } from "../../ports/store/code-store.ts";
import { type CodeAtomDraft, planCodeAtoms } from "./atoms.ts";
import {
  MAX_SOURCE_BYTES,
  charsetNote,
  decodeSource,
  generatedByContent,
  generatedByName,
  lineCount,
} from "./files.ts";
import type { RunInput } from "./input.ts";
import type { Services } from "../services.ts";
import { gitignoreRules, type WalkFile } from "./walk.ts";
import type { CodeLanguage } from "../../ports/models/symbol-extractor.ts";

/** A file's row to write and the code atoms planned for it. */
export type Pending = { write: Omit<CodeFileWrite, "atoms">; drafts: CodeAtomDraft[] };

/** What one walked file turned out to be, before the run counts and queues it (code-ingest.ts). */
export type Outcome =
  | { kind: "skip"; path: string; reason: string }
  | { kind: "unreadable"; path: string; error: PegasError }
  | { kind: "unchanged"; path: string; prev: StoredCodeFile; note?: string }
  | {
      kind: "write";
      path: string;
      write: Pending["write"];
      drafts: CodeAtomDraft[];
      skipped?: string;
      error?: unknown;
      note?: string;
    };

/**
 * Reads, classifies and (when changed) extracts one file, without touching the run's state: several files are
 * prepared at once (their extraction runs on the extractor's worker threads), their outcomes applied in walk order.
 */
export async function prepareFile(
  s: Pick<Services, "extractor">,
  input: RunInput,
  stored: Map<string, StoredCodeFile>,
  file: WalkFile,
): Promise<Outcome> {
  const path = file.path;
  const language = s.extractor.languageOf(path);
  if (!language) return { kind: "skip", path, reason: "unsupported" };
  if (input.languages && !input.languages.has(language)) return { kind: "skip", path, reason: "language_filtered" };
  if (generatedByName(path)) return { kind: "skip", path, reason: "generated" };
  let bytes: Uint8Array;
  try {
    if ((await stat(file.abs)).size > MAX_SOURCE_BYTES) return { kind: "skip", path, reason: "too_large" };
    bytes = await readFile(file.abs);
  } catch (error) {
    return { kind: "unreadable", path, error: unreadable(error) };
  }
  if (bytes.length > MAX_SOURCE_BYTES) return { kind: "skip", path, reason: "too_large" };
  const hash = sha256Hex(bytes);
  const prev = stored.get(path);
  if (prev && prev.contentHash === hash && prev.language === language) {
    // Not parsed again; decoded only for its charset note, so that a file keeps its note on every run.
    const d = prev.status === "skipped" ? null : decodeSource(bytes, language);
    return { kind: "unchanged", path, prev, note: (d && charsetNote(d)) ?? undefined };
  }
  const base = {
    path,
    language,
    contentHash: hash,
    byteSize: bytes.length,
    lineCount: 1,
    extracted: null,
    error: null,
  };
  const decoded = decodeSource(bytes, language);
  if (!decoded)
    return {
      kind: "write",
      path,
      write: { ...base, status: "skipped", error: "binary" },
      drafts: [],
      skipped: "binary",
    };
  const text = decoded.text;
  const note = charsetNote(decoded) ?? undefined;
  base.lineCount = lineCount(text);
  if (generatedByContent(text))
    return {
      kind: "write",
      path,
      write: { ...base, status: "skipped", error: "generated" },
      drafts: [],
      skipped: "generated",
    };
  try {
    const extracted = await s.extractor.extract(path, text, language);
    return {
      kind: "write",
      path,
      write: { ...base, status: "parsed", extracted },
      drafts: planCodeAtoms(path, language, extracted.symbols, text, input.repo),
      note,
    };
  } catch (error) {
    if (error instanceof PegasError && error.code === "CANCELLED") throw error;
    return {
      kind: "write",
      path,
      write: { ...base, status: "failed", error: failureText(error) },
      drafts: [],
      error,
      note,
    };
  }
}

/** A file or directory the OS would not let the run read: INVALID_INPUT, the OS message kept (EACCES, EIO…). */
export function unreadable(err: unknown): PegasError {
  return new PegasError("INVALID_INPUT", `unreadable: ${err instanceof Error ? err.message : String(err)}`, {
    hint: "check its permissions, or exclude it",
  });
}

/** Error codes a stored failure may carry (see {@link failureText}). */
const CODES = new Set<string>([
  "NOT_FOUND",
  "INVALID_INPUT",
  "UNSUPPORTED_MEDIA",
  "STORE_UNAVAILABLE",
  "INDEX_UNAVAILABLE",
  "LLM_FAILED",
  "NETWORK_FAILED",
  "MIGRATION_REQUIRED",
  "LIMIT_EXCEEDED",
  "CANCELLED",
  "INTERNAL",
]);

/** A failure as stored in a failed file's `error` column: `CODE: message`, at most 500 characters. */
export function failureText(error: unknown): string {
  const e = toPegasError(error);
  return `${e.code}: ${e.message}`.slice(0, 500);
}

/**
 * The error of a file that failed on an earlier run and is unchanged since: its stored code (`CODE: message`, see
 * {@link failureText}) kept, the message prefixed with "unchanged since it failed"; a row stored without a code
 * (before codes were kept) reads as INTERNAL.
 */
export function storedFailure(text: string | null): PegasError {
  const m = /^([A-Z_]+): ([\s\S]*)$/.exec(text ?? "");
  const code = m && CODES.has(m[1]) ? (m[1] as PegasError["code"]) : "INTERNAL";
  const message = m && CODES.has(m[1]) ? m[2] : (text ?? "unknown error");
  return new PegasError(code, `unchanged since it failed: ${message}`, { hint: "change or exclude the file" });
}

/**
 * Stored files a run did not keep and that its filters cover — gone, ignored, excluded or skipped now — sorted:
 * the files to remove. A file under a directory that could not be read is kept (it may still be there).
 */
export function goneFiles(
  stored: StoredCodeFile[],
  kept: Set<string>,
  input: RunInput,
  unreadableDirs: string[],
): string[] {
  const include = input.include.length ? gitignoreRules(input.include) : null;
  return stored
    .filter((f) => !kept.has(f.path))
    .filter((f) => !include || include.ignores(f.path))
    .filter((f) => !input.languages || input.languages.has(f.language as CodeLanguage))
    .filter((f) => !unreadableDirs.some((d) => d === "." || f.path.startsWith(`${d}/`)))
    .map((f) => f.path)
    .sort();
}
