/**
 * Java (tree-sitter-java): classes and records (`class`), interfaces and annotation types (`interface`), enums,
 * methods and constructors (qualified by their type: `Inventory.add`, `Inventory.Inventory`), `static final`
 * fields and interface fields (`constant`), nested types (`Inventory.Item`). Imports: `import a.b.C` is an edge to
 * the imported type `a.b.C` (in Java a type is its own compilation unit) binding `C` to it whole; `import static
 * a.b.C.m` binds `m` to member `m` of `a.b.C`; `import a.b.*` is an edge to the package `a.b`. Calls: method
 * invocations with their receiver (`items.add` → `add` on `items`, `this.audit`, `Integer.compare`) and `new T(…)`
 * (→ `T`; `new a.b.T()` → `T` on `a.b`). Inheritance: `extends` and `implements` of classes, records, enums and interfaces, as written without
 * type arguments (`Comparable`, `java.io.Serializable`). Docs: the Javadoc or `//` block above.
 * Not extracted: enum constants, non-final fields, `this(…)`/`super(…)` constructor calls, method references
 * (`Foo::bar`), lambdas; a signature keeps the annotations written in the modifiers (`@Override public int …`).
 */
import type { LanguageSpec } from "./spec.ts";

/** A type reference as written without its type arguments (`Comparable`, `java.io.Serializable`), as `@<capture>`. */
function typeRef(capture: string): string {
  const plain = `[(type_identifier) (scoped_type_identifier)]`;
  return `[(type_identifier) @${capture} (scoped_type_identifier) @${capture} (generic_type ${plain} @${capture})]`;
}

/** `a.b.C` as receiver `a.b` and callee `C` (`new java.util.Random()` → `Random` on `java.util`). */
const qualified = `(scoped_type_identifier . (_) @receiver (type_identifier) @callee .)`;

const staticFinal = `[(modifiers "static" "final") (modifiers "final" "static")]`;

const definitions = `
(class_declaration name: (identifier) @name) @definition.class
(record_declaration name: (identifier) @name) @definition.class
(interface_declaration name: (identifier) @name) @definition.interface
(annotation_type_declaration name: (identifier) @name) @definition.interface
(enum_declaration name: (identifier) @name) @definition.enum
(method_declaration name: (identifier) @name) @definition.function
(constructor_declaration name: (identifier) @name) @definition.function
(compact_constructor_declaration name: (identifier) @name) @definition.function
(annotation_type_element_declaration name: (identifier) @name) @definition.function
(field_declaration ${staticFinal} declarator: (variable_declarator name: (identifier) @name)) @definition.constant
(constant_declaration declarator: (variable_declarator name: (identifier) @name)) @definition.constant
`;

const imports = `
((import_declaration . [(scoped_identifier) (identifier)] @import.module @import.whole . ) @import
  (#not-match? @import "^import\\\\s+static\\\\b"))
(import_declaration "static"
  (scoped_identifier scope: (_) @import.module name: (identifier) @import.name) . ) @import
(import_declaration [(scoped_identifier) (identifier)] @import.module (asterisk)) @import
`;

const calls = `
(method_invocation object: (_) @receiver name: (identifier) @callee) @call
(method_invocation !object name: (identifier) @callee) @call
(object_creation_expression type: [(type_identifier) @callee (generic_type (type_identifier) @callee)]) @call
(object_creation_expression type: [${qualified} (generic_type ${qualified})]) @call
`;

const inherits = `
(superclass ${typeRef("base")})
(super_interfaces (type_list ${typeRef("base")}))
(extends_interfaces (type_list ${typeRef("base")}))
`;

/** Java. */
export const java: LanguageSpec = {
  language: "java",
  grammar: "java",
  extensions: [".java"],
  queries: { definitions, imports, calls, inherits },
  commentTypes: ["line_comment", "block_comment"],
};
