/**
 * The walk's default skips and what overrides them: dist/ and build/ are walked (a published package's code, Go's
 * go/build), a dependency directory named by an include pattern is walked, hidden files and directories are passed
 * over unless the trusted caller (the CLI) names them in an include pattern; a directory `.gitignore` leaves out is
 * walked when an include pattern names it (the ignore rules above it do not apply inside it, its own do).
 */
import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { namedByInclude, walkRepository, type WalkOptions } from "../../src/core/code/walk.ts";

const root = mkdtempSync(join(tmpdir(), "pegas-walk-named-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function put(rel: string, text = "x\n"): void {
  mkdirSync(dirname(join(root, rel)), { recursive: true });
  writeFileSync(join(root, rel), text);
}

put("main.go");
put("go/build/build.go"); // Go's standard library has a package named build
put("dist/index.js");
put("node_modules/@x/sdk/dist/index.js");
put("node_modules/@x/sdk/node_modules/dep/index.js");
put("node_modules/other/index.js");
put(".config/c.py");
put(".eslintrc.js");
put("src/.hidden/h.py");
put("src/a.py");

// A repository whose .gitignore leaves out node_modules/, generated/ and *.log.
const ign = mkdtempSync(join(tmpdir(), "pegas-walk-ignored-"));
afterAll(() => rmSync(ign, { recursive: true, force: true }));
function putIgn(rel: string, text = "x\n"): void {
  mkdirSync(dirname(join(ign, rel)), { recursive: true });
  writeFileSync(join(ign, rel), text);
}
putIgn(".gitignore", "node_modules/\ngenerated/\n*.log\n");
putIgn("main.js");
putIgn("app.log");
putIgn("src/a.py");
putIgn("src/b.log");
putIgn("generated/api.py");
putIgn("generated/other.py");
putIgn("node_modules/@x/sdk/.gitignore", "*.map\n");
putIgn("node_modules/@x/sdk/dist/index.js");
putIgn("node_modules/@x/sdk/dist/index.js.map");
putIgn("node_modules/@x/sdk/dist/debug.log");

async function walk(dir: string, opts: WalkOptions = {}) {
  const skipped: string[] = [];
  const files: string[] = [];
  for await (const f of walkRepository(dir, { ...opts, onSkip: (r, p, d) => skipped.push(`${r}:${p}${d ? "/" : ""}`) }))
    files.push(f.path);
  return { files, skipped };
}

describe("walk: default skips and named overrides", () => {
  test("dist/ and build/ are walked; node_modules/ and hidden entries are not", async () => {
    const { files, skipped } = await walk(root);
    expect(files).toEqual(["main.go", "dist/index.js", "go/build/build.go", "src/a.py"]);
    expect(skipped).toEqual(
      expect.arrayContaining([
        "hidden:.eslintrc.js",
        "hidden:.config/",
        "vendored:node_modules/",
        "hidden:src/.hidden/",
      ]),
    );
  });

  test("an include pattern that names a vendored directory walks it (not the dependencies nested in it)", async () => {
    const { files, skipped } = await walk(root, { include: ["node_modules/@x/sdk/**"] });
    expect(files).toEqual(["node_modules/@x/sdk/dist/index.js"]);
    expect(skipped).toContain("vendored:node_modules/@x/sdk/node_modules/");
    expect(skipped).toContain("not_included:main.go");
    // A pattern naming nothing literally does not open it.
    expect((await walk(root, { include: ["**/*.js"] })).files).toEqual(["dist/index.js"]);
  });

  test("hidden entries: named by an include pattern, walked for the trusted caller only", async () => {
    const include = [".config/", "src/"];
    expect((await walk(root, { include, trusted: true })).files).toEqual([".config/c.py", "src/a.py"]);
    const mcp = await walk(root, { include });
    expect(mcp.files).toEqual(["src/a.py"]);
    expect(mcp.skipped).toContain("hidden:.config/");
    expect((await walk(root, { include: ["src/.hidden/h.py"], trusted: true })).files).toEqual(["src/.hidden/h.py"]);
  });

  test("this repository's @modelcontextprotocol/sdk: its code is all under dist/ and is walked", async () => {
    const sdk = join(import.meta.dir, "../../node_modules/@modelcontextprotocol/sdk");
    if (!existsSync(sdk)) return console.warn("skipped: node_modules/@modelcontextprotocol/sdk is not installed");
    let n = 0;
    for await (const f of walkRepository(sdk)) if (f.path.startsWith("dist/") && f.path.endsWith(".js")) n++;
    expect(n).toBeGreaterThan(100);
  });

  test("a gitignored directory named by an include pattern is walked; its own .gitignore still applies", async () => {
    const { files, skipped } = await walk(ign, { include: ["node_modules/@x/sdk/**"] });
    // debug.log is left out by the root's `*.log`, which does not apply inside the named directory; the sdk's own
    // .gitignore (`*.map`) does.
    expect(files).toEqual(["node_modules/@x/sdk/dist/debug.log", "node_modules/@x/sdk/dist/index.js"]);
    expect(skipped).toContain("ignored:node_modules/@x/sdk/dist/index.js.map");
    expect(skipped).not.toContain("ignored:node_modules/");
    expect(skipped).toContain("not_included:main.js");
    // Without the include: node_modules/ is passed over (vendored before ignored), generated/ and *.log are ignored.
    const plain = await walk(ign);
    expect(plain.files).toEqual(["main.js", "src/a.py"]);
    expect(plain.skipped).toEqual(
      expect.arrayContaining(["vendored:node_modules/", "ignored:generated/", "ignored:app.log", "ignored:src/b.log"]),
    );
  });

  test("only what the include names is opened: .gitignore keeps its say elsewhere", async () => {
    const { files, skipped } = await walk(ign, { include: ["generated/api.py", "src/**"] });
    expect(files).toEqual(["generated/api.py", "src/a.py"]);
    expect(skipped).toEqual(
      expect.arrayContaining(["ignored:src/b.log", "ignored:app.log", "not_included:generated/other.py"]),
    );
    // A pattern naming nothing literally opens nothing.
    expect((await walk(ign, { include: ["**/*.py"] })).files).toEqual(["src/a.py"]);
    // A named file that .gitignore leaves out by itself is taken too (the user named it).
    expect((await walk(ign, { include: ["app.log"] })).files).toEqual(["app.log"]);
  });

  test("namedByInclude: a literal last component, gitignore anchoring", () => {
    const cases: Array<[string, string[], boolean]> = [
      ["dist", ["dist/**"], true],
      ["dist", ["/dist"], true],
      ["a/dist", ["dist"], true],
      ["a/dist", ["/dist"], false],
      ["a/dist", ["dist/**"], false],
      ["dist", ["*"], false],
      ["dist", ["**"], false],
      ["dist", ["d?st/"], false],
      ["node_modules", ["node_modules/@x/sdk/**"], true],
      ["node_modules/@x/sdk/node_modules", ["node_modules/@x/sdk/**"], false],
      ["x/src/build", ["**/build/**"], true],
      ["x/vendor", ["*/vendor/**"], true],
      ["x/vendor", ["!x/vendor"], false],
    ];
    for (const [path, include, named] of cases)
      expect(`${path} ${include}: ${namedByInclude(path, include)}`).toBe(`${path} ${include}: ${named}`);
  });
});
