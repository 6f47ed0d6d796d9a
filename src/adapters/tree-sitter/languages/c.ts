/**
 * C (tree-sitter-c): function definitions and file-level prototypes (`function`; a header's prototypes carry its
 * API docs), function-like macros (`function`), object-like macros with a value and file-level `const` objects
 * (`constant`; an include guard's bare `#define X_H` is not one), structs and unions (`struct`), enums, typedefs
 * (`type`; a typedef that defines a struct/union/enum body is that struct/enum under the typedef's name:
 * `typedef struct ring {…} ring_t` → struct `ring_t`, signature `typedef struct ring`). Imports: `#include` paths
 * (`stdio.h`, `ring.h`: an edge only, C binds no names). Calls: plain calls and calls through a member
 * (`r->ops->push(r)` → `push` on `r->ops`). No inheritance: C has none. Docs: the `/* … *\/` or `//` block above.
 * File level includes preprocessor conditionals (include guards) and `extern "C" { … }`.
 * Not extracted: calls through a dereferenced function pointer (`(*fp)(x)`), declarations produced by macros,
 * definitions inside a function body (local structs, local prototypes), `extern` object declarations.
 */
import type { LanguageSpec } from "./spec.ts";

/** Node types whose children are file-level declarations (include guards, `#if` branches, `extern "C"` blocks). */
export const C_FILE_SCOPES = [
  "translation_unit",
  "preproc_if",
  "preproc_ifdef",
  "preproc_else",
  "preproc_elif",
  "preproc_elifdef",
  "declaration_list",
] as const;

/** `pattern` (which must carry its own captures) as a direct child of any of `parents`: one alternation. */
export function childOf(parents: readonly string[], pattern: string): string {
  return `[${parents.map((p) => `(${p} ${pattern})`).join(" ")}]`;
}

/** A declarator that names a function `@name`: `f(…)`, `*f(…)`, `**f(…)`; `name` is the node types allowed. */
export function functionDeclarator(name: string): string {
  const fn = `(function_declarator declarator: ${name} @name)`;
  return `[${fn} (pointer_declarator declarator: ${fn}) (pointer_declarator declarator: (pointer_declarator declarator: ${fn}))]`;
}

/** The declarator of a typedef naming `@name`: `t`, `*t`, `t[N]`, `(*t)(…)`. */
export const typedefDeclarator = `[(type_identifier) @name
  (pointer_declarator declarator: (type_identifier) @name)
  (array_declarator declarator: (type_identifier) @name)
  (function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (type_identifier) @name)))]`;

/**
 * Struct, union and enum definitions: under a typedef they take its name (pattern first, so it wins over the plain
 * typedef pattern for the same name); elsewhere (file level, `struct s {…} v;`, nested in a struct) their tag.
 */
export function aggregateDefinitions(scopes: readonly string[]): string {
  const kinds: [string, string][] = [["struct_specifier", "struct"], ["union_specifier", "struct"], ["enum_specifier", "enum"]];
  const out: string[] = [];
  for (const [type, kind] of kinds) {
    out.push(`(type_definition type: (${type} body: (_) @body) declarator: (type_identifier) @name) @definition.${kind}`);
    const tagged = `(${type} name: (type_identifier) @name body: (_)) @definition.${kind}`;
    out.push(childOf(scopes, tagged));
    out.push(`[(declaration type: ${tagged}) (field_declaration type: ${tagged})]`);
  }
  return out.join("\n");
}

/** File-level `const` objects (`static const size_t MAX = 64;`, `const char *NAME = "x";`, `const int T[] = {…}`). */
export function constObjects(scopes: readonly string[]): string {
  const declarator = `[(identifier) @name (pointer_declarator declarator: (identifier) @name) (array_declarator declarator: (identifier) @name)]`;
  const declaration = `((declaration (type_qualifier) @_q declarator: (init_declarator declarator: ${declarator})) @definition.constant
    (#eq? @_q "const"))`;
  return childOf(scopes, declaration);
}

const definitions = `
(function_definition declarator: ${functionDeclarator("(identifier)")}) @definition.function
${childOf(C_FILE_SCOPES, `(declaration declarator: ${functionDeclarator("(identifier)")}) @definition.function`)}
${aggregateDefinitions(C_FILE_SCOPES)}
(type_definition declarator: ${typedefDeclarator}) @definition.type
(preproc_function_def name: (identifier) @name value: (_)? @body) @definition.function
(preproc_def name: (identifier) @name value: (_)) @definition.constant
${constObjects(C_FILE_SCOPES)}
`;

/** `#include` as an edge to the path as written, without quotes or angle brackets. */
export const includeImports = `
(preproc_include path: (_) @import.module) @import
`;

const calls = `
(call_expression function: (identifier) @callee) @call
(call_expression function: (field_expression argument: (_) @receiver field: (field_identifier) @callee)) @call
`;

/** C. */
export const c: LanguageSpec = {
  language: "c",
  grammar: "c",
  extensions: [".c", ".h"],
  queries: { definitions, imports: includeImports, calls },
  commentTypes: ["comment"],
};
