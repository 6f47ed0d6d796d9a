/**
 * The acceptance scenario on a small real Python repository (the tree-sitter extractor, services as wired): a
 * transitive depends_on rule over the `imports` edges reaches its fixpoint; the derived edges are inferred in the
 * graph reads; removing one import and storing the repository again retracts exactly what depended on it (what is
 * still derivable stays, re-derived through the file's new rows); deleting a file retracts what went through it.
 */
import { describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { storeCode } from "../../src/core/code/ingest.ts";
import { infer } from "../../src/core/inference/infer.ts";
import type { Services } from "../../src/core/services.ts";
import { pgSkipReason } from "../support/pg.ts";
import { suiteServices } from "../support/services.ts";
import { closure, rule, sqlOf } from "./support.ts";

/** Edges of `kind` between module symbols of `repo`, as "a>b" by module name. */
async function moduleEdges(s: Services, repo: string, kind: string, inferred?: boolean): Promise<string[]> {
  const rows = await sqlOf(s)`
    SELECT a.qualified_name AS src, b.qualified_name AS dst, d.inferred FROM pm_code_dependency d
      JOIN pm_code_symbol a ON a.id = d.src_symbol_id JOIN pm_code_symbol b ON b.id = d.dst_symbol_id
     WHERE d.repo = ${repo} AND d.kind = ${kind} AND a.kind = 'module' AND b.kind = 'module'`;
  return rows
    .filter((r) => inferred === undefined || Boolean(r.inferred) === inferred)
    .map((r) => `${r.src}>${r.dst}`)
    .sort();
}

/** Every inferred edge of `repo` as "src>kind>dst" with symbols by qualified name, sorted. */
async function derived(s: Services, repo: string): Promise<string[]> {
  const rows = await sqlOf(s)`
    SELECT a.qualified_name AS src, d.kind, COALESCE(b.qualified_name, 'name:' || d.dst_name) AS dst FROM pm_code_dependency d
      JOIN pm_code_symbol a ON a.id = d.src_symbol_id LEFT JOIN pm_code_symbol b ON b.id = d.dst_symbol_id
     WHERE d.repo = ${repo} AND d.inferred`;
  return rows.map((r) => `${r.src}>${r.kind}>${r.dst}`).sort();
}

function writeRepo(root: string, files: Record<string, string>): void {
  for (const [name, text] of Object.entries(files)) writeFileSync(join(root, name), text);
}

const FILES = {
  "app.py": 'import util\nimport extra\n\n\ndef main():\n    """Run the app."""\n    return util.go()\n',
  "util.py": "import core\n\n\ndef go():\n    return core.run()\n",
  "core.py": "import base\n\n\ndef run():\n    return 1\n",
  "base.py": "X = 1\n",
  "extra.py": "import plugin\n",
  "plugin.py": "Y = 2\n",
  "tool.py": "import core\n",
};

for (const backend of ["pglite", "postgres"] as const) {
  const skip = backend === "postgres" ? await pgSkipReason() : null;
  describe.skipIf(!!skip)(`inference over code imports (${backend})`, () => {
    const t = suiteServices(backend, {}, { skip });

    test("transitive depends_on over imports: fixpoint, inferred in graph reads, one import removed retracts exactly its consequences", async () => {
      const s = t.services;
      const root = mkdtempSync(join(tmpdir(), "pegas-infer-code-"));
      try {
        writeRepo(root, FILES);
        const repo = "infer-demo";
        await storeCode(s, { path: root, repo }, { trustedPath: true });
        const imports = await moduleEdges(s, repo, "imports");
        expect(imports).toEqual(["app>extra", "app>util", "core>base", "extra>plugin", "tool>core", "util>core"]);
        const r1 = await rule(s, '{"if": "imports", "then": "depends_on"}');
        const r2 = await rule(s, '{"if": ["depends_on", "depends_on"], "then": "depends_on"}');
        const out = await infer(s, { ruleIds: [r1, r2] });
        expect(out.ignored).toEqual([]);
        const expected = closure(imports);
        expect(await moduleEdges(s, repo, "depends_on")).toEqual(expected);
        expect(await moduleEdges(s, repo, "depends_on", false)).toEqual([]);
        expect((await infer(s, { ruleIds: [r1, r2] })).edgesAdded).toBe(0);

        // Graph reads mark them inferred.
        const [app] = await sqlOf(
          s,
        )`SELECT id FROM pm_code_symbol WHERE repo = ${repo} AND kind = 'module' AND qualified_name = 'app'`;
        const g = await s.graph.neighbours({ node: `symbol:${app.id}`, kinds: ["depends_on"], direction: "out" });
        const fromApp = g.edges.filter((e) => e.src === `symbol:${app.id}`);
        expect(fromApp.length).toBe(5); // util, core, base, extra, plugin
        expect(g.edges.every((e) => e.inferred && e.source === "inference")).toBe(true); // the induced subgraph: all derived
        const counters = await s.graph.counters();
        expect(counters.edges.depends_on).toMatchObject({ extracted: 0, inferred: expected.length });

        // app.py drops `import extra`: app>extra and app>plugin go; everything else stays (app's symbols got new ids).
        writeRepo(root, { "app.py": FILES["app.py"].replace("import extra\n", "") });
        await storeCode(s, { path: root, repo }, { trustedPath: true });
        const imports2 = await moduleEdges(s, repo, "imports");
        expect(imports2).toEqual(imports.filter((e) => e !== "app>extra"));
        const after = await moduleEdges(s, repo, "depends_on");
        expect(after).toEqual(closure(imports2));
        expect(expected.filter((e) => !after.includes(e))).toEqual(["app>extra", "app>plugin"]);
        const deletes = await sqlOf(
          s,
        )`SELECT count(*) AS n FROM pm_outbox WHERE entity_type = 'code_dependency' AND op = 'delete'`;
        expect(Number(deletes[0].n)).toBeGreaterThan(0);

        // core.py is deleted: whatever went through core goes (util>base, app>core, app>base, tool>base …).
        unlinkSync(join(root, "core.py"));
        await storeCode(s, { path: root, repo }, { trustedPath: true });
        const imports3 = await moduleEdges(s, repo, "imports");
        expect(await moduleEdges(s, repo, "depends_on")).toEqual(closure(imports3));
        // Imports of core are unresolved names now: depends_on edges to name:core are what the rules give (app via util).
        const toName = await sqlOf(s)`
          SELECT a.qualified_name AS src FROM pm_code_dependency d JOIN pm_code_symbol a ON a.id = d.src_symbol_id
           WHERE d.repo = ${repo} AND d.inferred AND d.dst_symbol_id IS NULL AND d.dst_name = 'core'`;
        expect(toName.map((r) => String(r.src)).sort()).toEqual(["app", "tool", "util"]);
        // What truth maintenance kept is exactly what a run from scratch derives.
        const kept = await derived(s, repo);
        await sqlOf(s)`DELETE FROM pm_code_dependency WHERE repo = ${repo} AND inferred`;
        await infer(s, { ruleIds: [r1, r2] });
        expect(await derived(s, repo)).toEqual(kept);
      } finally {
        rmSync(root, { recursive: true, force: true });
      }
    }, 120_000);
  });
}
