/**
 * The compiled executable for end-to-end tests: built once per test run with the project's `build` command
 * (bun build --compile), then copied alone into a fresh empty directory per test.
 */
import { copyFileSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fixturePath } from "./shared.ts";

const ROOT = resolve(import.meta.dir, "../..");
let built: Promise<string> | null = null;

/** Builds dist/pegas-memory once (npm run build); resolves to its path. */
export function buildBinary(): Promise<string> {
  built ??= (async () => {
    const p = Bun.spawn(["npm", "run", "--silent", "build"], { cwd: ROOT, stdout: "pipe", stderr: "pipe" });
    const code = await p.exited;
    if (code !== 0) throw new Error(`build failed (${code}): ${await new Response(p.stderr).text()}`);
    return join(ROOT, "dist", "pegas-memory");
  })();
  return built;
}

/** Copies the executable alone into a new empty directory; returns { dir, bin }. */
export async function isolatedBinary(): Promise<{ dir: string; bin: string }> {
  const src = await buildBinary();
  const dir = mkdtempSync(join(tmpdir(), "pegas-e2e-"));
  const bin = join(dir, "pegas-memory");
  copyFileSync(src, bin);
  Bun.spawnSync(["chmod", "+x", bin]);
  return { dir, bin };
}

/** Environment for a spawned server: HOME and XDG dirs inside `dir`, nothing inherited but PATH. */
export function isolatedEnv(dir: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    HOME: dir,
    XDG_CONFIG_HOME: join(dir, "config"),
    XDG_DATA_HOME: join(dir, "data"),
    PEGAS_LOG_LEVEL: "warn",
    ...extra,
  };
}

/** Absolute path of a file under the shared fixtures (see shared.ts). */
export function sharedFixture(rel: string): string {
  return fixturePath(rel);
}
