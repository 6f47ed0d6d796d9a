/**
 * C++ spec (src/adapters/tree-sitter/languages/cpp.ts) on a real-shaped source file (snippets/cpp/shapes.cpp): every
 * symbol with its qualified name, kind, lines, signature and docstring, and every edge and binding, exactly.
 * Extraction takes the spec in hand (`extractWithSpec`), so the test does not depend on the registry entry; once
 * the spec is registered, the registered extractor must agree.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { extractWithSpec, treeSitterExtractor } from "../../src/adapters/tree-sitter/extractor.ts";
import { LANGUAGE_SPECS } from "../../src/adapters/tree-sitter/languages/index.ts";
import { cpp } from "../../src/adapters/tree-sitter/languages/cpp.ts";
import { edge, sym } from "./support.ts";

const PATH = "src/geo/shapes.cpp";
const SOURCE = readFileSync(fileURLToPath(new URL("./snippets/cpp/shapes.cpp", import.meta.url)), "utf8");

describe("cpp spec on snippets/cpp/shapes.cpp", () => {
  test("symbols: namespace, constexpr, alias, classes with in-class and out-of-line methods, struct, enum class, template", async () => {
    const file = await extractWithSpec(cpp, PATH, SOURCE);
    expect(file.module).toBe("src/geo/shapes");
    expect(file.syntaxErrors).toBe(0);
    expect(file.symbols).toEqual([
      sym("geo", "module", [7, 55], "namespace geo"),
      sym(
        "geo.kEpsilon",
        "constant",
        [10, 10],
        "constexpr double kEpsilon = 1e-9",
        "Numeric tolerance for comparisons.",
      ),
      sym("geo.Coord", "type", [12, 12], "using Coord = double"),
      sym("geo.Shape", "class", [15, 21], "class Shape", "Abstract base of all shapes."),
      sym("geo.Shape.~Shape", "method", [17, 17], "virtual ~Shape() = default"),
      sym("geo.Shape.area", "method", [19, 19], "virtual double area() const = 0", "Area in square units."),
      sym("geo.Shape.name", "method", [20, 20], "virtual std::string name() const"),
      sym(
        "geo.Circle",
        "class",
        [24, 32],
        "class Circle : public Shape, private detail::Named",
        "A circle given by its radius.",
      ),
      sym("geo.Circle.Circle", "method", [26, 26], "explicit Circle(double r)"),
      sym("geo.Circle.area", "method", [27, 27], "double area() const override"),
      sym("geo.Circle.name", "method", [28, 28], "std::string name() const override"),
      sym("geo.Point", "struct", [34, 36], "struct Point"),
      sym("geo.Color", "enum", [38, 38], "enum class Color"),
      sym("geo.Circle.area", "method", [41, 41], "double Circle::area() const", "Out-of-line definition."),
      sym(
        "geo.total_area",
        "function",
        [44, 48],
        "double total_area(const std::vector<std::unique_ptr<Shape>>& shapes)",
        "Sums the areas of all shapes.",
      ),
      sym("geo.clamp", "function", [51, 53], "template <typename T> T clamp(T v, T lo, T hi)"),
      sym("main", "function", [57, 61], "int main()"),
    ]);
  });

  test("edges: #include, base classes, member/qualified/template calls with receivers", async () => {
    const file = await extractWithSpec(cpp, PATH, SOURCE);
    expect(file.dependencies).toEqual([
      edge("imports", null, "memory", 2),
      edge("imports", null, "string", 3),
      edge("imports", null, "vector", 4),
      edge("imports", null, "geo/named.hpp", 5),
      edge("inherits", "geo.Circle", "Shape", 24),
      edge("inherits", "geo.Circle", "detail::Named", 24),
      edge("calls", "geo.Circle.name", "label", 28),
      edge("calls", "geo.total_area", "area", 46, "s"),
      edge("calls", "geo.clamp", "max", 52, "std"),
      edge("calls", "geo.clamp", "min", 52, "std"),
      edge("calls", "main", "push_back", 59, "shapes"),
      edge("calls", "main", "make_unique", 59, "std"),
      edge("calls", "main", "total_area", 60, "geo"),
    ]);
    expect(file.imports).toEqual([]);
  });
});

describe("cpp spec: forms the snippet does not show", () => {
  const SRC = `namespace a::b { int f(); }
class A {
 public:
  A(int x);
  ~A();
  static constexpr int N = 3;
  bool operator==(const A& o) const;
  const std::string& name() const { return n_; }
  class Inner { void g(); };
  friend void swap(A&, A&);
  template <typename T> T get() const;
};
A::A(int x) : n_(x) { init(new Buffer(x), new io::Stream<int>()); }
bool A::operator==(const A& o) const { return lib::detail::Cmp::equal(*this, o); }
template <typename T> T A::get() const { return obj.template as<T>(); }
struct D : std::enable_shared_from_this<D>, Base<int> {};
`;

  test("nested namespaces, constructors, destructors, operators, static constexpr, templates, new, deep qualified calls", async () => {
    const file = await extractWithSpec(cpp, "a.cpp", SRC);
    expect(file.syntaxErrors).toBe(0);
    expect(file.symbols.map((s) => [s.qualifiedName, s.kind, s.lineStart, s.signature])).toEqual([
      ["a::b", "module", 1, "namespace a::b"],
      ["a::b.f", "function", 1, "int f()"],
      ["A", "class", 2, "class A"],
      ["A.A", "method", 4, "A(int x)"],
      ["A.~A", "method", 5, "~A()"],
      ["A.N", "constant", 6, "static constexpr int N = 3"],
      ["A.operator==", "method", 7, "bool operator==(const A& o) const"],
      ["A.name", "method", 8, "const std::string& name() const"],
      ["A.Inner", "class", 9, "class Inner"],
      ["A.Inner.g", "method", 9, "void g()"],
      ["A.get", "method", 11, "template <typename T> T get() const"],
      ["A.A", "method", 13, "A::A(int x)"],
      ["A.operator==", "method", 14, "bool A::operator==(const A& o) const"],
      ["A.get", "method", 15, "template <typename T> T A::get() const"],
      ["D", "struct", 16, "struct D : std::enable_shared_from_this<D>, Base<int>"],
    ]);
    expect(file.dependencies).toEqual([
      edge("calls", "A.A", "init", 13),
      edge("calls", "A.A", "Buffer", 13),
      edge("calls", "A.A", "Stream", 13, "io"),
      edge("calls", "A.operator==", "equal", 14, "Cmp"),
      edge("calls", "A.get", "as", 15, "obj"),
      edge("inherits", "D", "enable_shared_from_this", 16),
      edge("inherits", "D", "Base", 16),
    ]);
  });
});

describe("cpp spec through the registry", () => {
  test.skipIf(!LANGUAGE_SPECS.cpp)(
    "registered extractor agrees with the spec (skipped until languages/index.ts registers cpp)",
    async () => {
      expect(await treeSitterExtractor().extract(PATH, SOURCE, "cpp")).toEqual(
        await extractWithSpec(cpp, PATH, SOURCE),
      );
    },
  );
});
