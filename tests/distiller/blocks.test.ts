import { describe, expect, test } from "bun:test";
import { PRIORS } from "../../src/adapters/distiller/heuristic/priors.ts";
import { atomsOf, ofType } from "./support.ts";

describe("table atoms", () => {
  test("a Markdown table is kept whole with its header", () => {
    const table =
      "| Drug | Dose | Effect |\n| --- | ---: | --- |\n| Chloroquine | 10 μM | strong |\n| Monensin | 50 nM | weak |";
    const text = `Table 1. Lysosomotropic amines that enhance cytotoxicity.\n${table}\n\nThe effect depends on the dose.`;
    const [t] = ofType(text, "table");
    expect(t.claim).toBe("Table 1. Lysosomotropic amines that enhance cytotoxicity.");
    expect(t.content).toBe(`Table 1. Lysosomotropic amines that enhance cytotoxicity.\n${table}`);
    expect(t.quote).toBe(t.content);
    expect(t.confidence).toBe(PRIORS.table_markdown);
    // No cell becomes a sentence or a fact.
    expect(atomsOf(text).map((a) => a.type)).toEqual(["table", "text"]);
  });

  test("without a caption the claim names the header cells", () => {
    const [t] = ofType("| Name | Kind |\n|------|------|\n| add | function |", "table");
    expect(t.claim).toBe("Table: Name | Kind");
  });

  test("rows as our HTML parser emits them: one paragraph per <tr>, cells joined by ' | '", () => {
    const text =
      "Platform | x86_64 / amd64 | arm64 / aarch64\n\nCentOS | yes | yes\n\nDebian | yes | no\n\nUbuntu | yes | yes\n\nOther Linux distributions are not tested by Docker at all.";
    const [t] = ofType(text, "table");
    expect(t.claim).toBe("Table: Platform | x86_64 / amd64 | arm64 / aarch64");
    expect(t.content.endsWith("Ubuntu | yes | yes")).toBe(true);
    expect(t.confidence).toBe(PRIORS.table_pipe);
  });

  test("an infobox (key | value rows, a cell holding a list) keeps every row; the claim lists the keys", () => {
    const text =
      "Industry | Open-source software\n\nFounded | February 28, 1998\n\nDivisions |\n\nMozilla Corporation\n\nMozilla Foundation\n\nWebsite | mozilla.org";
    const [t] = ofType(text, "table");
    expect(t.claim).toBe("Table: Industry, Founded, Divisions, Website");
    expect(t.content).toBe(text);
  });

  test("the same layout proposed for the HTML parser (rows on consecutive lines) is a table too", () => {
    const [t] = ofType("Industry | Open-source software\nFounded | February 28, 1998\nFounder | Netscape", "table");
    expect(t.claim).toBe("Table: Industry, Founded, Founder");
  });

  test("tab-separated rows", () => {
    const [t] = ofType("year\trevenue\tgrowth\n2010\t123\t-\n2011\t163\t33%", "table");
    expect([t.claim, t.confidence]).toEqual(["Table: year | revenue | growth", PRIORS.table_tab]);
  });

  test("a pipe in prose, two lone rows or a shell pipeline are not tables", () => {
    expect(ofType("Gay Firefox developers boycott Mozilla | Ars Technica. arstechnica.com.", "table")).toEqual([]);
    expect(ofType("a | b\n\nc | d", "table")).toEqual([]);
    expect(
      ofType("cat access.log | grep 404 | wc -l\nsort names.txt | uniq -c | sort -n\nls -la | head -n 5", "table"),
    ).toEqual([]);
  });
});

describe("code atoms", () => {
  test("a fenced block, language from the info string, claim from the introducing sentence", () => {
    const text =
      "For example, we can do this in Node.js:\n\n```js\nconst binary = require('fs').readFileSync('add.wasm');\nconsole.log(binary.length);\n```\n\nJust 4 lines!";
    const atoms = atomsOf(text);
    const code = atoms.find((a) => a.type === "code")!;
    expect(code.claim).toBe("Code (js): For example, we can do this in Node.js");
    expect(code.content).toBe("const binary = require('fs').readFileSync('add.wasm');\nconsole.log(binary.length);");
    expect(code.confidence).toBe(PRIORS.code_fenced);
    const intro = atoms.findIndex((a) => a.type === "text");
    expect(atoms[intro].links).toEqual([{ to: atoms.indexOf(code), kind: "reference" }]);
  });

  test("a fence left open by a chunk boundary runs to the end of the chunk", () => {
    const [code] = ofType("Build it like this:\n\n```\nemcc -O3 add.c -o add.wasm\nwasmer run add.wasm", "code");
    expect(code.content).toBe("emcc -O3 add.c -o add.wasm\nwasmer run add.wasm");
  });

  test("<pre> as our HTML parser emits it: no fence, whitespace kept, blank lines split it", () => {
    const text =
      "Let's start with a program that adds two numbers:\n\n// add.c\n#include <emscripten.h>\n\nEMSCRIPTEN_KEEPALIVE\nint add(int x, int y) {\n  return x + y;\n}\n\nWe'd normally build this with emcc.";
    const [code] = ofType(text, "code");
    expect(code.claim).toBe("Code (c): Let's start with a program that adds two numbers");
    expect(code.content).toBe(
      "// add.c\n#include <emscripten.h>\n\nEMSCRIPTEN_KEEPALIVE\nint add(int x, int y) {\n  return x + y;\n}",
    );
    expect(code.confidence).toBe(PRIORS.code_detected);
  });

  test("one-line commands, shell sessions, WebAssembly text", () => {
    expect(ofType("emcc -O3 add.c -o add.js -s STANDALONE_WASM", "code")[0].claim).toBe(
      "Code (shell): emcc -O3 add.c -o add.js -s STANDALONE_WASM",
    );
    expect(ofType("$ wasmer run hello.wasm\nhello, world!\n$ wasmtime hello.wasm\nhello, world!", "code")).toHaveLength(
      1,
    );
    expect(ofType("(func $_start\n (nop)\n)", "code")[0].claim).toBe("Code (wat): (func $_start");
  });

  test("an indented block", () => {
    const [code] = ofType(
      "Run the server:\n\n    bun run src/main.ts serve --port 8080\n    curl localhost:8080/health",
      "code",
    );
    expect(code.content).toBe("    bun run src/main.ts serve --port 8080\n    curl localhost:8080/health");
  });

  test("prose, verse and list lines ending in ';' are not code", () => {
    const texts = [
      "Build and deliver great consumer products that support the Manifesto’s principles;\n\nUse the Mozilla assets to keep the Internet an open platform;",
      "Received: 17 April 2020; Accepted: 26 November 2020;",
      "\"Fury said to\na mouse, That\nhe met in the\nhouse, 'Let\nus both go\nto law: I\nwill prosecute\nyou.—Come, I'll\ntake no denial;\nWe must have\nthe trial;",
      "1234567890():,;",
      "We'd normally build this with something like emcc -O3 add.c -o add.js which would emit add.js and add.wasm.",
    ];
    for (const t of texts) expect([ofType(t, "code").length, t]).toEqual([0, t]);
  });
});

describe("logical_rule atoms: only explicit JSON rules", () => {
  test("a fenced json rule block, normalized", () => {
    const [r] = ofType(
      'Dependencies follow imports:\n\n```json\n{ "then": "depends_on",\n  "if": "imports" }\n```',
      "logical_rule",
    );
    expect(r).toMatchObject({
      claim: "Rule: if imports then depends_on",
      content: '{"if":"imports","then":"depends_on"}',
      confidence: PRIORS.logical_rule,
    });
  });

  test("a bare one-line chain rule, and an array of rules", () => {
    const [chain] = ofType(
      'Transitivity is declared as {"if": ["depends_on","depends_on"], "then": "depends_on"} in the config.',
      "logical_rule",
    );
    expect(chain.content).toBe('{"if":["depends_on","depends_on"],"then":"depends_on"}');
    expect(chain.claim).toBe("Rule: if depends_on ∘ depends_on (chain) then depends_on");
    expect(chain.quote).toBe('{"if": ["depends_on","depends_on"], "then": "depends_on"}');
    const rules = ofType(
      '```\n[{"if": "imports", "then": "depends_on"}, {"if": "calls", "then": "depends_on"}]\n```',
      "logical_rule",
    );
    expect(rules.map((r) => r.content)).toEqual([
      '{"if":"imports","then":"depends_on"}',
      '{"if":"calls","then":"depends_on"}',
    ]);
  });

  test("never from prose, never from invalid or multi-token kinds", () => {
    expect(ofType("If a module imports another, then it depends on it.", "logical_rule")).toEqual([]);
    expect(ofType('{"if": "imports from", "then": "depends_on"}', "logical_rule")).toEqual([]);
    expect(ofType('{"if": "imports", "then": ""}', "logical_rule")).toEqual([]);
    expect(ofType('{"if": [], "then": "depends_on"}', "logical_rule")).toEqual([]);
    expect(ofType('{"if": "imports", "then": "depends_on"', "logical_rule")).toEqual([]);
    // A json block that is data, not rules, is code.
    expect(atomsOf('```json\n{"name": "pegas", "version": 1}\n```').map((a) => a.type)).toEqual(["code"]);
  });
});

/*
 * What the HTML parser emits (src/adapters/parsers/html: code-block.ts, markdown-table.ts): `<pre>` as a fenced
 * block with the page's language, `<table>` as one Markdown block (caption line "Table: …", header row and
 * separator when the table has one, rows on consecutive lines, an `<img alt>` in a cell as its text).
 */
describe("HTML parser output", () => {
  test('<pre><code class="language-c"> as a fenced block keeps its language and its blank lines', () => {
    const text =
      "Let's start with a program that adds two numbers:\n\n```c\n// add.c\n#include <emscripten.h>\n\nEMSCRIPTEN_KEEPALIVE\nint add(int x, int y) {\n  return x + y;\n}\n```";
    const [code] = ofType(text, "code");
    expect(code.claim).toBe("Code (c): Let's start with a program that adds two numbers");
    expect(code.confidence).toBe(PRIORS.code_fenced);
    expect(code.content).toContain("\n\nEMSCRIPTEN_KEEPALIVE");
  });

  test("an infobox with its <caption> as one Markdown block", () => {
    const text =
      "Table: Mozilla\n| Industry | Open-source software |\n| Founded | February 28, 1998 |\n| Divisions | Mozilla Corporation; Mozilla Foundation |\n| Website | mozilla.org |";
    const [t] = ofType(text, "table");
    expect(t.claim).toBe("Table: Mozilla — Industry, Founded, Divisions, Website");
    expect(t.content).toBe(text);
  });

  test("a <th> header row with a separator, image cells as their alt text", () => {
    const text =
      "| Platform | x86_64 / amd64 | arm64 (Apple Silicon) |\n| --- | --- | --- |\n| Docker Desktop for Mac (macOS) | yes | yes |\n| Docker Desktop for Windows | yes | |";
    const [t] = ofType(text, "table");
    expect([t.claim, t.confidence]).toEqual([
      "Table: Platform | x86_64 / amd64 | arm64 (Apple Silicon)",
      PRIORS.table_markdown,
    ]);
  });
});

describe("blocks cut by a chunk boundary stay recognizable", () => {
  test("a chunk that starts inside a fenced block: the code up to the bare closing fence is one code atom", () => {
    const text =
      "EMSCRIPTEN_KEEPALIVE\nint add(int x, int y) {\n  return x + y;\n}\n```\n\nWe'd normally build this with emcc and nothing else.\n\n```bash\nemcc -O3 add.c -o add.wasm\n```";
    const atoms = atomsOf(text);
    expect(atoms.map((a) => [a.type, a.content])).toEqual([
      ["code", "EMSCRIPTEN_KEEPALIVE\nint add(int x, int y) {\n  return x + y;\n}"],
      ["text", "We'd normally build this with emcc and nothing else."],
      ["code", "emcc -O3 add.c -o add.wasm"],
    ]);
    expect(atoms[0].confidence).toBe(PRIORS.code_fenced);
    expect(atoms[2].claim).toBe("Code (bash): emcc -O3 add.c -o add.wasm");
  });

  test("a bare fence after prose or a heading still opens a block", () => {
    const text = "Example output\n\n```\nhello, world\nexit code 0\n```\n\nThat is all it prints to the console.";
    expect(atomsOf(text).map((a) => a.type)).toEqual(["code", "text"]);
    expect(ofType(text, "code")[0].content).toBe("hello, world\nexit code 0");
  });

  test("the tail of a Markdown table (rows framed by pipes, header in the previous chunk) is a table from two rows", () => {
    expect(
      ofType("| Divisions | Mozilla Corporation; Mozilla Foundation |\n| Website | mozilla.org |", "table"),
    ).toHaveLength(1);
    expect(ofType("a | b\nc | d", "table")).toEqual([]);
  });
});
