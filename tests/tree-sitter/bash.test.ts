/**
 * Bash spec (all four queries are ours: the grammar ships no tags query) on a real-shaped deploy script (snippets/bash/deploy.sh): every symbol with qualified name, kind,
 * lines, signature and docstring, every edge and binding, exactly; plus the language's special cases.
 */
import { describe, expect, test } from "bun:test";
import { treeSitterExtractor } from "../../src/adapters/tree-sitter/extractor.ts";
import { languageFromShebang } from "../../src/adapters/tree-sitter/languages/index.ts";
import { edge, snippet, sym } from "./support.ts";

const extractor = treeSitterExtractor();
const file = await extractor.extract("scripts/deploy.sh", snippet("bash/deploy.sh"), "bash");

describe("bash snippet", () => {
  test("language, module, no syntax errors", () => {
    expect(extractor.languageOf("scripts/deploy.sh")).toBe("bash");
    expect(file.language).toBe("bash");
    expect(file.module).toBe("scripts/deploy");
    expect(file.syntaxErrors).toBe(0);
  });

  test("symbols", () => {
    expect(file.symbols).toEqual([
      sym("REMOTE_DIR", "constant", [8, 8], "readonly REMOTE_DIR=/opt/service"),
      sym("RETRIES", "constant", [9, 9], "RETRIES=3"),
      sym("LOG_FILE", "constant", [10, 10], 'declare -r LOG_FILE="/var/log/deploy.log"'),
      sym("log", "function", [14, 16], "log()", "Prints a timestamped message to stderr."),
      sym(
        "deploy_host",
        "function",
        [20, 26],
        "function deploy_host",
        "Copies the build and restarts the unit.\nArguments: host",
      ),
      sym("retry", "function", [28, 38], "retry()"),
      sym("main", "function", [40, 44], "main()"),
    ]);
  });

  test("edges: imports, calls with receivers, inherits", () => {
    expect(file.dependencies).toEqual([
      edge("imports", null, '$(dirname "$0")/lib/common.sh', 5),
      edge("calls", null, "dirname", 5),
      edge("imports", null, "./env.sh", 6),
      edge("calls", "log", "date", 15),
      edge("calls", "deploy_host", "log", 23),
      edge("calls", "deploy_host", "rsync", 24),
      edge("calls", "deploy_host", "ssh", 25),
      edge("calls", "retry", "log", 33),
      edge("calls", "retry", "sleep", 36),
      edge("calls", "main", "retry", 42),
      edge("calls", "main", "tee", 42),
      edge("calls", null, "main", 46),
    ]);
  });

  test("no import binds a name (`source` runs a file)", () => {
    expect(file.imports).toEqual([]);
  });

  test("shell file names and shebangs pick bash; builtins are not calls", async () => {
    expect(extractor.languageOf("home/.bashrc")).toBe("bash");
    expect(extractor.languageOf("ci/run.SH")).toBe("bash");
    expect(languageFromShebang("#!/usr/bin/env -S bash -eu\necho hi\n")).toBe("bash");
    expect(languageFromShebang("#!/bin/sh\n")).toBe("bash");
    const f = await extractor.extract(
      ".bashrc",
      "export PATH=$HOME/bin:$PATH\nalias ll='ls -l'\ncd /tmp && git status\n",
      "bash",
    );
    expect(f.module).toBe(".bashrc");
    expect(f.dependencies).toEqual([edge("calls", null, "git", 3)]);
  });
});
