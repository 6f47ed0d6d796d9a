/**
 * Bash (tree-sitter-bash; the package ships no tags query, so all four are ours): functions (`f() {…}`,
 * `function f {…}`), top-level constants (`readonly`/`declare -r`, and UPPER_CASE assignments by shell
 * convention); `source file` / `. file` as imports; every command run by name as a call, except shell builtins
 * (they say nothing about dependencies). Docs: the `#` block above.
 */
import type { LanguageSpec } from "./spec.ts";

const definitions = `
(function_definition name: (word) @name) @definition.function
(program (declaration_command . "readonly" (variable_assignment name: (variable_name) @name)) @definition.constant)
((program (declaration_command . "declare" (word) @_flag (variable_assignment name: (variable_name) @name)) @definition.constant)
  (#match? @_flag "^-[a-zA-Z]*r"))
((program (variable_assignment name: (variable_name) @name) @definition.constant)
  (#match? @name "^[A-Z][A-Z0-9_]*$"))
`;

const imports = `
((command name: (command_name (word) @_cmd) . argument: (_) @import.module) @import
  (#any-of? @_cmd "source" "."))
`;

const calls = `
(command name: (command_name (word) @callee)) @call
`;

/** Builtins and keywords of bash: running them is not a dependency on anything. */
const BUILTINS = new Set([
  ".",
  ":",
  "[",
  "[[",
  "alias",
  "bg",
  "bind",
  "break",
  "builtin",
  "caller",
  "cd",
  "command",
  "compgen",
  "complete",
  "compopt",
  "continue",
  "declare",
  "dirs",
  "disown",
  "echo",
  "enable",
  "eval",
  "exec",
  "exit",
  "export",
  "false",
  "fc",
  "fg",
  "getopts",
  "hash",
  "help",
  "history",
  "jobs",
  "kill",
  "let",
  "local",
  "logout",
  "mapfile",
  "popd",
  "printf",
  "pushd",
  "pwd",
  "read",
  "readarray",
  "readonly",
  "return",
  "set",
  "shift",
  "shopt",
  "source",
  "suspend",
  "test",
  "times",
  "trap",
  "true",
  "type",
  "typeset",
  "ulimit",
  "umask",
  "unalias",
  "unset",
  "wait",
]);

/** Bash. */
export const bash: LanguageSpec = {
  language: "bash",
  grammar: "bash",
  extensions: [".sh", ".bash", ".bats"],
  fileNames: [".bashrc", ".bash_profile", ".bash_login", ".bash_logout", ".bash_aliases", ".profile", "PKGBUILD"],
  interpreters: ["bash", "sh", "dash", "ksh"],
  queries: { definitions, imports, calls },
  commentTypes: ["comment"],
  ignoredCalls: BUILTINS,
  // `lib/util.sh` → `lib/util`; the whole name when there is no extension (`.bashrc`).
  moduleName: (path) => path.replace(/(?<=[^/])\.(?:sh|bash|bats)$/i, ""),
};
