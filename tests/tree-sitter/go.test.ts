/**
 * Go spec on a real-shaped package file (snippets/go/store.go): every symbol with qualified name, kind,
 * lines, signature and docstring, every edge and binding, exactly; plus the language's special cases.
 */
import { describe, expect, test } from "bun:test";
import { treeSitterExtractor } from "../../src/adapters/tree-sitter/extractor.ts";
import { edge, snippet, sym } from "./support.ts";

const extractor = treeSitterExtractor();
const file = await extractor.extract("internal/store/store.go", snippet("go/store.go"), "go");

describe("go snippet", () => {
  test("language, module, no syntax errors", () => {
    expect(extractor.languageOf("internal/store/store.go")).toBe("go");
    expect(file.language).toBe("go");
    expect(file.module).toBe("internal/store/store");
    expect(file.syntaxErrors).toBe(0);
  });

  test("symbols", () => {
    expect(file.symbols).toEqual([
      sym(
        "DefaultTTL",
        "constant",
        [16, 16],
        "const DefaultTTL = 30 * time.Minute",
        "DefaultTTL is how long a session lives without use.",
      ),
      sym("Store", "interface", [19, 23], "type Store interface", "Store is the session storage contract."),
      sym("Store.Get", "method", [21, 21], "Get(ctx context.Context, id string) (*Session, error)"),
      sym("Store.Put", "method", [22, 22], "Put(ctx context.Context, s *Session) error"),
      sym("Session", "struct", [26, 30], "type Session struct", "Session is one logged-in user."),
      sym("MemoryStore", "struct", [33, 36], "type MemoryStore struct", "MemoryStore is a Store held in a map."),
      sym(
        "NewMemoryStore",
        "function",
        [39, 41],
        "func NewMemoryStore() *MemoryStore",
        "NewMemoryStore returns an empty store.",
      ),
      sym(
        "MemoryStore.Get",
        "method",
        [44, 51],
        "func (m *MemoryStore) Get(ctx context.Context, id string) (*Session, error)",
        "Get returns the session or an error when it expired.",
      ),
      sym("MemoryStore.String", "method", [53, 56], "func (m MemoryStore) String() string"),
    ]);
  });

  test("edges: imports, calls with receivers, inherits", () => {
    expect(file.dependencies).toEqual([
      edge("imports", null, "context", 5),
      edge("imports", null, "fmt", 6),
      edge("imports", null, "sync", 7),
      edge("imports", null, "time", 8),
      edge("imports", null, "github.com/sirupsen/logrus", 10),
      edge("imports", null, "gopkg.in/yaml.v3", 11),
      edge("imports", null, "embed", 12),
      edge("inherits", "Store", "fmt.Stringer", 20),
      edge("inherits", "Session", "sync.Mutex", 27),
      edge("inherits", "MemoryStore", "Session", 34),
      edge("calls", "NewMemoryStore", "make", 40),
      edge("calls", "MemoryStore.Get", "Now", 46, "time"),
      edge("calls", "MemoryStore.Get", "After", 46, "time.Now()"),
      edge("calls", "MemoryStore.Get", "Errorf", 47, "fmt"),
      edge("calls", "MemoryStore.Get", "WithField", 49, "log"),
      edge("calls", "MemoryStore.Get", "Debug", 49, 'log.WithField("id", id)'),
      edge("calls", "MemoryStore.String", "Marshal", 54, "yaml"),
      edge("calls", "MemoryStore.String", "string", 55),
    ]);
  });

  test("import bindings", () => {
    expect(file.imports).toEqual([
      { local: "context", module: "context", name: null },
      { local: "fmt", module: "fmt", name: null },
      { local: "sync", module: "sync", name: null },
      { local: "time", module: "time", name: null },
      { local: "log", module: "github.com/sirupsen/logrus", name: null },
      { local: "yaml", module: "gopkg.in/yaml.v3", name: null },
    ]);
  });

  test("generic receivers, grouped constants, dot and blank imports, package names from paths", async () => {
    const src = [
      "package list",
      'import (\n\t. "strings"\n\tv2 "github.com/x/y/v2"\n\t"github.com/x/yaml/v3"\n)',
      "const (\n\t// A is first.\n\tA = iota\n\tB\n)",
      "func (l *List[T]) Len() int { return yaml.Count(l) }",
    ].join("\n");
    const f = await extractor.extract("list.go", src, "go");
    expect(f.symbols.map((s) => [s.qualifiedName, s.kind, s.lineStart, s.signature, s.docstring])).toEqual([
      ["A", "constant", 9, "A = iota", "A is first."],
      ["B", "constant", 10, "B", null],
      ["List.Len", "method", 12, "func (l *List[T]) Len() int", null],
    ]);
    expect(f.imports).toEqual([
      { local: "v2", module: "github.com/x/y/v2", name: null },
      { local: "yaml", module: "github.com/x/yaml/v3", name: null },
    ]);
    expect(f.dependencies.filter((d) => d.kind === "calls")).toEqual([edge("calls", "List.Len", "Count", 12, "yaml")]);
  });
});
