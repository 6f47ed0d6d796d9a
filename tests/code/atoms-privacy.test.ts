/**
 * Which documented symbols become code atoms (planCodeAtoms / isPrivateSymbol), on sources extracted by the real
 * tree-sitter extractor: C++ by access labels and class/struct defaults (a `private` base is no private class), C#
 * by modifiers or their absence on a class member, Java by modifiers (never its base list).
 */
import { describe, expect, test } from "bun:test";
import { treeSitterExtractor } from "../../src/adapters/tree-sitter/extractor.ts";
import { planCodeAtoms } from "../../src/core/code/atoms.ts";
import type { CodeLanguage } from "../../src/ports/models/symbol-extractor.ts";
import { snippet } from "../tree-sitter/support.ts";

async function atoms(path: string, source: string, language: CodeLanguage): Promise<string[]> {
  const f = await treeSitterExtractor().extract(path, source, language);
  return planCodeAtoms(path, language, f.symbols, source, "r").map((a) => a.symbol.qualifiedName);
}

describe("code atoms: visibility", () => {
  test("C++: access labels decide, a private base list does not; class members default private, struct public", async () => {
    const src = [
      "/// Counts things.",
      "class Counter : private Base {",
      "  /// Hidden by default.",
      "  void fallback();",
      " public:",
      "  /// Adds one.",
      "  void add();",
      "  /// A nested helper.",
      "  struct Step {",
      "   private:",
      "    /// Inside the nested struct.",
      "    int inner();",
      "  };",
      "  /// Still public after the nested struct.",
      "  int value() const;",
      " private:",
      "  /// Documented but private.",
      "  void secret();",
      " protected:",
      "  /// For subclasses.",
      "  void hook();",
      "};",
      "/// A plain struct.",
      "struct Pair {",
      "  /// Public by default.",
      "  int first();",
      "};",
      "/// Out of line: private like its declaration.",
      "void Counter::secret() {}",
      "/// Out of line: public like its declaration.",
      "void Counter::add() {}",
      "",
    ].join("\n");
    expect(await atoms("counter.cpp", src, "cpp")).toEqual([
      // `Counter.Step` has no docstring: the extractor does not see the comment above a struct declared as a member.
      "Counter",
      "Counter.add",
      "Counter.value",
      "Counter.hook",
      "Pair",
      "Pair.first",
      "Counter.add",
    ]);
  });

  test("C++ snippet: `class Circle : public Shape, private detail::Named` gets its atom", async () => {
    expect(await atoms("src/shapes.cpp", snippet("cpp/shapes.cpp"), "cpp")).toContain("geo.Circle");
  });

  test("C#: `private` or no modifier on a class member hides; interface members and modifiers like `public` do not", async () => {
    const src = [
      "namespace N {",
      "  /// A service.",
      "  public class S {",
      "    /// Implicitly private.",
      "    void Helper() {}",
      "    /// Explicitly private.",
      "    private int Count() { return 0; }",
      "    /// Public.",
      "    public void Run() {}",
      "    /// Internal.",
      "    internal void Tool() {}",
      "  }",
      "  /// A contract.",
      "  public interface I {",
      "    /// Implicitly public.",
      "    void Go();",
      "  }",
      "}",
      "",
    ].join("\n");
    expect(await atoms("s.cs", src, "c_sharp")).toEqual(["N.S", "N.S.Run", "N.S.Tool", "N.I", "N.I.Go"]);
  });

  test("Java: a `private` modifier hides, a parameter or base named so does not", async () => {
    const src =
      "/** A box. */\npublic class Box extends Base {\n  /** Hidden. */\n  private void a() {}\n  /** Shown. */\n  public void b(int privateCount) {}\n}\n";
    expect(await atoms("Box.java", src, "java")).toEqual(["Box", "Box.b"]);
  });
});
