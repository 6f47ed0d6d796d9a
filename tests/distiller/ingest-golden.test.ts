/**
 * Chunking, heuristic distillation and local embedding give the same output as the code the golden digests were
 * written from (tests/distiller/golden/write-golden.ts says when and how to regenerate them): the same chunks, the
 * same atoms (type, claim, content, lang, quote, locator, links …) and bit-identical vectors, on the 13 fixtures and
 * the benchmark's generated texts. A speed-up must keep every digest.
 */
import { describe, expect, test } from "bun:test";
import golden from "./golden/ingest-golden.json";
import { digestInput, type InputDigest, inputNames } from "./golden/ingest-digest.ts";

const expected = golden as Record<string, InputDigest>;

describe("ingest's chunk, distill and embed output is unchanged", () => {
  test("the golden file covers every input", () => {
    expect(Object.keys(expected).sort()).toEqual(inputNames().sort());
  });

  for (const name of inputNames()) {
    test(name, async () => {
      expect(await digestInput(name)).toEqual(expected[name]);
    }, 60_000);
  }
});
