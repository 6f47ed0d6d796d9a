/**
 * The compiled executable for end-to-end tests: built with the project's `build` command (bun build --compile) at
 * most once per run, and kept under .tmp/bin/<hash of its inputs>/ so that later runs of unchanged sources reuse it;
 * each test gets it alone in a fresh empty directory (a hard link, a copy across file systems).
 */
import { createHash } from "node:crypto";
import {
  copyFileSync,
  existsSync,
  linkSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join, relative, resolve } from "node:path";
export { seededDataDir } from "./services.ts";
import { fixturePath } from "./shared.ts";

const ROOT = resolve(import.meta.dir, "../..");
/** What the executable is built from: a change to any of these makes a new build. */
const INPUTS = ["src", "migrations", "patches", "package.json", "package-lock.json", "tsconfig.json"];
let built: Promise<string> | null = null;

/** Every file under `path` (a file or a directory), sorted. */
function filesUnder(path: string): string[] {
  if (!existsSync(path)) return [];
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path, { withFileTypes: true })
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .flatMap((e) => filesUnder(join(path, e.name)));
}

/** SHA-256 (hex, 16 chars) of the build's inputs (paths and contents) and of the Bun that compiles them. */
function inputsHash(): string {
  const h = createHash("sha256").update(`bun ${Bun.version}\n`);
  for (const file of INPUTS.flatMap((p) => filesUnder(join(ROOT, p))))
    h.update(`${relative(ROOT, file)}\n`).update(readFileSync(file));
  return h.digest("hex").slice(0, 16);
}

/**
 * The executable of the current sources: .tmp/bin/<hash>/pegas-memory when a run already built it, else built now
 * (npm run build, into dist/) and copied there. Resolves to its path.
 * @throws Error with the build's stderr when the build fails.
 */
export function buildBinary(): Promise<string> {
  built ??= (async () => {
    const hash = inputsHash();
    const cached = join(ROOT, ".tmp", "bin", hash, "pegas-memory");
    if (existsSync(cached)) return cached;
    const p = Bun.spawn(["npm", "run", "--silent", "build"], { cwd: ROOT, stdout: "pipe", stderr: "pipe" });
    const code = await p.exited;
    if (code !== 0) throw new Error(`build failed (${code}): ${await new Response(p.stderr).text()}`);
    // A copy, not dist/ itself: another run's build may rewrite dist/pegas-memory while this run uses it.
    mkdirSync(join(cached, ".."), { recursive: true });
    const partial = `${cached}.${process.pid}.partial`;
    copyFileSync(join(ROOT, "dist", "pegas-memory"), partial);
    renameSync(partial, cached);
    // Builds of older sources go once they are an hour old (a run started on one has long linked it).
    for (const old of readdirSync(join(ROOT, ".tmp", "bin"))) {
      const path = join(ROOT, ".tmp", "bin", old);
      if (old !== hash && Date.now() - statSync(path).mtimeMs > 3_600_000)
        rmSync(path, { recursive: true, force: true });
    }
    return cached;
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

/** Absolute path of a file under the shared fixtures (see shared.ts). */
export function sharedFixture(rel: string): string {
  return fixturePath(rel);
}
