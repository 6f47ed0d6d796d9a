/**
 * Ruby spec (src/adapters/tree-sitter/languages/ruby.ts) on a real-shaped library file (snippets/ruby/ledger.rb): every
 * symbol with its qualified name, kind, lines, signature and docstring, and every edge and binding, exactly.
 * Extraction takes the spec in hand (`extractWithSpec`), so the test does not depend on the registry entry; once
 * the spec is registered, the registered extractor must agree.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { extractWithSpec, treeSitterExtractor } from "../../src/adapters/tree-sitter/extractor.ts";
import { LANGUAGE_SPECS } from "../../src/adapters/tree-sitter/languages/index.ts";
import { ruby } from "../../src/adapters/tree-sitter/languages/ruby.ts";
import { edge, sym } from "./support.ts";

const PATH = "lib/accounting/ledger.rb";
const SOURCE = readFileSync(fileURLToPath(new URL("./snippets/ruby/ledger.rb", import.meta.url)), "utf8");
const L = "Accounting.Ledger";

describe("ruby spec on snippets/ruby/ledger.rb", () => {
  test("symbols: modules, mixin methods, constants, class, instance and singleton methods; docs first in a body too", async () => {
    const file = await extractWithSpec(ruby, PATH, SOURCE);
    expect(file.module).toBe("lib/accounting/ledger");
    expect(file.syntaxErrors).toBe(0);
    expect(file.symbols).toEqual([
      sym("Accounting", "module", [8, 60], "module Accounting", "Accounting helpers shared by every ledger."),
      sym("Accounting.DEFAULT_CURRENCY", "constant", [10, 10], 'DEFAULT_CURRENCY = "EUR"', "Default currency code."),
      sym("Accounting.Summable", "module", [13, 17], "module Summable", "Something that can be summed."),
      sym("Accounting.Summable.sum_amounts", "method", [14, 16], "def sum_amounts"),
      sym(
        L,
        "class",
        [22, 59],
        "class Ledger < Base",
        "A ledger of entries in one currency.\n\nEntries are kept in insertion order.",
      ),
      sym(
        `${L}.initialize`,
        "method",
        [30, 34],
        "def initialize(currency = DEFAULT_CURRENCY)",
        "Creates an empty ledger.",
      ),
      sym(`${L}.record`, "method", [37, 42], "def record(amount, memo: nil)", "Records one entry and returns self."),
      sym(`${L}.to_json`, "method", [44, 46], "def to_json(*args)"),
      sym(`${L}.parse`, "method", [49, 52], "def self.parse(text)", "Parses a ledger from JSON text."),
      sym(`${L}.validate!`, "method", [56, 58], "def validate!(entry)"),
    ]);
  });

  test("edges: require/require_relative, superclass and mixins, calls with receivers; the class-body DSL is no call", async () => {
    const file = await extractWithSpec(ruby, PATH, SOURCE);
    expect(file.dependencies).toEqual([
      edge("imports", null, "json", 3),
      edge("imports", null, "./ledger/entry", 4), // require_relative: relative to the file
      edge("imports", null, "bigdecimal/util", 5),
      edge("calls", "Accounting.Summable.sum_amounts", "map", 15, "entries"),
      edge("calls", "Accounting.Summable.sum_amounts", "sum", 15, "entries.map(&:amount)"),
      edge("inherits", L, "Base", 22),
      edge("inherits", L, "Summable", 23),
      edge("inherits", L, "Comparable", 24),
      edge("inherits", L, "Forwardable", 25),
      edge("calls", L, "def_delegators", 27),
      edge("calls", `${L}.record`, "new", 38, "Entry"),
      edge("calls", `${L}.record`, "to_d", 38, "amount"),
      edge("calls", `${L}.record`, "validate!", 40),
      edge("calls", `${L}.to_json`, "generate", 45, "JSON"),
      edge("calls", `${L}.to_json`, "map", 45, "@entries"),
      edge("calls", `${L}.parse`, "parse", 50, "JSON"),
      edge("calls", `${L}.parse`, "new", 51),
      edge("calls", `${L}.parse`, "fetch", 51, "data"),
      edge("calls", `${L}.validate!`, "raise", 57),
      edge("calls", `${L}.validate!`, "amount", 57, "entry"),
      edge("calls", `${L}.validate!`, "nil?", 57, "entry.amount"),
    ]);
    expect(file.imports).toEqual([]);
  });
});

describe("ruby spec: forms the snippet does not show", () => {
  const SRC = `require File.expand_path("../boot", __FILE__)

# Runs a task.
def run_task(name)
  Tasks::Registry.fetch(name)&.call
end

module Tasks
  # Registry of tasks.
  def self.registry
    @registry ||= {}
  end

  class Runner::Local < Base::Runner # :nodoc:
    def start; end
    prepend Instrumented
    class << self
      # Builds a runner.
      def build(opts)
        new(**opts)
      end
    end
  end
end
`;

  test("top-level def, `def self.x` in a module, `class A::B`, `class << self`, prepend, safe navigation, computed require", async () => {
    const file = await extractWithSpec(ruby, "lib/tasks.rb", SRC);
    expect(file.symbols.map((s) => [s.qualifiedName, s.kind, s.lineStart, s.docstring])).toEqual([
      ["run_task", "function", 4, "Runs a task."],
      ["Tasks", "module", 8, null],
      ["Tasks.registry", "method", 10, "Registry of tasks."],
      ["Tasks.Runner.Local", "class", 14, null],
      // `# :nodoc:` sits on the class header's line: it documents the header, not `start`.
      ["Tasks.Runner.Local.start", "method", 15, null],
      ["Tasks.Runner.Local.build", "method", 19, "Builds a runner."],
    ]);
    expect(file.dependencies).toEqual([
      edge("calls", null, "expand_path", 1, "File"),
      edge("calls", "run_task", "fetch", 5, "Tasks::Registry"),
      edge("calls", "run_task", "call", 5, "Tasks::Registry.fetch(name)"),
      edge("inherits", "Tasks.Runner.Local", "Base::Runner", 14),
      edge("inherits", "Tasks.Runner.Local", "Instrumented", 16),
      edge("calls", "Tasks.Runner.Local.build", "new", 20),
    ]);
  });
});

describe("ruby spec through the registry", () => {
  test.skipIf(!LANGUAGE_SPECS.ruby)(
    "registered extractor agrees with the spec (skipped until languages/index.ts registers ruby)",
    async () => {
      expect(await treeSitterExtractor().extract(PATH, SOURCE, "ruby")).toEqual(
        await extractWithSpec(ruby, PATH, SOURCE),
      );
    },
  );
});
