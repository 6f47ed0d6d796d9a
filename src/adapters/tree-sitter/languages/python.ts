/**
 * Python (tree-sitter-python): classes, functions/methods (decorated too), module-level `name = lambda …`
 * (`function`), other module-level assignments (`constant`, whatever the name's case: no kind is closer) and `type`
 * aliases; `import`/`from … import` (relative ones as written: `.decoder`), calls with receivers, base classes.
 * Docstrings are the body's first string literal (PEP 257), else the `#` comment block above (also above the first
 * statement of a body, where tree-sitter puts the comment outside the body).
 */
import type { Node } from "web-tree-sitter";
import { pythonDocstring, textOf } from "../text.ts";
import { commentsBeforeBody } from "./comments.ts";
import type { LanguageSpec } from "./spec.ts";

const definitions = `
(class_definition name: (identifier) @name body: (block) @body) @definition.class
(function_definition name: (identifier) @name body: (block) @body) @definition.function
(module (expression_statement (assignment left: (identifier) @name right: (lambda))) @definition.function)
(module (expression_statement (assignment left: (identifier) @name)) @definition.constant)
(module (type_alias_statement left: (type (identifier) @name)) @definition.type)
`;

const imports = `
(import_statement name: (dotted_name) @import.module @import.whole) @import
(import_statement name: (aliased_import name: (dotted_name) @import.module alias: (identifier) @import.alias)) @import
(import_from_statement
  module_name: (_) @import.module
  name: [(dotted_name) @import.name
         (aliased_import name: (dotted_name) @import.name alias: (identifier) @import.alias)]) @import
(import_from_statement module_name: (_) @import.module (wildcard_import)) @import
`;

const calls = `
(call function: (identifier) @callee) @call
(call function: (attribute object: (_) @receiver attribute: (identifier) @callee)) @call
`;

const inherits = `
(class_definition superclasses: (argument_list [(identifier) (attribute)] @base))
(class_definition superclasses: (argument_list (subscript value: [(identifier) (attribute)] @base)))
`;

/** The docstring of a block (a body or the module): its first statement when that is a lone string literal (PEP 257). */
function blockDocstring(block: Node | null | undefined, source: string): string | null {
  let first = block?.firstNamedChild;
  while (first && first.type === "comment") first = first.nextNamedSibling;
  if (first?.type !== "expression_statement" || first.namedChildCount !== 1) return null;
  const literal = first.firstNamedChild;
  return literal && literal.type === "string" ? pythonDocstring(textOf(literal, source)) : null;
}

/**
 * The `#` block above the first statement of a body (`class A:\n    # doc\n    def f(self): …`): tree-sitter-python
 * puts it before the `block` node, as a child of the enclosing class or function, so it is not the definition's
 * sibling. A comment on the header's own line (`class A:  # note`) documents the header. Null otherwise.
 */
function firstInBodyComment(def: Node, source: string): string | null {
  const anchor = def.parent?.type === "decorated_definition" ? def.parent : def;
  const block = anchor.parent;
  if (block?.type !== "block" || anchor.previousNamedSibling !== null) return null;
  return commentsBeforeBody(block, anchor, source);
}

/** The first statement of a class or function body when it is a lone string literal, else a first-in-body comment. */
function docstring(def: Node, source: string): string | null {
  return blockDocstring(def.childForFieldName("body"), source) ?? firstInBodyComment(def, source);
}

/** `json/decoder.py` → `json/decoder`; `json/__init__.py` → `json`. */
function moduleName(path: string): string {
  const bare = path.replace(/\.pyi?$/i, "");
  return bare.endsWith("/__init__") ? bare.slice(0, -"/__init__".length) : bare;
}

/** Python. */
export const python: LanguageSpec = {
  language: "python",
  grammar: "python",
  extensions: [".py", ".pyi", ".pyw"],
  interpreters: ["python", "python3", "python2", "pypy", "pypy3"],
  queries: { definitions, imports, calls, inherits },
  commentTypes: ["comment"],
  wrapperTypes: ["decorated_definition"],
  headerSkipTypes: ["decorator"],
  docstring,
  moduleDocstring: (root, source) => blockDocstring(root, source),
  moduleName,
  // `import os.path` binds `os` (the top-level package), not `path`.
  wholeModuleBinding: (module) => {
    const top = module.split(".")[0];
    return top ? { local: top, module: top, name: null } : null;
  },
};
