/**
 * TypeScript and TSX (tree-sitter-typescript's two grammars, one spec shape): everything JavaScript has, plus
 * interfaces, type aliases, enums, namespaces/modules, abstract classes, method and function signatures (overloads,
 * `declare`), `import x = require()`; `extends`/`implements` on classes and `extends` on interfaces.
 */
import type { LanguageSpec } from "./spec.ts";
import { JS_CALLS, JS_DEFINITIONS, JS_IMPORTS, JS_LAYOUT, JSX_CALLS, jsModuleName } from "./javascript.ts";

const definitions = `
(abstract_class_declaration name: (_) @name) @definition.class
(interface_declaration name: (_) @name) @definition.interface
(type_alias_declaration name: (_) @name) @definition.type
(enum_declaration name: (_) @name) @definition.enum
(internal_module name: (_) @name) @definition.module
(module name: (_) @name) @definition.module
(method_signature name: (_) @name) @definition.method
(abstract_method_signature name: (_) @name) @definition.method
(function_signature name: (_) @name) @definition.function
(public_field_definition name: (_) @name value: [(function_expression body: (_) @body) (arrow_function body: (_) @body)]) @definition.method
${JS_DEFINITIONS}`;

const imports = `
(import_statement (import_require_clause (identifier) @import.alias source: (string) @import.module)) @import
${JS_IMPORTS}`;

const inherits = `
(class_heritage (extends_clause value: [(identifier) (member_expression)] @base))
(class_heritage (extends_clause value: (call_expression function: [(identifier) (member_expression)] @base)))
(class_heritage (implements_clause [(type_identifier) (nested_type_identifier)] @base))
(class_heritage (implements_clause (generic_type name: (_) @base)))
(extends_type_clause type: [(type_identifier) (nested_type_identifier)] @base)
(extends_type_clause type: (generic_type name: (_) @base))
`;

const layout = {
  ...JS_LAYOUT,
  wrapperTypes: [...JS_LAYOUT.wrapperTypes, "ambient_declaration"],
};

/** TypeScript (`.ts`, `.mts`, `.cts`, `.d.ts`). */
export const typescript: LanguageSpec = {
  language: "typescript",
  grammar: "typescript",
  extensions: [".ts", ".mts", ".cts"],
  interpreters: ["ts-node", "tsx"],
  queries: { definitions, imports, calls: JS_CALLS, inherits },
  ...layout,
  moduleName: jsModuleName,
};

/** TSX (`.tsx`): the TypeScript queries on the TSX grammar, plus JSX component uses as calls. */
export const tsx: LanguageSpec = {
  ...typescript,
  language: "tsx",
  grammar: "tsx",
  extensions: [".tsx"],
  interpreters: [],
  queries: { ...typescript.queries, calls: JS_CALLS + JSX_CALLS },
};
