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

/**
 * A declarator that declares a function: `f(…)`, `*f(…)`, `**f(…)` (and `&f(…)` when `references`); `name` is the
 * pattern of the function_declarator's own declarator, with its captures (`(identifier) @name`).
 */
export function functionDeclarator(name: string, references = false): string {
  const fn = `(function_declarator declarator: ${name})`;
  const refs = references ? ` (reference_declarator ${fn})` : "";
  return `[${fn} (pointer_declarator declarator: ${fn}) (pointer_declarator declarator: (pointer_declarator declarator: ${fn}))${refs}]`;
}

/**
 * Prototypes declared by `fd` (a {@link functionDeclarator}): the ones inside a function body are claimed by a
 * `@skip` first (a local prototype, or C++'s `Widget w(a);`, which parses as one), so only file-, namespace- and
 * class-level ones become symbols. Cheaper to compile than listing every file-level parent.
 */
export function prototypes(fd: string): string {
  const declaration = `(declaration declarator: ${fd})`;
  return `(compound_statement ${declaration} @skip)\n${declaration} @definition.function`;
}

/** The declarator of a typedef naming `@name`: `t`, `*t`, `t[N]`, `(*t)(…)`. */
export const typedefDeclarator = `[(type_identifier) @name
  (pointer_declarator declarator: (type_identifier) @name)
  (array_declarator declarator: (type_identifier) @name)
  (function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (type_identifier) @name)))]`;

/** C's aggregate specifiers and the kind each defines. */
export const C_AGGREGATES: readonly (readonly [string, "struct" | "enum" | "class"])[] = [
  ["struct_specifier", "struct"],
  ["union_specifier", "struct"],
  ["enum_specifier", "enum"],
];

/**
 * Struct, union and enum (and C++ class) definitions: under a typedef they take its name (pattern first, so it wins
 * over the plain typedef pattern for the same name) and their tag is claimed by a `@skip`, so it never nests as
 * `ring_t.ring`; elsewhere (file level, `struct s {…} v;`, nested in a struct) they are named by their tag.
 */
export function aggregateDefinitions(kinds = C_AGGREGATES): string {
  const out: string[] = [];
  for (const [type, kind] of kinds) {
    out.push(
      `(type_definition type: (${type} body: (_) @body) declarator: (type_identifier) @name) @definition.${kind}`,
    );
    out.push(`(type_definition type: (${type} name: (type_identifier) @name) @skip)`);
    out.push(`(${type} name: (type_identifier) @name body: (_)) @definition.${kind}`);
  }
  return out.join("\n");
}

/**
 * Objects declared with one of `qualifiers` outside functions (`static const size_t MAX = 64;`, `const char *NAME =
 * "x";`, `const int T[] = {…}`, C++ `constexpr`); those in a function body or a `for` header are claimed by a `@skip`.
 */
export function constObjects(qualifiers: readonly string[] = ["const"]): string {
  const declarator = `[(identifier) @name (pointer_declarator declarator: (identifier) @name) (array_declarator declarator: (identifier) @name)]`;
  const declaration = `(declaration (type_qualifier) @_q declarator: (init_declarator declarator: ${declarator}))`;
  const names = qualifiers.map((q) => `"${q}"`).join(" ");
  return `[(compound_statement ${declaration} @skip) (for_statement initializer: ${declaration} @skip)]
(${declaration} @definition.constant (#any-of? @_q ${names}))`;
}

const definitions = `
(function_definition declarator: ${functionDeclarator("(identifier) @name")}) @definition.function
${prototypes(functionDeclarator("(identifier) @name"))}
${aggregateDefinitions()}
(type_definition declarator: ${typedefDeclarator}) @definition.type
(preproc_function_def name: (identifier) @name value: (_)? @body) @definition.function
(preproc_def name: (identifier) @name value: (_)) @definition.constant
${constObjects()}
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
