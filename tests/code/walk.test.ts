/** The repository walk (gitignore at every level, vendored and VCS directories, symlinks, patterns) and file checks. */
import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import {
  charsetNote,
  declaredEncoding,
  decodeSource,
  generatedByContent,
  generatedByName,
  lineCount,
} from "../../src/core/code/files.ts";
import { walkRepository, type WalkOptions } from "../../src/core/code/walk.ts";

const root = mkdtempSync(join(tmpdir(), "pegas-walk-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function put(rel: string, text = "x\n"): void {
  mkdirSync(dirname(join(root, rel)), { recursive: true });
  writeFileSync(join(root, rel), text);
}

put(".gitignore", "*.log\n/tmp/\nsecret*\n!secret_ok.py\n");
put(".git/config");
put(".git/info/exclude", "local_only.py\n");
put("a.py");
put("b.log");
put("local_only.py");
put("secret.py");
put("secret_ok.py");
put("tmp/t.py");
put("src/tmp/kept.py"); // `/tmp/` is anchored at the root
put("src/.gitignore", "gen/\n!*.log\n");
put("src/keep.log");
put("src/gen/g.py");
put("src/z.py");
put("src/m.py");
put("src/node_modules/dep/index.js");
put("vendor/lib.go");
put("build/out.js"); // dist/ and build/ are not skipped by name (.gitignore leaves out a repository's own output)
put("pkg/__pycache__/m.cpython-311.pyc");
put("pkg/deep/x.ts");
put("lib/venv/__init__.py"); // a package named venv (the standard library has one): walked
put("lib/venv/scripts.py");
put("lib/build/__init__.py"); // pypa's `build` package
put("lib/dist/out.js");
put("tools/env/pyvenv.cfg", "home = /usr/bin\n"); // a virtual environment of any name (PEP 405): skipped
put("tools/env/lib/site.py");
symlinkSync(join(root, "a.py"), join(root, "link.py"));
symlinkSync(join(root, "src"), join(root, "srclink"));

async function walk(opts: WalkOptions = {}) {
  const skipped: string[] = [];
  const files: string[] = [];
  for await (const f of walkRepository(root, {
    ...opts,
    onSkip: (r, p, d) => skipped.push(`${r}:${p}${d ? "/" : ""}`),
  }))
    files.push(f.path);
  return { files, skipped };
}

describe("walkRepository", () => {
  test("nested .gitignore files, negation, .git/info/exclude, VCS, vendored directories and symlinks", async () => {
    const { files, skipped } = await walk();
    // A directory's files come before its subdirectories' (names in code-point order); `/tmp/` is anchored at the root.
    expect(files).toEqual([
      "a.py",
      "secret_ok.py",
      "build/out.js",
      "lib/build/__init__.py",
      "lib/dist/out.js",
      "lib/venv/__init__.py",
      "lib/venv/scripts.py",
      "pkg/deep/x.ts",
      "src/keep.log",
      "src/m.py",
      "src/z.py",
      "src/tmp/kept.py",
    ]);
    expect(skipped).toContain("hidden:.gitignore"); // read for its rules, not yielded
    expect(skipped).toContain("vendored:tools/env/");
    expect(skipped).toContain("vcs:.git/");
    expect(skipped).toContain("ignored:b.log");
    expect(skipped).toContain("ignored:local_only.py");
    expect(skipped).toContain("ignored:secret.py");
    expect(skipped).toContain("ignored:tmp/");
    expect(skipped).toContain("ignored:src/gen/");
    expect(skipped).toContain("vendored:src/node_modules/");
    expect(skipped).toContain("vendored:vendor/");
    expect(skipped).toContain("vendored:pkg/__pycache__/");
    expect(skipped).toContain("symlink:link.py");
    expect(skipped).toContain("symlink:srclink");
  });

  test("exclude prunes files and directories; include keeps only matching files", async () => {
    const ex = await walk({ exclude: ["src/", "*.ts"] });
    expect(ex.files).toEqual([
      "a.py",
      "secret_ok.py",
      "build/out.js",
      "lib/build/__init__.py",
      "lib/dist/out.js",
      "lib/venv/__init__.py",
      "lib/venv/scripts.py",
    ]);
    expect(ex.skipped).toContain("excluded:src/");
    const inc = await walk({ include: ["src/*.py"] });
    expect(inc.files).toEqual(["src/m.py", "src/z.py"]);
    expect(inc.skipped).toContain("not_included:a.py");
  });

  test("a vendored directory given as the root itself is walked", async () => {
    const files: string[] = [];
    for await (const f of walkRepository(join(root, "vendor"))) files.push(f.path);
    expect(files).toEqual(["lib.go"]);
  });
});

/** `text` in windows-1251 (ASCII, А–я, Ё and ё only). */
function cp1251(text: string): Uint8Array {
  return Uint8Array.from(
    [...text].map((ch) => {
      const c = ch.codePointAt(0)!;
      if (c < 0x80) return c;
      if (c >= 0x410 && c <= 0x44f) return c - 0x410 + 0xc0;
      if (ch === "ё") return 0xb8;
      if (ch === "Ё") return 0xa8;
      throw new Error(`not in the test's windows-1251 table: ${ch}`);
    }),
  );
}

describe("file checks", () => {
  test("binary: a NUL in the first 8 KiB that is not UTF-16", () => {
    expect(decodeSource(new Uint8Array([65, 0, 66, 1, 0, 0, 7]))).toBeNull();
    const late = new Uint8Array(9000).fill(65);
    late[8500] = 0;
    expect(decodeSource(late)?.text).toHaveLength(9000);
  });

  test("generated by name and by a generator's header comment or minified text; prose about generated code is not", () => {
    for (const n of [
      "dist/app.min.js",
      "x/api.pb.go",
      "m_pb2.py",
      "package-lock.json",
      "go.sum",
      "A.Designer.cs",
      "x.generated.ts",
    ])
      expect(generatedByName(n)).toBe(true);
    for (const n of ["src/main.js", "minimal.js", "generate.py"]) expect(generatedByName(n)).toBe(false);
    for (const header of [
      "// Code generated by protoc-gen-go. DO NOT EDIT.\npackage x\n",
      "# Auto-generated by Tools/build/generate_token.py\n",
      "# -*- coding: utf-8 -*-\n# Autogenerated by Sphinx on Mon Jun  3 17:26:45 2024\n",
      "# This file is generated by mkstringprep.py. DO NOT EDIT.\n",
      "/* @generated */\n",
      "// @generated\nexport const x = 1;\n",
      "/**\n * @generated SignedSource<<abc>>\n */\n",
      "<!-- This file was automatically generated -->\n",
    ])
      expect(generatedByContent(header)).toBe(true);
    for (const prose of [
      '"""Module that is not generated."""\nx = "auto-generated ids"\n',
      "# Helpers for reading auto-generated reports.\n",
      '// Parses files that carry a "@generated" marker.\nexport function isGenerated() {}\n',
      "// Finds code generated by tools; see DO NOT EDIT markers in Go.\n",
      readFileSync(join(import.meta.dir, "../../src/core/code/files.ts"), "utf8"), // describes every marker it looks for
    ])
      expect(generatedByContent(prose)).toBe(false);
    expect(generatedByContent(`var a=${"1+".repeat(4000)}1;`)).toBe(true);
  });

  test("text: BOMs, coding declarations, UTF-8, detected charsets; line ends", () => {
    const utf8 = decodeSource(new TextEncoder().encode("\uFEFFa\r\nb\rc"))!;
    expect(utf8).toEqual({ text: "a\nb\nc", encoding: "utf-8", source: "bom", warnings: [] });
    expect(charsetNote(utf8)).toBeNull();
    // UTF-16LE with a BOM (Visual Studio's "Unicode"): text, not binary.
    const utf16 = Buffer.concat([
      Buffer.from([0xff, 0xfe]),
      Buffer.from("class Util { /* Утилиты */ }\r\n", "utf16le"),
    ]);
    expect(decodeSource(utf16, "c_sharp")).toMatchObject({
      text: "class Util { /* Утилиты */ }\n",
      encoding: "utf-16le",
      source: "bom",
    });
    // A Python or Ruby coding declaration (PEP 263) is honoured on the first two lines.
    const latin = Buffer.concat([
      Buffer.from("#!/usr/bin/env python\n# -*- coding: latin-1 -*-\ndef caf"),
      Buffer.from([0xe9]),
      Buffer.from("(): pass\n"),
    ]);
    expect(decodeSource(latin, "python")).toMatchObject({ encoding: "windows-1252", source: "declaration" });
    expect(decodeSource(latin, "python")!.text).toEndWith("def café(): pass\n");
    const cyr = Buffer.concat([
      Buffer.from("# encoding: cp1251\nNAME = '"),
      Buffer.from([0xcf, 0xf0, 0xe8, 0xe2, 0xe5, 0xf2]),
      Buffer.from("'\n"),
    ]);
    expect(decodeSource(cyr, "ruby")!.text).toBe("# encoding: cp1251\nNAME = 'Привет'\n");
    // Without a declaration, bytes that are not UTF-8 are detected (Russian in windows-1251 here), and noted.
    const win1251 = cp1251(
      "/* Модуль сложения чисел для отчётов бухгалтерии */\nint add(int a, int b) { return a + b; }\n",
    );
    const c = decodeSource(win1251, "c")!;
    expect(c.text).toStartWith("/* Модуль сложения чисел для отчётов бухгалтерии */\n");
    expect(c).toMatchObject({ encoding: "windows-1251", source: "detected" });
    expect(charsetNote(c)).toBe("charset windows-1251 (detected)");
    expect(declaredEncoding(Buffer.from("x = 1\ny = 2\n# coding: latin-1\n"))).toBeNull(); // third line: too late
    expect(declaredEncoding(Buffer.from("# coding: utf-8\n"))).toBeNull();
    expect(declaredEncoding(Buffer.from("# coding: no-such-codec\n"))).toBeNull();
    expect(lineCount("")).toBe(1);
    expect(lineCount("a\nb\n")).toBe(2);
    expect(lineCount("a\nb")).toBe(2);
  });
});
