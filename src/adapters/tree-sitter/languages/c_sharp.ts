/**
 * C# (tree-sitter-c-sharp): namespaces (`module`, dotted as written: `Shop.Orders`), classes and records (`class`),
 * structs, interfaces, enums, delegates (`type`), methods, constructors and local functions (qualified by their
 * type: `OrderService.Place`), `const` fields (`constant`). Imports: `using N;` and `using static T;` (edges: they
 * open a namespace or type, no single name is bound) and `using A = N.T;` (binds `A` to `N.T` whole). Calls:
 * plain and generic (`Log(…)`, `Create<T>(…)`), member calls with their receiver (`_history.Add` → `Add` on
 * `_history`, `this.Repository.Save`), and `new T(…)` (→ `T`; `new N.T()` → `T` on `N`). Inheritance: the base
 * list of classes, records, structs and interfaces (`ServiceBase`, `IDisposable`, `Outer.IFoo`; a generic base by
 * its name: `Base` of `Base<T>`). Docs: the `///` XML doc block above, as text (`<summary>` dropped, `<param
 * name="x">` → `x: …`, `<see cref="T"/>` → `T`), else the `//` or `/* … *\/` block above.
 * Not extracted: properties, events, indexers, operators and destructors (no symbol kind fits, or the name would
 * clash with the constructor's); conditional calls (`a?.B()`); constructor initializers (`: base(…)`, also left out
 * of the constructor's signature). Types after a file-scoped `namespace N;` are not qualified by it (the namespace
 * is a one-line module symbol).
 */
import { docstringOf } from "../headers.ts";
import { finishDoc } from "../text.ts";
import type { LanguageSpec } from "./spec.ts";

const definitions = `
(namespace_declaration name: (_) @name) @definition.module
(file_scoped_namespace_declaration name: (_) @name) @definition.module
(class_declaration name: (identifier) @name) @definition.class
(record_declaration name: (identifier) @name) @definition.class
(struct_declaration name: (identifier) @name) @definition.struct
(interface_declaration name: (identifier) @name) @definition.interface
(enum_declaration name: (identifier) @name) @definition.enum
(delegate_declaration name: (identifier) @name) @definition.type
(method_declaration name: (identifier) @name) @definition.function
(constructor_declaration name: (identifier) @name (constructor_initializer) @body) @definition.function
(constructor_declaration name: (identifier) @name) @definition.function
(local_function_statement name: (identifier) @name) @definition.function
((field_declaration (modifier) @_m (variable_declaration (variable_declarator name: (identifier) @name))) @definition.constant
  (#eq? @_m "const"))
`;

const imports = `
(using_directive !name (_) @import.module) @import
(using_directive name: (identifier) @import.alias (_) @import.module) @import
`;

/** A callee: `F` or `F<T>`. */
const CALLEE = `[(identifier) @callee (generic_name (identifier) @callee)]`;

const calls = `
(invocation_expression function: ${CALLEE}) @call
(invocation_expression function: (member_access_expression expression: (_) @receiver name: ${CALLEE})) @call
(object_creation_expression type: ${CALLEE}) @call
(object_creation_expression type: (qualified_name qualifier: (_) @receiver name: ${CALLEE})) @call
`;

const inherits = `
(base_list [(identifier) @base (qualified_name) @base (generic_name (identifier) @base)])
`;

const ENTITIES: Record<string, string> = { "&lt;": "<", "&gt;": ">", "&amp;": "&", "&quot;": '"', "&apos;": "'" };

/**
 * An XML documentation comment's text: references become their names (`<see cref="T"/>` → `T`), `<param name="x">`
 * and `<typeparam name="T">` open an `x: ` line, `<returns>` a `Returns: ` line, `<exception cref="E">` a
 * `Throws E: ` line; every other tag and every blank line is dropped, entities decoded; null when nothing is left.
 */
export function xmlDocText(doc: string): string | null {
  const text = doc
    .replace(
      /<(?:see|seealso|paramref|typeparamref)\s+(?:cref|name|langword|href)="([^"]*)"\s*\/>/g,
      (_, ref: string) => ref.replace(/^[A-Z]:/, ""),
    )
    .replace(/<(?:param|typeparam)\s+name="([^"]*)"\s*>/g, "\n$1: ")
    .replace(/<returns>/g, "\nReturns: ")
    .replace(/<exception\s+cref="([^"]*)"\s*>/g, (_, ref: string) => `\nThrows ${ref.replace(/^[A-Z]:/, "")}: `)
    .replace(/<\/?[A-Za-z][^>]*>/g, "")
    .replace(/&(?:lt|gt|amp|quot|apos);/g, (e) => ENTITIES[e] ?? e);
  // The tags carried the structure: the blank lines left where they stood are dropped.
  return finishDoc(
    text
      .split("\n")
      .map((l) => l.trim())
      .filter((l) => l !== "")
      .join("\n"),
  );
}

const plain: LanguageSpec = {
  language: "c_sharp",
  grammar: "c_sharp",
  extensions: [".cs"],
  queries: { definitions, imports, calls, inherits },
  commentTypes: ["comment"],
  headerSkipTypes: ["attribute_list"],
};

/** C#. */
export const c_sharp: LanguageSpec = {
  ...plain,
  docstring: (def, source) => {
    const doc = docstringOf(def, source, plain);
    return doc !== null && /<\/?[A-Za-z][^>]*>/.test(doc) ? xmlDocText(doc) : doc;
  },
};
