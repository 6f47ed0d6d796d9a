/**
 * Ruby (tree-sitter-ruby): modules, classes (`class A::B` is `B` owned by `A`: `A.B`), methods (`def`, `def
 * self.x`, inside `class << self`; a `def` in a module body is a method too: mixins), top-level `def` (`function`),
 * constants (`X = …`). Imports: `require` and `require_relative` with a literal path (`require` as written:
 * `json`, `ledger/entry`; `require_relative "entry"` as `./entry`, relative to the file's directory, which the
 * store resolves to that `.rb` file; Ruby binds no names). Calls: calls with an explicit receiver (`JSON.parse` → `parse` on
 * `JSON`, `@entries.map`, `self.x`) or with arguments or parentheses (`validate!(entry)`, `new(…)`); the class-body
 * DSL (`require`, `include`, `attr_reader`, `private`, …) is not reported as calls. Inheritance: `class A < Base`
 * and mixins (`include M`, `prepend M`, `extend M`). Docs: the `#` block above, also above the first definition
 * of a body (where tree-sitter puts the comment outside the body).
 * Not extracted: calls written as a bare name with neither receiver nor arguments (`entries`: a local variable
 * or a method, only known at run time), `&:sym` and `send`/`public_send` targets, methods made by `attr_*`,
 * `define_method` or `Struct.new`, `require` of a computed path, `autoload`.
 */
import type { Node } from "web-tree-sitter";
import { commentsBeforeBody } from "./comments.ts";
import type { LanguageSpec } from "./spec.ts";

const NAME = `[(constant) @name (scope_resolution scope: (_) @owner name: (_) @name)]`;

const definitions = `
(module name: ${NAME}) @definition.module
(class name: ${NAME}) @definition.class
(module body: (body_statement [(method name: (_) @name) (singleton_method name: (_) @name)] @definition.method))
(singleton_class body: (body_statement (method name: (_) @name) @definition.method))
(method name: (_) @name) @definition.function
(singleton_method name: (_) @name) @definition.function
(assignment left: (constant) @name) @definition.constant
`;

const imports = `
((call !receiver method: (identifier) @_m arguments: (argument_list . (string . (string_content) @import.module .) .)) @import
  (#eq? @_m "require"))
((call !receiver method: (identifier) @_m arguments: (argument_list . (string . (string_content) @import.module .) .)) @import
  (#eq? @_m "require_relative") (#set! import.relative "true"))
`;

const calls = `
(call receiver: (_) @receiver method: (identifier) @callee) @call
(call !receiver method: (identifier) @callee) @call
`;

const inherits = `
(class superclass: (superclass [(constant) (scope_resolution)] @base))
((call !receiver method: (identifier) @_m arguments: (argument_list [(constant) (scope_resolution)] @base))
  (#any-of? @_m "include" "prepend" "extend"))
`;

/** Class-body DSL and loading: calls in form, declarations in meaning. */
const DECLARATIVE = new Set([
  "require",
  "require_relative",
  "load",
  "autoload",
  "include",
  "extend",
  "prepend",
  "attr_reader",
  "attr_writer",
  "attr_accessor",
  "private",
  "protected",
  "public",
  "module_function",
  "private_constant",
  "public_constant",
  "private_class_method",
  "public_class_method",
  "alias_method",
]);

/**
 * The `#` block above a definition that comes first in a class or module body: tree-sitter-ruby attaches that
 * block to the class node, before the `body_statement`, so it is not the definition's sibling. Null otherwise (the
 * engine's own leading-comment rule then applies).
 */
function docstring(def: Node, source: string): string | null {
  const body = def.parent;
  if (body?.type !== "body_statement" || def.previousNamedSibling !== null) return null;
  return commentsBeforeBody(body, def, source);
}

/** Ruby. */
export const ruby: LanguageSpec = {
  language: "ruby",
  grammar: "ruby",
  extensions: [".rb", ".rake", ".gemspec", ".ru"],
  fileNames: ["Rakefile", "Gemfile", "Guardfile", "Capfile", "Vagrantfile"],
  interpreters: ["ruby"],
  queries: { definitions, imports, calls, inherits },
  commentTypes: ["comment"],
  ignoredCalls: DECLARATIVE,
  docstring,
};
