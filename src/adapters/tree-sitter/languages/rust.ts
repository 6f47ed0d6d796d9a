/**
 * Rust (tree-sitter-rust): functions; methods qualified by their `impl` or `trait` type (`Point.norm`, trait
 * methods with or without a default body); structs and unions (`struct`), enums, traits (`interface`), type aliases
 * and associated types, `const` and immutable `static` items, inline `mod` blocks. Imports: every `use` path, with
 * lists, aliases and `self` (`use a::b::{self, C as D}`), `extern crate`, and `mod x;` (the module in another file).
 * Calls: plain, method (`self.area()` → `area` on `self`) and path calls (`Point::new()` → `new` on `Point`,
 * turbofish included). Inheritance: `impl Trait for Type` (Type inherits Trait) and supertraits (`trait A: B`).
 * Docs: the `///`, `//` or `/** … *\/` block above, across `#[…]` attributes.
 * Not extracted: macros (`macro_rules!` definitions and `name!(…)` invocations, whose token trees hide the calls
 * inside them), `static mut` items, nested use lists deeper than one level (`use a::{b::{c, d}}` gives the edge
 * `a` only), and `impl` blocks for types that are not a plain, generic or path type (`impl Trait for &T`).
 */
import type { ImportBinding } from "../../../ports/models/symbol-extractor.ts";
import type { ImportMatch, LanguageSpec } from "./spec.ts";

/**
 * A type named as `Foo`, `Foo<T>`, `a::Foo` or `a::Foo<T>`: the name node (`Foo`) is captured as `@<capture>`. Kept
 * flat: tree-sitter drops matches of an alternation nested directly in another (`[[…] @x …]`).
 */
function typeName(capture: string): string {
  const scoped = `(scoped_type_identifier name: (type_identifier) @${capture})`;
  return `[(type_identifier) @${capture} ${scoped}
    (generic_type type: (type_identifier) @${capture}) (generic_type type: ${scoped})]`;
}

/** A trait or base as written without its type arguments (`Debug`, `fmt::Display`, `Iterator` of `Iterator<…>`). */
const traitRef = `[(type_identifier) @base (scoped_type_identifier) @base
  (generic_type type: [(type_identifier) (scoped_type_identifier)] @base)]`;

const definitions = `
(function_item name: (identifier) @name) @definition.function
(function_signature_item name: (identifier) @name) @definition.function
(struct_item name: (type_identifier) @name) @definition.struct
(union_item name: (type_identifier) @name) @definition.struct
(enum_item name: (type_identifier) @name) @definition.enum
(trait_item name: (type_identifier) @name) @definition.interface
(type_item name: (type_identifier) @name) @definition.type
(associated_type name: (type_identifier) @name) @definition.type
(const_item name: (identifier) @name) @definition.constant
((static_item name: (identifier) @name) @definition.constant
  (#not-match? @definition.constant "^(pub(\\\\([^)]*\\\\))?\\\\s+)?static\\\\s+mut\\\\b"))
(mod_item name: (identifier) @name body: (declaration_list)) @definition.module
(impl_item type: ${typeName("name")}) @scope
`;

// Bindings are computed by importBinding below from the captured path (`@import.whole`: the path binds its last
// segment) or list item (`@import.name`, possibly a path itself: `io::Write`).
const imports = `
(use_declaration argument: [(identifier) (scoped_identifier) (crate) (self) (super)] @import.module @import.whole) @import
(use_declaration argument: (use_as_clause path: (_) @import.module @import.whole alias: (identifier) @import.alias)) @import
(use_declaration argument: (scoped_use_list path: (_) @import.module
  list: (use_list [(identifier) (scoped_identifier)] @import.name))) @import
(use_declaration argument: (scoped_use_list path: (_) @import.module
  list: (use_list (use_as_clause path: (_) @import.name alias: (identifier) @import.alias)))) @import
(use_declaration argument: (scoped_use_list path: (_) @import.module list: (use_list (self) @import.whole))) @import
(use_declaration argument: (scoped_use_list path: (_) @import.module list: (use_list [(use_wildcard) (scoped_use_list)]))) @import
(use_declaration argument: (use_wildcard (_) @import.module)) @import
(extern_crate_declaration name: (identifier) @import.module @import.whole !alias) @import
(extern_crate_declaration name: (identifier) @import.module @import.whole alias: (identifier) @import.alias) @import
(mod_item name: (identifier) @import.module @import.whole !body) @import
`;

const calls = `
(call_expression function: (identifier) @callee) @call
(call_expression function: (field_expression value: (_) @receiver field: (field_identifier) @callee)) @call
(call_expression function: (scoped_identifier path: (_) @receiver name: (identifier) @callee)) @call
(call_expression function: (generic_function function: (identifier) @callee)) @call
(call_expression function: (generic_function
  function: (field_expression value: (_) @receiver field: (field_identifier) @callee))) @call
(call_expression function: (generic_function
  function: (scoped_identifier path: (_) @receiver name: (identifier) @callee))) @call
`;

const inherits = `
(impl_item trait: ${traitRef} type: ${typeName("child")})
(trait_item bounds: (trait_bounds ${traitRef}))
`;

/**
 * What a `use` item binds: a path binds its last segment as that item of its parent path (`use std::fmt` →
 * `fmt` = `fmt` in `std`; `use a::b::{self}` → `b` in `a`); a one-segment path binds the crate or module whole
 * (`use serde;`, `mod tests;`); `as _` and wildcards bind nothing.
 */
export function rustImportBinding(m: ImportMatch): ImportBinding | null {
  if (!m.whole && m.name === null && m.alias === null) return null;
  const path = m.name === null || m.name === "self" ? m.module : `${m.module}::${m.name}`;
  const cut = path.lastIndexOf("::");
  const last = cut < 0 ? path : path.slice(cut + 2);
  const local = m.alias ?? last;
  if (local === "_" || local === "" || /^(?:crate|self|super)$/.test(local)) return null;
  return cut < 0 ? { local, module: path, name: null } : { local, module: path.slice(0, cut), name: last };
}

/** Rust. */
export const rust: LanguageSpec = {
  language: "rust",
  grammar: "rust",
  extensions: [".rs"],
  queries: { definitions, imports, calls, inherits },
  commentTypes: ["line_comment", "block_comment"],
  headerSkipTypes: ["attribute_item"],
  importBinding: rustImportBinding,
};
