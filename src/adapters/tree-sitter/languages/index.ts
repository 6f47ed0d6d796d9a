/**
 * The language registry: CodeLanguage → LanguageSpec, and path → language. Adding a language is one import and
 * one line in LANGUAGE_SPECS (its spec file has the shape of `python.ts`); the extension and file-name tables
 * below are derived from the specs, so nothing else changes.
 */
import type { CodeLanguage } from "../../../ports/models/symbol-extractor.ts";
import { bash } from "./bash.ts";
import { c } from "./c.ts";
import { c_sharp } from "./c_sharp.ts";
import { cpp } from "./cpp.ts";
import { go } from "./go.ts";
import { java } from "./java.ts";
import { javascript } from "./javascript.ts";
import { python } from "./python.ts";
import { ruby } from "./ruby.ts";
import { rust } from "./rust.ts";
import type { LanguageSpec } from "./spec.ts";
import { tsx, typescript } from "./typescript.ts";

/** Every registered spec by language; a language without an entry has no grammar (UNSUPPORTED_MEDIA). */
export const LANGUAGE_SPECS: Readonly<Partial<Record<CodeLanguage, LanguageSpec>>> = {
  python,
  javascript,
  typescript,
  tsx,
  go,
  rust,
  java,
  c,
  cpp,
  c_sharp,
  ruby,
  bash,
};

const byExtension = new Map<string, CodeLanguage>();
const byFileName = new Map<string, CodeLanguage>();
const byInterpreter = new Map<string, CodeLanguage>();
for (const spec of Object.values(LANGUAGE_SPECS)) {
  if (!spec) continue;
  for (const ext of spec.extensions) byExtension.set(ext.toLowerCase(), spec.language);
  for (const name of spec.fileNames ?? []) byFileName.set(name, spec.language);
  for (const name of spec.interpreters ?? []) byInterpreter.set(name, spec.language);
}

/**
 * The language of a path (any separators) by its exact file name (`.bashrc`), else its last extension compared
 * case-insensitively (`.PY` → python); null when no registered spec claims it.
 */
export function languageOfPath(path: string): CodeLanguage | null {
  const base = path.slice(Math.max(path.lastIndexOf("/"), path.lastIndexOf("\\")) + 1);
  const named = byFileName.get(base);
  if (named) return named;
  const dot = base.lastIndexOf(".");
  if (dot <= 0) return null;
  return byExtension.get(base.slice(dot).toLowerCase()) ?? null;
}

/**
 * The language named by a `#!` line at the start of `source` (`#!/usr/bin/env python3`, `#!/bin/bash -e`), for
 * files with no telling extension; null when there is none or no registered spec claims the interpreter.
 */
export function languageFromShebang(source: string): CodeLanguage | null {
  const line = /^#!\s*(\S+)(?:[ \t]+([^\r\n]*))?/.exec(source);
  if (!line) return null;
  let program = line[1].slice(line[1].lastIndexOf("/") + 1);
  if (program === "env") {
    const args = (line[2] ?? "").split(/\s+/).filter((a) => a !== "" && !a.startsWith("-") && !a.includes("="));
    program = args[0] ?? "";
  }
  const exact = byInterpreter.get(program);
  if (exact) return exact;
  // python3.12 → python3
  return (
    byInterpreter.get(program.replace(/[\d.]+$/, "")) ?? byInterpreter.get(program.replace(/\.[\d.]+$/, "")) ?? null
  );
}
