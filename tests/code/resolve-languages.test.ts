/**
 * Resolution across files of small real trees, stored through the core storeCode with the tree-sitter extractor
 * (PGlite): Rust `mod x;` / `use crate::…` in a Cargo layout, Ruby `require_relative`, and the source of Rust
 * `impl Trait for Type` when Type is defined in another file (moved to that type) or nowhere (kept as written).
 */
import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { storeCode } from "../../src/core/code/ingest.ts";
import { codeSuite, sqlOf, type TestCodeServices } from "./support.ts";

const roots: string[] = [];
afterAll(() => {
  for (const r of roots) rmSync(r, { recursive: true, force: true });
});

function tree(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), "pegas-resolve-"));
  roots.push(root);
  for (const [p, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, p)), { recursive: true });
    writeFileSync(join(root, p), text);
  }
  return root;
}

/** Every edge of the repository as `src-path:src-qn kind target → dst-path:dst-qn` (`?` unresolved). */
async function edges(s: TestCodeServices, repo: string): Promise<string[]> {
  const rows = await sqlOf(s)`
    SELECT s.path AS sp, s.qualified_name AS sq, d.kind, d.dst_name, t.path AS tp, t.qualified_name AS tq
      FROM pm_code_dependency d JOIN pm_code_symbol s ON s.id = d.src_symbol_id LEFT JOIN pm_code_symbol t ON t.id = d.dst_symbol_id
     WHERE d.repo = ${repo} ORDER BY d.path COLLATE "C", d.line, d.id`;
  return rows.map((r) => `${r.sp}:${r.sq} ${r.kind} ${r.dst_name} → ${r.tp === null ? "?" : `${r.tp}:${r.tq}`}`);
}

const RUST = {
  "Cargo.toml": '[package]\nname = "demo"\n',
  "src/lib.rs": "mod util;\nmod shapes;\npub mod geo;\nuse crate::util::helper;\n\npub fn run() -> f64 { helper() }\n",
  "src/util.rs": "pub fn helper() -> f64 { 1.0 }\n",
  "src/shapes.rs": "pub struct Circle { pub r: f64 }\n",
  "src/geo/mod.rs": "pub mod area;\n",
  "src/geo/area.rs": [
    "use crate::shapes::Circle;",
    "use super::super::util;",
    "pub trait Area { fn area(&self) -> f64; }",
    "impl Area for Circle { fn area(&self) -> f64 { self.r } }",
    "impl Area for Vec<f64> { fn area(&self) -> f64 { util::helper() } }",
    "",
  ].join("\n"),
};

describe("cross-file resolution (PGlite)", () => {
  const suite = codeSuite("pglite");

  test("Rust: `mod x;` and `use crate::…` resolve to src/x.rs or src/x/mod.rs and the function bound", async () => {
    const root = tree(RUST);
    await storeCode(suite.s!, { path: root, repo: "rs" }, { trustedPath: true });
    const all = await edges(suite.s!, "rs");
    expect(all).toEqual(
      expect.arrayContaining([
        "src/lib.rs:src/lib imports util → src/util.rs:src/util",
        "src/lib.rs:src/lib imports shapes → src/shapes.rs:src/shapes",
        "src/lib.rs:src/lib imports geo → src/geo/mod.rs:src/geo/mod",
        "src/lib.rs:src/lib imports crate::util::helper → src/util.rs:src/util",
        "src/lib.rs:run calls helper → src/util.rs:helper",
        "src/geo/mod.rs:src/geo/mod imports area → src/geo/area.rs:src/geo/area",
        "src/geo/area.rs:src/geo/area imports crate::shapes::Circle → src/shapes.rs:src/shapes",
        "src/geo/area.rs:src/geo/area imports super::super::util → src/util.rs:src/util",
        "src/geo/area.rs:Vec.area calls helper → src/util.rs:helper",
      ]),
    );
  }, 120_000);

  test("Rust `impl Trait for Type`: the edge's source is Type's symbol in its file, or the module with the name kept", async () => {
    const root = tree(RUST);
    await storeCode(suite.s!, { path: root, repo: "rs-impl" }, { trustedPath: true });
    const all = await edges(suite.s!, "rs-impl");
    expect(all).toContain("src/shapes.rs:Circle inherits Area → src/geo/area.rs:Area");
    expect(all).toContain("src/geo/area.rs:src/geo/area inherits Area → src/geo/area.rs:Area");
    const [vec] = await sqlOf(
      suite.s!,
    )`SELECT src_module FROM pm_code_dependency WHERE repo = 'rs-impl' AND kind = 'inherits' AND src_module IS NOT NULL AND src_module <> 'Circle'`;
    expect(vec.src_module).toBe("Vec");
    // The type's file written again: the edge goes back to its module, then to the new symbol.
    writeFileSync(join(root, "src/shapes.rs"), "// moved down\n\npub struct Circle { pub r: f64 }\n");
    await storeCode(suite.s!, { path: root, repo: "rs-impl" }, { trustedPath: true });
    expect(await edges(suite.s!, "rs-impl")).toContain("src/shapes.rs:Circle inherits Area → src/geo/area.rs:Area");
    // The type gone: back on the module, name kept.
    writeFileSync(join(root, "src/shapes.rs"), "pub struct Square;\n");
    await storeCode(suite.s!, { path: root, repo: "rs-impl" }, { trustedPath: true });
    const after = await edges(suite.s!, "rs-impl");
    expect(after.filter((e) => e.includes("inherits Area"))).toEqual([
      "src/geo/area.rs:src/geo/area inherits Area → src/geo/area.rs:Area",
      "src/geo/area.rs:src/geo/area inherits Area → src/geo/area.rs:Area",
    ]);
  }, 120_000);

  test("Ruby: `require_relative` resolves against the requiring file's directory, `.rb` added", async () => {
    const root = tree({
      "lib/app.rb": 'require_relative "models/user"\nrequire_relative "../config/boot"\nrequire "json"\n',
      "lib/models/user.rb": "class User\nend\n",
      "config/boot.rb": "BOOTED = true\n",
    });
    await storeCode(suite.s!, { path: root, repo: "rb" }, { trustedPath: true });
    expect(await edges(suite.s!, "rb")).toEqual([
      "lib/app.rb:lib/app imports ./models/user → lib/models/user.rb:lib/models/user",
      "lib/app.rb:lib/app imports ../config/boot → config/boot.rb:config/boot",
      "lib/app.rb:lib/app imports json → ?",
    ]);
  }, 120_000);
});
