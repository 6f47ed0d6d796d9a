/**
 * The CLI delivers all of a large output to a slow reader before it exits: `search --json` of 50 long atoms
 * (≈ 100 KiB) on an embedded data dir into a pipe nobody reads for half a second (under Bun, exiting right after
 * the write cut it at 64 KiB).
 */
import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { storeAtom } from "../../src/core/knowledge/store-atom.ts";
import { createServices } from "../../src/wiring/services.ts";
import { seededDataDir, testConfig } from "../support/services.ts";

const ROOT = resolve(import.meta.dir, "../..");
const dir = mkdtempSync(join(tmpdir(), "pegas-exit-flush-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test("a slow reader gets the whole output of a command", async () => {
  const dataDir = await seededDataDir(join(dir, "db")); // created and migrated: the first start is not the subject
  const s = await createServices(testConfig({ data_dir: dataDir, log_level: "warn" }));
  try {
    for (let i = 0; i < 50; i++) {
      const filler = Array.from({ length: 60 }, (_, j) => `observatory record ${i} line ${j} of the catalogue`).join(
        "; ",
      );
      await storeAtom(s, {
        type: "text",
        claim: `Observatory catalogue entry ${i} lists a star.`,
        content: `Observatory catalogue entry ${i} lists a star. ${filler}`,
      });
    }
  } finally {
    await s.close();
  }
  // The reader is a shell pipeline that sleeps before reading (Bun.spawn's own pipe is drained at once).
  const args = [
    process.execPath,
    join(ROOT, "main.ts"),
    "--data-dir",
    dataDir,
    "search",
    "observatory catalogue star",
    "--k",
    "50",
    "--json",
  ];
  const quoted = args.map((a) => `'${a.replace(/'/g, "'\\''")}'`).join(" ");
  const p = Bun.spawn(["sh", "-c", `${quoted} | (sleep 0.5; cat)`], {
    cwd: ROOT,
    stdout: "pipe",
    stderr: "pipe",
    env: { ...process.env, XDG_CONFIG_HOME: join(ROOT, ".no-config") },
  });
  const [out, code] = await Promise.all([new Response(p.stdout).text(), p.exited]);
  expect(code).toBe(0);
  expect(out.length).toBeGreaterThan(65_536);
  expect(JSON.parse(out).hits).toHaveLength(50);
}, 60_000);
