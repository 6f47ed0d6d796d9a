/**
 * JavaScript (tree-sitter-javascript, JSX included): classes, functions (declarations, generators, arrow and
 * function expressions bound to a name), methods, object-literal methods, top-level `const` bindings; ES imports,
 * re-exports, `require()` and `import()`; calls and `new` with receivers; `extends`. Docs: the comment block above
 * (JSDoc), through `export`.
 */
import type { LanguageSpec } from "./spec.ts";

/** Definition patterns shared by JavaScript and TypeScript (same node names in both grammars). */
export const JS_DEFINITIONS = `
((variable_declarator name: (identifier) @name value: (call_expression function: (identifier) @_require)) @skip
  (#eq? @_require "require"))
(class_declaration name: (_) @name) @definition.class
(method_definition name: (_) @name) @definition.method
(pair key: (_) @name value: [(function_expression body: (_) @body) (arrow_function body: (_) @body)]) @definition.method
(variable_declarator name: (identifier) @name
  value: [(function_expression body: (_) @body) (arrow_function body: (_) @body) (generator_function body: (_) @body)]) @definition.function
(variable_declarator name: (identifier) @name value: (class body: (class_body) @body)) @definition.class
(function_declaration name: (identifier) @name) @definition.function
(generator_function_declaration name: (identifier) @name) @definition.function
(program (lexical_declaration "const" (variable_declarator name: (identifier) @name) @definition.constant))
(program (export_statement (lexical_declaration "const" (variable_declarator name: (identifier) @name) @definition.constant)))
`;

/** Import patterns shared by JavaScript and TypeScript. */
export const JS_IMPORTS = `
(import_statement (import_clause (identifier) @import.alias) source: (string) @import.module (#set! import.name "default")) @import
(import_statement (import_clause (namespace_import (identifier) @import.alias)) source: (string) @import.module) @import
(import_statement (import_clause (named_imports (import_specifier name: (_) @import.name alias: (identifier)? @import.alias))) source: (string) @import.module) @import
(import_statement source: (string) @import.module) @import
(export_statement source: (string) @import.module) @import
((call_expression function: (identifier) @_require arguments: (arguments . (string) @import.module))
  (#eq? @_require "require")) @import
((variable_declarator name: (identifier) @import.alias
   value: (call_expression function: (identifier) @_require arguments: (arguments . (string) @import.module)))
  (#eq? @_require "require")) @import
((variable_declarator
   name: (object_pattern [(shorthand_property_identifier_pattern) @import.name
                          (pair_pattern key: (property_identifier) @import.name value: (identifier) @import.alias)])
   value: (call_expression function: (identifier) @_require arguments: (arguments . (string) @import.module)))
  (#eq? @_require "require")) @import
(call_expression function: (import) arguments: (arguments . (string) @import.module)) @import
`;

/** Call patterns shared by JavaScript and TypeScript (`require` is an import, not a call). */
export const JS_CALLS = `
((call_expression function: (identifier) @callee) @call (#not-eq? @callee "require"))
(call_expression function: (member_expression object: (_) @receiver property: (_) @callee)) @call
(new_expression constructor: (identifier) @callee) @call
(new_expression constructor: (member_expression object: (_) @receiver property: (_) @callee)) @call
`;

/** JSX: rendering a component (capitalized) is a call of it; lowercase tags are HTML elements. */
export const JSX_CALLS = `
((jsx_opening_element name: (identifier) @callee) @call (#match? @callee "^[A-Z]"))
((jsx_self_closing_element name: (identifier) @callee) @call (#match? @callee "^[A-Z]"))
(jsx_opening_element name: (member_expression object: (_) @receiver property: (_) @callee)) @call
(jsx_self_closing_element name: (member_expression object: (_) @receiver property: (_) @callee)) @call
`;

const inherits = `
(class_heritage [(identifier) (member_expression)] @base)
(class_heritage (call_expression function: [(identifier) (member_expression)] @base))
`;

/** Comment and wrapper rules shared by JavaScript and TypeScript. */
export const JS_LAYOUT = {
  commentTypes: ["comment"],
  wrapperTypes: ["export_statement", "lexical_declaration", "variable_declaration"],
  headerSkipTypes: ["decorator"],
} as const;

/** `src/mcp/server.js` → `src/mcp/server`; `lib/index.js` → `lib` (what `import "./lib"` names). */
export function jsModuleName(path: string): string {
  const bare = path.replace(/\.d\.[mc]?ts$/i, "").replace(/\.[^./]+$/, "");
  return bare.endsWith("/index") ? bare.slice(0, -"/index".length) : bare;
}

/** JavaScript. */
export const javascript: LanguageSpec = {
  language: "javascript",
  grammar: "javascript",
  extensions: [".js", ".mjs", ".cjs", ".jsx"],
  interpreters: ["node", "nodejs", "deno", "bun"],
  queries: {
    // Class fields holding a function are methods ("onClick = () => …").
    definitions: `(field_definition property: (_) @name value: [(function_expression body: (_) @body) (arrow_function body: (_) @body)]) @definition.method
${JS_DEFINITIONS}`,
    imports: JS_IMPORTS,
    calls: JS_CALLS + JSX_CALLS,
    inherits,
  },
  ...JS_LAYOUT,
  moduleName: jsModuleName,
};
