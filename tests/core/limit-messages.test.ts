/**
 * A refusal over a configurable limit names the setting that raises it (docs/configuration.md): a source over
 * max_input_bytes (a file, pasted text), a JSON-RPC message over the limit on stdio, and no message in src tells
 * to "raise the … limit" without a key. The parsers', fetcher's, EPUB's, HTTP's, directory's and inference's own
 * refusals are tested beside them (tests/parsers, tests/web, tests/http, tests/core/directory-ingest,
 * tests/inference).
 */
import { describe, expect, test } from "bun:test";
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { RAISE_INPUT_BYTES } from "../../src/domain/limits.ts";
import { rawTextSource, readFileSource } from "../../src/core/documents/source.ts";
import { PegasError } from "../../src/errors.ts";
import { bodyTooLargeMessage } from "../../src/http/rpc.ts";
import { maxMessageBytes, stdioErrorMessage } from "../../src/mcp/server.ts";

const SRC = resolve(import.meta.dir, "../../src");

function refusal(f: () => unknown): PegasError {
  try {
    f();
  } catch (err) {
    if (err instanceof PegasError) return err;
    throw err;
  }
  throw new Error("no refusal");
}

describe("limits name their key", () => {
  test("a file or a pasted text over max_input_bytes", () => {
    const dir = mkdtempSync(join(tmpdir(), "limits-"));
    try {
      const file = join(dir, "big.md");
      writeFileSync(file, "# Заголовок\n\nТекст длиннее предела.\n");
      const f = refusal(() => readFileSource(file, 10));
      expect(f.code).toBe("LIMIT_EXCEEDED");
      expect(f.userMessage).toContain("the limit max_input_bytes is 10");
      expect(f.userMessage).toContain(RAISE_INPUT_BYTES);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    const t = refusal(() => rawTextSource("x".repeat(11), { maxBytes: 10 }));
    expect(t.code).toBe("LIMIT_EXCEEDED");
    expect(t.userMessage).toBe(
      "text has 11 bytes; the limit max_input_bytes is 10. split it into several ingests, or " +
        "raise max_input_bytes in the config file",
    );
  });

  test("a message over the stdio and HTTP limit", () => {
    const max = maxMessageBytes({ max_input_bytes: 1000 });
    const stdio = stdioErrorMessage(new Error(`ReadBuffer exceeded maximum size of ${max} bytes`), max);
    expect(stdio).toContain(`over ${max} bytes`);
    expect(stdio).toContain(RAISE_INPUT_BYTES);
    expect(stdio).not.toContain("\n");
    expect(stdioErrorMessage(new Error("JSON Parse error"), max)).toBeNull();
    expect(bodyTooLargeMessage(max)).toContain(RAISE_INPUT_BYTES);
    expect(bodyTooLargeMessage(max, max + 1)).toContain("the request body is 1.0 MiB, more than the 1.0 MiB");
  });

  test("no message in src says to raise a limit without naming what raises it", () => {
    const files: string[] = [];
    const walk = (d: string) => {
      for (const e of readdirSync(d)) {
        const p = join(d, e);
        if (statSync(p).isDirectory()) walk(p);
        else if (p.endsWith(".ts")) files.push(p);
      }
    };
    walk(SRC);
    const vague = /["'`][^"'`\n]*\b(?:raise|increase) the [\w -]*(?:limit|size|cap)\b/iu;
    const found = files.flatMap((f) =>
      readFileSync(f, "utf8")
        .split("\n")
        .filter((line) => vague.test(line))
        .map((line) => `${f.slice(SRC.length + 1)}: ${line.trim()}`),
    );
    expect(found).toEqual([]);
  });
});
