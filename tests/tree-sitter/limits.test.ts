/**
 * Pathological sources: a file whose extraction runs past its time budget is refused with LIMIT_EXCEEDED (the
 * parse and the query stop when tree-sitter polls the deadline), and thousands of nested definitions keep their
 * qualified names within MAX_QUALIFIED_NAME (the innermost part after "…"), so the store's unique index accepts them.
 */
import { expect, test } from "bun:test";
import { MAX_QUALIFIED_NAME } from "../../src/adapters/tree-sitter/definitions.ts";
import { extractionBudgetMs, extractWithSpec, treeSitterExtractor } from "../../src/adapters/tree-sitter/extractor.ts";
import { LANGUAGE_SPECS } from "../../src/adapters/tree-sitter/languages/index.ts";
import { PegasError } from "../../src/errors.ts";

test("deeply nested C is stopped at its time budget with LIMIT_EXCEEDED naming the file", async () => {
  const source = `int main(void) ${"{".repeat(10_000)}${"}".repeat(10_000)}\n`;
  const err = await extractWithSpec(LANGUAGE_SPECS.c!, "deep.c", source, { budgetMs: 200 }).catch((e: unknown) => e);
  expect(err).toBeInstanceOf(PegasError);
  expect((err as PegasError).code).toBe("LIMIT_EXCEEDED");
  expect((err as PegasError).message).toContain("'deep.c'");
});

test("the default budget grows with the file: 5 s plus 10 s per MiB", () => {
  expect(extractionBudgetMs("")).toBe(5000);
  expect(extractionBudgetMs("x".repeat(1024 * 1024))).toBe(15_000);
});

test("1,500 nested functions: every symbol extracted, qualified names capped at the innermost part", async () => {
  const n = 1500;
  const source = `${Array.from({ length: n }, (_, i) => `function f${i}() {`).join("\n")}\n${"}\n".repeat(n)}`;
  const r = await treeSitterExtractor().extract("nested.js", source, "javascript");
  expect(r.symbols).toHaveLength(n);
  const longest = Math.max(...r.symbols.map((s) => s.qualifiedName.length));
  expect(longest).toBe(MAX_QUALIFIED_NAME);
  const innermost = r.symbols.at(-1)!;
  expect(innermost.name).toBe(`f${n - 1}`);
  expect(innermost.qualifiedName.startsWith("…")).toBe(true);
  expect(innermost.qualifiedName.endsWith(`.f${n - 2}.f${n - 1}`)).toBe(true);
  expect(r.symbols[0].qualifiedName).toBe("f0");
});
