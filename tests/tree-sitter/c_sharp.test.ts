/**
 * C# spec (src/adapters/tree-sitter/languages/c_sharp.ts) on a real-shaped source file (snippets/c_sharp/OrderService.cs):
 * every symbol with its qualified name, kind, lines, signature and docstring, and every edge and binding, exactly.
 * Extraction takes the spec in hand (`extractWithSpec`), so the test does not depend on the registry entry; once
 * the spec is registered, the registered extractor must agree.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { extractWithSpec, treeSitterExtractor } from "../../src/adapters/tree-sitter/extractor.ts";
import { LANGUAGE_SPECS } from "../../src/adapters/tree-sitter/languages/index.ts";
import { c_sharp, xmlDocText } from "../../src/adapters/tree-sitter/languages/c_sharp.ts";
import { edge, sym } from "./support.ts";

const PATH = "src/Shop/Orders/OrderService.cs";
const SOURCE = readFileSync(fileURLToPath(new URL("./snippets/c_sharp/OrderService.cs", import.meta.url)), "utf8");
const NS = "Shop.Orders";

describe("c_sharp spec on snippets/c_sharp/OrderService.cs", () => {
  test("symbols: namespace, interface, class, const, constructor, methods, record, struct, enum, delegate; XML docs as text", async () => {
    const file = await extractWithSpec(c_sharp, PATH, SOURCE);
    expect(file.module).toBe("src/Shop/Orders/OrderService");
    expect(file.syntaxErrors).toBe(0);
    expect(file.symbols).toEqual([
      { ...sym(NS, "module", [6, 56], "namespace Shop.Orders"), name: NS },
      sym(`${NS}.IPriced`, "interface", [9, 12], "public interface IPriced", "Something that can be priced."),
      sym(`${NS}.IPriced.Total`, "method", [11, 11], "decimal Total()"),
      sym(
        `${NS}.OrderService`,
        "class",
        [17, 44],
        "public class OrderService : ServiceBase, IDisposable",
        "Places orders and keeps their history.",
      ),
      sym(
        `${NS}.OrderService.MaxItems`,
        "constant",
        [20, 20],
        "public const int MaxItems = 100",
        "Largest order accepted.",
      ),
      sym(
        `${NS}.OrderService.OrderService`,
        "method",
        [25, 28],
        "public OrderService(IRepository repo)",
        "Builds the service over a repository.",
      ),
      sym(
        `${NS}.OrderService.Place`,
        "method",
        [33, 39],
        "public Order Place(string customer, decimal amount)",
        "Places one order.\ncustomer: Who orders.\nReturns: The stored Order.",
      ),
      sym(`${NS}.OrderService.Dispose`, "method", [43, 43], "public void Dispose()"),
      sym(`${NS}.Order`, "class", [46, 49], "public record Order(string Customer, decimal Amount) : IPriced"),
      sym(`${NS}.Order.Total`, "method", [48, 48], "public decimal Total()"),
      sym(`${NS}.Money`, "struct", [51, 51], "public struct Money"),
      sym(`${NS}.OrderState`, "enum", [53, 53], "public enum OrderState"),
      sym(`${NS}.OrderPlaced`, "type", [55, 55], "public delegate void OrderPlaced(Order order)"),
    ]);
  });

  test("edges: using directives, base lists, calls with receivers and `new`", async () => {
    const file = await extractWithSpec(c_sharp, PATH, SOURCE);
    expect(file.dependencies).toEqual([
      edge("imports", null, "System", 1),
      edge("imports", null, "System.Collections.Generic", 2),
      edge("imports", null, "System.Text.Json.JsonSerializer", 3),
      edge("imports", null, "System.Math", 4),
      edge("inherits", `${NS}.OrderService`, "ServiceBase", 17),
      edge("inherits", `${NS}.OrderService`, "IDisposable", 17),
      edge("calls", `${NS}.OrderService`, "List", 22),
      edge("calls", `${NS}.OrderService.OrderService`, "Log", 27),
      edge("calls", `${NS}.OrderService.Place`, "Order", 35),
      edge("calls", `${NS}.OrderService.Place`, "Round", 35),
      edge("calls", `${NS}.OrderService.Place`, "Add", 36, "_history"),
      edge("calls", `${NS}.OrderService.Place`, "Save", 37, "this.Repository"),
      edge("calls", `${NS}.OrderService.Place`, "Serialize", 37, "Json"),
      edge("calls", `${NS}.OrderService.Dispose`, "Dispose", 43, "Repository"),
      edge("inherits", `${NS}.Order`, "IPriced", 46),
    ]);
    // `using N;` and `using static T;` open a namespace or type: only the alias binds a name.
    expect(file.imports).toEqual([{ local: "Json", module: "System.Text.Json.JsonSerializer", name: null }]);
  });
});

describe("c_sharp spec: forms the snippet does not show", () => {
  const SRC = `namespace Shop.Orders;

[Serializable]
public sealed class Cache<T> : Base<T>, Outer.IFoo where T : class
{
    [Obsolete("use Get")]
    public static T Make<U>() { return Helper.Create<T>(); }

    private int Fill() { int Local(int x) => x * 2; return Local(new Sys.Buffer().Size); }
}
`;

  test("file-scoped namespace, attributes skipped in signatures, generic bases and calls, local functions, qualified `new`", async () => {
    const file = await extractWithSpec(c_sharp, "Cache.cs", SRC);
    expect(file.symbols.map((s) => [s.qualifiedName, s.kind, s.lineStart, s.lineEnd, s.signature])).toEqual([
      ["Shop.Orders", "module", 1, 1, "namespace Shop.Orders"],
      ["Cache", "class", 3, 10, "public sealed class Cache<T> : Base<T>, Outer.IFoo where T : class"],
      ["Cache.Make", "method", 6, 7, "public static T Make<U>()"],
      ["Cache.Fill", "method", 9, 9, "private int Fill()"],
      ["Cache.Fill.Local", "function", 9, 9, "int Local(int x)"],
    ]);
    expect(file.dependencies).toEqual([
      edge("inherits", "Cache", "Base", 4),
      edge("inherits", "Cache", "Outer.IFoo", 4),
      edge("calls", "Cache.Make", "Create", 7, "Helper"),
      edge("calls", "Cache.Fill", "Local", 9),
      edge("calls", "Cache.Fill", "Buffer", 9, "Sys"),
    ]);
  });

  test("XML doc text: references, params, type params, returns, exceptions, entities", () => {
    const doc = `<summary>Sums the <paramref name="values"/> &amp; returns <c>0</c> for none.</summary>
<typeparam name="T">The element type.</typeparam>
<param name="values">Numbers; see <see cref="T:System.Math"/>.</param>
<returns>The total.</returns>
<exception cref="System.OverflowException">On overflow.</exception>`;
    expect(xmlDocText(doc)).toBe(
      "Sums the values & returns 0 for none.\nT: The element type.\nvalues: Numbers; see System.Math.\nReturns: The total.\nThrows System.OverflowException: On overflow.",
    );
    expect(xmlDocText("<summary></summary>")).toBeNull();
  });
});

describe("c_sharp spec through the registry", () => {
  test.skipIf(!LANGUAGE_SPECS.c_sharp)(
    "registered extractor agrees with the spec (skipped until languages/index.ts registers c_sharp)",
    async () => {
      expect(await treeSitterExtractor().extract(PATH, SOURCE, "c_sharp")).toEqual(
        await extractWithSpec(c_sharp, PATH, SOURCE),
      );
    },
  );
});
