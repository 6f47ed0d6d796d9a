/**
 * The compiled executable for end-to-end tests: built with the project's `build` command (bun build --compile) at
 * most once per run, and kept under .tmp/bin/<hash of its inputs>/ so that later runs of unchanged sources reuse it;
 * each test gets it alone in a fresh empty directory (a hard link, a copy across file systems).
 */
import { copyFileSync, linkSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { inputsHash, madeOnce, ROOT } from "./once.ts";
export { seededDataDir } from "./services.ts";
import { fixturePath } from "./shared.ts";

/** What the executable is built from: a change to any of these makes a new build. */
const INPUTS = ["main.ts", "src", "migrations", "patches", "package.json", "package-lock.json", "tsconfig.json"];
let built: Promise<string> | null = null;

/**
 * The executable of the current sources, .tmp/bin/<hash of its inputs and of Bun's version>/pegas-memory: built with
 * the project's `build` command (bun build --compile, into dist/) by the first test process of a run that needs it
 * (the others wait for it, see once.ts), and reused by later runs of unchanged sources. Resolves to its path.
 * @throws Error with the build's stderr when the build fails.
 */
export function buildBinary(): Promise<string> {
  built ??= (async () => {
    const dir = await madeOnce(
      "bin",
      inputsHash(INPUTS, `bun ${Bun.version}`),
      async (partial) => {
        const p = Bun.spawn(["npm", "run", "--silent", "build"], { cwd: ROOT, stdout: "pipe", stderr: "pipe" });
        const code = await p.exited;
        if (code !== 0) throw new Error(`build failed (${code}): ${await new Response(p.stderr).text()}`);
        // A copy, not dist/ itself: a later build may rewrite dist/pegas-memory while a test runs this one.
        copyFileSync(join(ROOT, "dist", "pegas-memory"), join(partial, "pegas-memory"));
      },
      0o755,
    ); // open to others: install.sh runs it as another user too
    return join(dir, "pegas-memory");
  })();
  return built;
}

/** Puts the executable alone into a new empty directory (a hard link; a copy across file systems); returns { dir, bin }. */
export async function isolatedBinary(): Promise<{ dir: string; bin: string }> {
  const src = await buildBinary();
  const dir = mkdtempSync(join(tmpdir(), "pegas-e2e-"));
  const bin = join(dir, "pegas-memory");
  try {
    linkSync(src, bin);
  } catch {
    copyFileSync(src, bin);
    Bun.spawnSync(["chmod", "+x", bin]);
  }
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

/** Runs the executable `bin` with `args` (and `stdin` when given) in `env`; resolves to its exit code and output. */
export async function runBinary(
  bin: string,
  env: Record<string, string>,
  args: string[],
  stdin?: string,
): Promise<{ code: number; out: string; err: string }> {
  const p = Bun.spawn([bin, ...args], {
    env,
    stdin: stdin === undefined ? "ignore" : new TextEncoder().encode(stdin),
    stdout: "pipe",
    stderr: "pipe",
  });
  const [out, err, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
  return { code, out, err };
}

/** Absolute path of a file under the shared fixtures (see shared.ts). */
export function sharedFixture(rel: string): string {
  return fixturePath(rel);
}
