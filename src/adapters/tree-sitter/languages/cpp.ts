/**
 * C++ (tree-sitter-cpp): namespaces (`module`; nested ones as written, `a::b`), classes, structs and unions,
 * enums (`enum class` too), type aliases and typedefs, functions and file-level prototypes, methods — defined in
 * the class body, declared there (pure virtual, constructors, destructors, operators) or defined out of line
 * (`double Circle::area() const` → `Circle.area`, prefixed by the enclosing namespace) — templates (the signature
 * starts at `template <…>`), `const`/`constexpr` objects at namespace level and `static const`/`constexpr` class
 * members, and the C preprocessor definitions (macros). Imports: `#include` (an edge only). Calls: plain, member
 * (`s->area()` → `area` on `s`), qualified (`std::max` → `max` on `std`; `a::B::f` → `f` on `B`), template
 * (`std::make_unique<T>`), and `new T(…)`. Inheritance: base classes as written (`Shape`, `detail::Named`; a
 * template base by its name: `Base` of `Base<int>`, `enable_shared_from_this` of `std::enable_shared_from_this<D>`).
 * Docs: the `///`, `//` or `/** … *\/` block above.
 * Not extracted: `using` declarations and directives (`using std::vector;`, `using namespace std;`), friend
 * declarations, concepts, lambdas; a method defined out of line with a namespace-qualified owner (`a::B::f`) is
 * named by its innermost owner (`B.f`); a declaration in the class body and its definition out of line are two
 * symbols (their lines differ).
 */
import type { LanguageSpec } from "./spec.ts";
import {
  aggregateDefinitions,
  C_AGGREGATES,
  constObjects,
  functionDeclarator,
  includeImports,
  prototypes,
  typedefDeclarator,
} from "./c.ts";

// Alternations are kept flat: tree-sitter drops matches of an alternation nested directly in another (`[[…] @x …]`).
const MEMBER_NAMES = ["identifier", "field_identifier", "destructor_name", "operator_name"];
const MEMBER = MEMBER_NAMES.map((t) => `(${t}) @name`).join(" ");
const OWNER = `[(namespace_identifier) @owner (template_type name: (type_identifier) @owner)]`;
const QUALIFIED = `(qualified_identifier scope: ${OWNER} name: [(identifier) (destructor_name) (operator_name)] @name)`;

/** Any function declarator: plain, member, or qualified by its class (`A::f`, `a::A::f`, `A<T>::f`). */
const ANY_FUNCTION = functionDeclarator(`[${MEMBER} ${QUALIFIED} (qualified_identifier name: ${QUALIFIED})]`, true);
/** A constructor's declarator as written before a member initializer list (`A::A(int x) : n_(x)`). */
const CONSTRUCTOR = `(function_declarator declarator: [(identifier) @name ${QUALIFIED} (qualified_identifier name: ${QUALIFIED})])`;
const MEMBER_FUNCTION = functionDeclarator(`[${MEMBER}]`, true);

// In-class method declarations are `field_declaration`s (with a type) or `declaration`s (constructors, destructors,
// templates): the latter, like file- and namespace-level prototypes, come from prototypes(); a friend is not a member.
const definitions = `
(namespace_definition name: [(namespace_identifier) (nested_namespace_specifier)] @name) @definition.module
(function_definition declarator: ${CONSTRUCTOR} (field_initializer_list) @body) @definition.function
(function_definition declarator: ${ANY_FUNCTION}) @definition.function
(field_declaration declarator: ${MEMBER_FUNCTION}) @definition.function
(friend_declaration (declaration declarator: ${MEMBER_FUNCTION}) @skip)
${prototypes(MEMBER_FUNCTION)}
${aggregateDefinitions([["class_specifier", "class"], ...C_AGGREGATES])}
(alias_declaration name: (type_identifier) @name) @definition.type
(type_definition declarator: ${typedefDeclarator}) @definition.type
(preproc_function_def name: (identifier) @name value: (_)? @body) @definition.function
(preproc_def name: (identifier) @name value: (_)) @definition.constant
${constObjects(["const", "constexpr"])}
((field_declaration (storage_class_specifier) @_s (type_qualifier) @_q declarator: (field_identifier) @name default_value: (_))
  @definition.constant (#eq? @_s "static") (#any-of? @_q "const" "constexpr"))
`;

/** A callee name, plain or with template arguments. */
const CALLEE = `[(identifier) @callee (template_function name: (identifier) @callee)]`;
/** `s::f`, nested up to three scopes deep: the receiver is the innermost scope (`B` of `a::B::f`). */
const SCOPED = `(qualified_identifier scope: (_) @receiver name: ${CALLEE})`;

const calls = `
(call_expression function: ${CALLEE}) @call
(call_expression function: (field_expression argument: (_) @receiver
  field: [(field_identifier) @callee (template_method name: (field_identifier) @callee)
          (dependent_name (template_method name: (field_identifier) @callee))])) @call
(call_expression function: ${SCOPED}) @call
(call_expression function: (qualified_identifier name: ${SCOPED})) @call
(call_expression function: (qualified_identifier name: (qualified_identifier name: ${SCOPED}))) @call
(new_expression type: [(type_identifier) @callee (template_type name: (type_identifier) @callee)
  (qualified_identifier scope: (_) @receiver name: [(type_identifier) @callee (template_type name: (type_identifier) @callee)])]) @call
`;

const inherits = `
(base_class_clause [(type_identifier) @base (template_type name: (type_identifier) @base)
  (qualified_identifier name: (type_identifier)) @base
  (qualified_identifier name: (template_type name: (type_identifier) @base))])
`;

/** C++. */
export const cpp: LanguageSpec = {
  language: "cpp",
  grammar: "cpp",
  extensions: [".cpp", ".cc", ".cxx", ".c++", ".hpp", ".hh", ".hxx", ".h++", ".ipp", ".tpp", ".inl"],
  queries: { definitions, imports: includeImports, calls, inherits },
  commentTypes: ["comment"],
  wrapperTypes: ["template_declaration"],
};
