/**
 * JavaScript spec on a real-shaped ES module (snippets/javascript/router.js): every symbol with qualified name, kind,
 * lines, signature and docstring, every edge and binding, exactly; plus the language's special cases.
 */
import { describe, expect, test } from "bun:test";
import { treeSitterExtractor } from "../../src/adapters/tree-sitter/extractor.ts";
import { edge, snippet, sym } from "./support.ts";

const extractor = treeSitterExtractor();
const file = await extractor.extract("src/http/router.js", snippet("javascript/router.js"), "javascript");

describe("javascript snippet", () => {
  test("language, module, no syntax errors", () => {
    expect(extractor.languageOf("src/http/router.js")).toBe("javascript");
    expect(file.language).toBe("javascript");
    expect(file.module).toBe("src/http/router");
    expect(file.syntaxErrors).toBe(0);
  });

  test("symbols", () => {
    expect(file.symbols).toEqual([
      sym("DEFAULT_PORT", "constant", [8, 8], "export const DEFAULT_PORT = 8080"),
      sym("Handler", "class", [13, 22], "class Handler", "Base class of HTTP handlers."),
      sym("Handler.constructor", "method", [14, 16], "constructor(name)"),
      sym("Handler.send", "method", [19, 21], "send(res, body)", "Sends a JSON body."),
      sym(
        "StaticHandler",
        "class",
        [25, 36],
        "export class StaticHandler extends Handler",
        "Serves files below one root folder.",
      ),
      sym("StaticHandler.constructor", "method", [26, 29], "constructor(root)"),
      sym("StaticHandler.handle", "method", [31, 35], "async handle(req, res)"),
      sym("buildRouter", "function", [39, 44], "export function buildRouter(root)", "Builds the application router."),
      sym("logRequest", "function", [46, 48], "const logRequest = (req)"),
      sym("start", "function", [50, 55], "export default function start(port = DEFAULT_PORT)"),
    ]);
  });

  test("edges: imports, calls with receivers, inherits", () => {
    expect(file.dependencies).toEqual([
      edge("imports", null, "express", 2),
      edge("imports", null, "node:path", 3),
      edge("imports", null, "./polyfills.js", 4),
      edge("imports", null, "node:util", 5),
      edge("imports", null, "node:fs", 6),
      edge("calls", "Handler.send", "status", 20, "res"),
      edge("calls", "Handler.send", "json", 20, "res.status(200)"),
      edge("inherits", "StaticHandler", "Handler", 25),
      edge("calls", "StaticHandler.constructor", "resolve", 28, "path"),
      edge("calls", "StaticHandler.handle", "promisify", 32),
      edge("calls", "StaticHandler.handle", "readFile", 33),
      edge("calls", "StaticHandler.handle", "join", 33, "path"),
      edge("calls", "StaticHandler.handle", "send", 34, "this"),
      edge("calls", "buildRouter", "makeRouter", 40),
      edge("calls", "buildRouter", "StaticHandler", 41),
      edge("calls", "buildRouter", "get", 42, "router"),
      edge("calls", "buildRouter", "handle", 42, "handler"),
      edge("calls", "logRequest", "info", 47, "console"),
      edge("calls", "start", "express", 51),
      edge("calls", "start", "use", 52, "app"),
      edge("calls", "start", "buildRouter", 53),
      edge("calls", "start", "cwd", 53, "process"),
      edge("calls", "start", "listen", 54, "app"),
    ]);
  });

  test("import bindings", () => {
    expect(file.imports).toEqual([
      { local: "express", module: "express", name: "default" },
      { local: "makeRouter", module: "express", name: "Router" },
      { local: "path", module: "node:path", name: null },
      { local: "promisify", module: "node:util", name: "promisify" },
      { local: "fs", module: "node:fs", name: null },
    ]);
  });

  test("CommonJS: require bindings are imports, not constants; module.exports files; JSX components are calls", async () => {
    const src =
      'const { a, b: c } = require("./lib");\nconst lib = require("lib");\nfunction App() {\n  return <Layout.Page><Item /></Layout.Page>;\n}\n';
    const f = await extractor.extract("lib/index.jsx", src, "javascript");
    expect(f.module).toBe("lib");
    expect(f.symbols.map((s) => s.qualifiedName)).toEqual(["App"]);
    expect(f.imports).toEqual([
      { local: "a", module: "./lib", name: "a" },
      { local: "c", module: "./lib", name: "b" },
      { local: "lib", module: "lib", name: null },
    ]);
    expect(f.dependencies).toEqual([
      edge("imports", null, "./lib", 1),
      edge("imports", null, "lib", 2),
      edge("calls", "App", "Page", 4, "Layout"),
      edge("calls", "App", "Item", 4),
    ]);
  });
});
