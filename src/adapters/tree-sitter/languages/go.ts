/**
 * Go (tree-sitter-go): functions, methods (qualified by their receiver type: `Reader.Read`), structs, interfaces
 * (with their method set), other named types and aliases, top-level constants; imports with their package names;
 * calls (`fmt.Println` → `Println` on `fmt`); struct and interface embedding as `inherits`. Docs: the `//` block
 * above (Go doc comments), through `type`/`const` when they declare one name.
 */
import type { ImportBinding } from "../../../ports/models/symbol-extractor.ts";
import type { ImportMatch, LanguageSpec } from "./spec.ts";

const receiverType = `[(type_identifier) @owner
  (pointer_type [(type_identifier) @owner (generic_type type: (type_identifier) @owner)])
  (generic_type type: (type_identifier) @owner)]`;

const definitions = `
(function_declaration name: (identifier) @name) @definition.function
(method_declaration
  receiver: (parameter_list (parameter_declaration type: ${receiverType}))
  name: (field_identifier) @name) @definition.method
(type_spec name: (type_identifier) @name type: (struct_type (field_declaration_list) @body)) @definition.struct
(type_spec name: (type_identifier) @name type: (interface_type "{" @body)) @definition.interface
(type_spec name: (type_identifier) @name) @definition.type
(type_alias name: (type_identifier) @name) @definition.type
(interface_type (method_elem name: (field_identifier) @name) @definition.method)
(source_file (const_declaration (const_spec name: (identifier) @name) @definition.constant))
`;

const imports = `
(import_spec name: (package_identifier) @import.alias path: (_) @import.module) @import
(import_spec !name path: (_) @import.module @import.whole) @import
(import_spec name: [(dot) (blank_identifier)] path: (_) @import.module) @import
`;

const calls = `
(call_expression function: (identifier) @callee) @call
(call_expression function: (selector_expression operand: (_) @receiver field: (field_identifier) @callee)) @call
`;

const inherits = `
(field_declaration_list (field_declaration !name type: [(type_identifier) (qualified_type)] @base))
(field_declaration_list (field_declaration !name type: (generic_type type: (_) @base)))
(interface_type (type_elem . [(type_identifier) (qualified_type)] @base .))
`;

/**
 * The name a Go import path is referred to by when imported without a name: its last element, skipping a
 * major-version element (`github.com/x/yaml/v3` → `yaml`) and dropping a `go-` prefix and `.vN` suffix
 * (`gopkg.in/yaml.v3` → `yaml`). Heuristic: the real name is the imported package's `package` clause.
 */
export function goPackageName(path: string): string {
  const parts = path.split("/").filter((p) => p !== "");
  let last = parts.pop() ?? "";
  if (/^v\d+$/.test(last) && parts.length > 0) last = parts.pop() ?? last;
  return last
    .replace(/\.v\d+$/, "")
    .replace(/^go-/, "")
    .replace(/[^A-Za-z0-9_]/g, "_");
}

function wholeModuleBinding(module: string): ImportBinding | null {
  const local = goPackageName(module);
  return local ? { local, module, name: null } : null;
}

/** `f "fmt"` binds `f` to the package; `_` and `.` bind nothing nameable. */
function importBinding(m: ImportMatch): ImportBinding | null {
  if (m.alias !== null) return { local: m.alias, module: m.module, name: null };
  return m.whole ? wholeModuleBinding(m.module) : null;
}

/** Go. */
export const go: LanguageSpec = {
  language: "go",
  grammar: "go",
  extensions: [".go"],
  queries: { definitions, imports, calls, inherits },
  commentTypes: ["comment"],
  wrapperTypes: ["type_declaration", "const_declaration"],
  importBinding,
  wholeModuleBinding,
};
