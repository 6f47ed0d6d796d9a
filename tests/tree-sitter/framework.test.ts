/**
 * The extraction framework itself: path → language, shebangs, grammars and queries of every registered language,
 * syntax errors, size limit, unsupported languages, the ABI check on a grammar whose version field was patched,
 * query errors, the generic captures (`@scope`, `@owner`, `@child`, `@skip`) and the text helpers.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { compileLanguage } from "../../src/adapters/tree-sitter/compiled.ts";
import { extractWithSpec, treeSitterExtractor } from "../../src/adapters/tree-sitter/extractor.ts";
import {
  GRAMMAR_FILES,
  grammar,
  loadGrammar,
  runtimeAbiRange,
  type GrammarId,
} from "../../src/adapters/tree-sitter/grammars.ts";
import { LANGUAGE_SPECS, languageFromShebang } from "../../src/adapters/tree-sitter/languages/index.ts";
import type { LanguageSpec } from "../../src/adapters/tree-sitter/languages/spec.ts";
import {
  cap,
  cleanSignature,
  excerpt,
  pythonDocstring,
  stripCommentMarkers,
  unquote,
} from "../../src/adapters/tree-sitter/text.ts";
import { PegasError } from "../../src/errors.ts";
import type { CodeLanguage } from "../../src/ports/models/symbol-extractor.ts";
import { edge } from "./support.ts";

const extractor = treeSitterExtractor();

async function failure(promise: Promise<unknown>): Promise<PegasError> {
  try {
    await promise;
  } catch (err) {
    if (err instanceof PegasError) return err;
    throw err;
  }
  throw new Error("expected a PegasError");
}

describe("languages", () => {
  test("by extension (case-insensitive) and file name; unknown → null", () => {
    const cases: [string, CodeLanguage | null][] = [
      ["json/decoder.py", "python"],
      ["stubs/os.pyi", "python"],
      ["a/b.JS", "javascript"],
      ["x.mjs", "javascript"],
      ["x.cjs", "javascript"],
      ["ui/App.jsx", "javascript"],
      ["src\\main.ts", "typescript"],
      ["x.mts", "typescript"],
      ["x.cts", "typescript"],
      ["index.d.ts", "typescript"],
      ["ui/App.tsx", "tsx"],
      ["cmd/main.go", "go"],
      ["run.sh", "bash"],
      ["lib.bash", "bash"],
      [".bashrc", "bash"],
      ["home/.profile", "bash"],
      ["README.md", null],
      ["Makefile", null],
      [".gitignore", null],
      ["noext", null],
    ];
    for (const [path, lang] of cases) expect([path, extractor.languageOf(path)]).toEqual([path, lang]);
  });

  test("by #! line", () => {
    expect(languageFromShebang("#!/usr/bin/env python3\nprint(1)\n")).toBe("python");
    expect(languageFromShebang("#!/usr/bin/python3.11 -u\n")).toBe("python");
    expect(languageFromShebang("#!/usr/bin/env node\n")).toBe("javascript");
    expect(languageFromShebang("#! /bin/bash -e\n")).toBe("bash");
    expect(languageFromShebang("#!/usr/bin/env perl\n")).toBeNull();
    expect(languageFromShebang("print(1)\n")).toBeNull();
  });

  test("every embedded grammar loads with an ABI inside the runtime's range", async () => {
    const { min, max } = await runtimeAbiRange();
    for (const id of Object.keys(GRAMMAR_FILES) as GrammarId[]) {
      const language = await grammar(id);
      expect([id, language.abiVersion >= min && language.abiVersion <= max]).toEqual([id, true]);
    }
  });

  test("every registered spec's queries compile against its grammar", async () => {
    for (const spec of Object.values(LANGUAGE_SPECS)) {
      const compiled = await compileLanguage(spec!);
      expect(compiled.query.patternCount()).toBeGreaterThan(0);
    }
  });
});

describe("errors", () => {
  test("a file with syntax errors is still extracted, with the errors counted", async () => {
    const src =
      "import os\n\ndef broken(:\n    return os.getcwd(\n\nclass Fine:\n    def ok(self):\n        return 1\n";
    const f = await extractor.extract("broken.py", src, "python");
    expect(f.syntaxErrors).toBeGreaterThan(0);
    expect(f.symbols.map((s) => s.qualifiedName)).toContain("Fine.ok");
    expect(f.dependencies).toContainEqual(edge("imports", null, "os", 1));
  });

  test("over 8 MiB of UTF-8 → INVALID_INPUT, before parsing", async () => {
    const ascii = "x".repeat(8 * 1024 * 1024 + 1);
    expect((await failure(extractor.extract("big.py", ascii, "python"))).code).toBe("INVALID_INPUT");
    const cyrillic = "я".repeat(4_200_000); // 4.2 M characters, 8.4 MB in UTF-8
    const err = await failure(extractor.extract("big.py", cyrillic, "python"));
    expect(err.code).toBe("INVALID_INPUT");
    expect(err.message).toContain("8400000 bytes");
  });

  test("a language without a registered spec → UNSUPPORTED_MEDIA naming it", async () => {
    const err = await failure(extractor.extract("x.cob", "", "cobol" as CodeLanguage));
    expect(err.code).toBe("UNSUPPORTED_MEDIA");
    expect(err.message).toContain("'cobol'");
  });

  test("a grammar whose ABI the runtime cannot load → INTERNAL naming the grammar and both versions", async () => {
    const bytes = new Uint8Array(readFileSync(GRAMMAR_FILES.bash));
    const language = await grammar("bash");
    // TSLanguage starts with abi_version; state_count is at +20 and field_count at +32 (tree-sitter's parser.h).
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    let at = -1;
    for (let i = 0; i + 36 <= bytes.length && at < 0; i++) {
      const hit =
        view.getUint32(i, true) === language.abiVersion && view.getUint32(i + 20, true) === language.stateCount;
      if (hit && view.getUint32(i + 32, true) === language.fieldCount) at = i;
    }
    expect(at).toBeGreaterThan(0);
    const { min, max } = await runtimeAbiRange();
    for (const abi of [max + 84, min - 1]) {
      const patched = bytes.slice();
      new DataView(patched.buffer).setUint32(at, abi, true);
      const err = await failure(loadGrammar("bash-patched", patched));
      expect(err.code).toBe("INTERNAL");
      expect(err.message).toBe(
        `grammar 'bash-patched' has tree-sitter ABI version ${abi}, but this tree-sitter runtime loads ABI versions ${min} through ${max}`,
      );
      expect(err.hint).toBeTruthy();
    }
  });

  test("bytes that are not a grammar → INTERNAL naming it", async () => {
    const err = await failure(loadGrammar("garbage", new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0, 99])));
    expect(err.code).toBe("INTERNAL");
    expect(err.message).toStartWith("grammar 'garbage' could not be loaded");
  });

  test("a query that does not compile, or an unknown kind → INTERNAL naming the language and the query", async () => {
    const bad: LanguageSpec = {
      ...LANGUAGE_SPECS.python!,
      language: "ruby",
      queries: { definitions: "(class_definition) @definition.class", calls: "(no_such_node) @call" },
    };
    const err = await failure(compileLanguage(bad));
    expect(err.code).toBe("INTERNAL");
    expect(err.message).toStartWith("the calls query of language 'ruby' does not compile");
    const kind: LanguageSpec = {
      ...bad,
      language: "java",
      queries: { definitions: "(class_definition name: (identifier) @name) @definition.klass" },
    };
    expect((await failure(compileLanguage(kind))).message).toContain("'klass' is not a symbol kind");
  });
});

describe("generic captures", () => {
  const spec: LanguageSpec = {
    language: "c",
    grammar: "python",
    extensions: [],
    commentTypes: ["comment"],
    queries: {
      definitions: `
        (class_definition name: (identifier) @name) @scope
        ((function_definition name: (identifier) @name) @skip (#eq? @name "hidden"))
        (decorated_definition (decorator (identifier) @owner) definition: (function_definition name: (identifier) @name) @definition.function)
        (function_definition name: (identifier) @name) @definition.function`,
      inherits: `(class_definition name: (identifier) @child superclasses: (argument_list (identifier) @base))`,
    },
  };

  test("@scope names without being a symbol, @owner qualifies, @skip hides, @child names the inheritor", async () => {
    const src =
      "class Outer(Base):\n    def run(self): pass\n    def hidden(self): pass\n\n@Router\ndef route(): pass\n";
    const f = await extractWithSpec(spec, "m.py", src);
    expect(f.symbols.map((s) => [s.qualifiedName, s.kind, s.lineStart])).toEqual([
      ["Outer.run", "method", 2],
      ["Router.route", "method", 6],
    ]);
    expect(f.dependencies).toEqual([edge("inherits", "Outer", "Base", 1)]);
    expect(f.module).toBe("m");
  });
});

describe("leading comments", () => {
  test("a comment right below a node that ends with its newline (C `#include`) is a doc, not a trailing comment", async () => {
    const { c } = await import("../../src/adapters/tree-sitter/languages/c.ts");
    const f = await extractWithSpec(c, "x.h", "#include <stddef.h>\n/* Opens a ring. */\nint ring_open(void);\n");
    expect(f.symbols[0]).toMatchObject({ qualifiedName: "ring_open", docstring: "Opens a ring." });
  });

  test("a comment after code on its line, or above a blank line, is not a doc", async () => {
    const src = "x = 1  # trailing\ndef f():\n    pass\n\n# detached\n\ndef g():\n    pass\n";
    const f = await extractor.extract("m.py", src, "python");
    expect(f.symbols.filter((s) => s.kind === "function").map((s) => [s.name, s.docstring])).toEqual([
      ["f", null],
      ["g", null],
    ]);
  });
});

describe("text helpers", () => {
  test("comment markers of the twelve languages", () => {
    expect(stripCommentMarkers("/**\n * Sends.\n *\n * @param x one\n */")).toBe("\nSends.\n\n@param x one\n ");
    expect(stripCommentMarkers("/// Rust doc")).toBe("Rust doc");
    expect(stripCommentMarkers("//! inner")).toBe("inner");
    expect(stripCommentMarkers("# shell")).toBe("shell");
    expect(stripCommentMarkers("/* c */")).toBe(" c ");
  });

  test("python docstrings: prefixes, quotes, cleandoc indentation", () => {
    expect(pythonDocstring('r"""Summary.\n\n    Details\n      indented.\n    """')).toBe(
      "Summary.\n\nDetails\n  indented.",
    );
    expect(pythonDocstring("'one line'")).toBe("one line");
    expect(pythonDocstring('""""""')).toBeNull();
  });

  test("signatures, caps, excerpts, specifiers", () => {
    expect(cleanSignature("def f(x,\n      y) ->  int:")).toBe("def f(x, y) -> int");
    expect(cleanSignature("X = {")).toBe("X");
    expect(cleanSignature("   ")).toBeNull();
    expect(cleanSignature(`f(${"a, ".repeat(200)})`)!.length).toBe(300);
    expect(cap("ab😀cd", 4)).toBe("ab…");
    expect(excerpt(`a\n   .b(${"x".repeat(1000)})`, 0, 1009, 20)).toBe("a .b(xxxxxxxxxxxxxx…");
    expect(unquote('"./x"')).toBe("./x");
    expect(unquote("<stdio.h>")).toBe("stdio.h");
    expect(unquote("fmt")).toBe("fmt");
  });
});
