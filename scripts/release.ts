/**
 * `npm run release`: the executable for every release target, compiled as `npm run build` does (scripts/build.ts,
 * after its `prebuild`, the PGlite template: scripts/pglite-template.ts) with the target's Bun runtime, into
 * dist/release/ with a SHA256SUMS file (`sha256sum -c SHA256SUMS` checks it).
 *
 * Cross-compiling needs the Bun runtime of the target. Bun would fetch it by itself; here it comes explicitly from
 * the npm registry (the only reachable source): the package @oven/bun-<target> of exactly the compiler's version,
 * taken from node_modules when npm installed it (the lockfile checked its integrity; for the host that is the running
 * Bun itself), else fetched with `npm pack`
 * and checked against the registry's `dist.integrity` before its `package/bin/bun` is handed to the compiler as
 * its `executablePath`.
 *
 * Usage: bun scripts/release.ts [--target linux-x64|linux-arm64|linux-x64-musl]... [--out DIR]
 */
import { createHash } from "node:crypto";
import { chmodSync, createReadStream, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { buildExecutable } from "./build.ts";

const ROOT = resolve(import.meta.dir, "..");

/** One release target: its name in file names, Bun's `--target` value and the npm package holding its runtime. */
export interface ReleaseTarget {
  name: string;
  bunTarget: Bun.Build.CompileTarget;
  runtimePackage: string;
}

/** Every release target, in build order. */
export const TARGETS: readonly ReleaseTarget[] = [
  { name: "linux-x64", bunTarget: "bun-linux-x64", runtimePackage: "@oven/bun-linux-x64" },
  { name: "linux-arm64", bunTarget: "bun-linux-arm64", runtimePackage: "@oven/bun-linux-aarch64" },
  { name: "linux-x64-musl", bunTarget: "bun-linux-x64-musl", runtimePackage: "@oven/bun-linux-x64-musl" },
];

/** Runs a command in the repository; resolves to its stdout. @throws Error with its stderr when it exits non-zero. */
function run(cmd: string[]): string {
  const p = Bun.spawnSync(cmd, { cwd: ROOT, stdout: "pipe", stderr: "pipe" });
  if (p.exitCode !== 0) throw new Error(`'${cmd.join(" ")}' failed (${p.exitCode}): ${p.stderr.toString().trim()}`);
  return p.stdout.toString();
}

/** Hex or base64 digest of a file, streamed (executables are ~150 MB). */
export function fileDigest(path: string, algorithm: "sha256" | "sha512", encoding: "hex" | "base64"): Promise<string> {
  return new Promise((done, fail) => {
    const hash = createHash(algorithm);
    createReadStream(path)
      .on("data", (chunk) => hash.update(chunk))
      .on("error", fail)
      .on("end", () => done(hash.digest(encoding)));
  });
}

/**
 * Writes `<dir>/SHA256SUMS` after building `files` (paths inside `dir`): their lines are computed afresh, the lines
 * of every other executable already listed there are kept as they were as long as its file is still in `dir` (so
 * that `--target X` does not drop the targets built before), and lines of files gone are dropped. Resolves to the
 * text written (sorted by name, sha256sum's format).
 */
export async function updateChecksums(dir: string, files: string[]): Promise<string> {
  const path = join(dir, "SHA256SUMS");
  const fresh = new Set(files.map((f) => basename(f)));
  const kept = new Map<string, string>();
  const old = existsSync(path) ? readFileSync(path, "utf8") : "";
  for (const line of old.split("\n")) {
    const m = /^[0-9a-f]{64} [ *](.+)$/.exec(line);
    if (m && !fresh.has(m[1]!) && existsSync(join(dir, m[1]!))) kept.set(m[1]!, line);
  }
  const lines = new Map(kept);
  for (const name of fresh) lines.set(name, `${await fileDigest(join(dir, name), "sha256", "hex")}  ${name}`);
  const text = `${[...lines.keys()]
    .sort()
    .map((name) => lines.get(name))
    .join("\n")}\n`;
  writeFileSync(path, text);
  return text;
}

/** Version of the Bun that compiles (the npm package `bun`); the runtime of every target must match it. */
function compilerVersion(): string {
  return JSON.parse(readFileSync(join(ROOT, "node_modules", "bun", "package.json"), "utf8")).version;
}

/**
 * Path of the Bun runtime executable for `target` at `version`: the installed package when its version matches,
 * else a registry tarball fetched with `npm pack` into `cacheDir` and checked against the registry's integrity.
 * @throws Error when the tarball's sha512 differs from the registry's `dist.integrity`.
 */
export async function runtimeFor(target: ReleaseTarget, version: string, cacheDir: string): Promise<string> {
  const installed = join(ROOT, "node_modules", target.runtimePackage);
  if (
    existsSync(join(installed, "package.json")) &&
    JSON.parse(readFileSync(join(installed, "package.json"), "utf8")).version === version
  ) {
    // The `bun` package's postinstall moves the host's binary out of it (to bun/bin/bun.exe): that is this process.
    if (existsSync(join(installed, "bin", "bun"))) return join(installed, "bin", "bun");
    if (Bun.version === version) return process.execPath;
  }
  const dir = join(cacheDir, `${target.runtimePackage.replace("/", "+")}-${version}`);
  const bin = join(dir, "package", "bin", "bun");
  if (existsSync(bin)) return bin;
  const spec = `${target.runtimePackage}@${version}`;
  const expected = JSON.parse(run(["npm", "view", spec, "dist.integrity", "--json"])) as string;
  mkdirSync(dir, { recursive: true });
  const packed = JSON.parse(run(["npm", "pack", spec, "--pack-destination", dir, "--json"])) as Array<{
    filename: string;
  }>;
  const tarball = join(dir, packed[0]!.filename);
  const actual = `sha512-${await fileDigest(tarball, "sha512", "base64")}`;
  if (actual !== expected) {
    rmSync(dir, { recursive: true, force: true });
    throw new Error(
      `${spec}: tarball integrity ${actual} differs from the registry's ${expected}; nothing was extracted`,
    );
  }
  run(["tar", "-xzf", tarball, "-C", dir, "package/bin/bun"]);
  chmodSync(bin, 0o755);
  return bin;
}

/**
 * Builds the chosen targets into `outDir` and updates SHA256SUMS (the entries of other targets' executables still
 * there are kept: {@link updateChecksums}); resolves to the executables' paths and sizes.
 */
export async function release(names: string[], outDir: string): Promise<Array<{ file: string; bytes: number }>> {
  const unknown = names.filter((n) => !TARGETS.some((t) => t.name === n));
  if (unknown.length)
    throw new Error(`unknown target(s) ${unknown.join(", ")}; use ${TARGETS.map((t) => t.name).join(", ")}`);
  const chosen = names.length ? TARGETS.filter((t) => names.includes(t.name)) : [...TARGETS];
  const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8"));
  const version = compilerVersion();
  const cacheDir = join(ROOT, "node_modules", ".cache", "pegas-release");
  mkdirSync(outDir, { recursive: true });
  // npm's `prebuild` of `npm run build`: the migrated PGlite template every target embeds (one for all: WebAssembly).
  run([join(ROOT, "node_modules", ".bin", "bun"), join(ROOT, "scripts", "pglite-template.ts")]);
  const built: Array<{ file: string; bytes: number }> = [];
  for (const t of chosen) {
    const runtime = await runtimeFor(t, version, cacheDir);
    const file = join(outDir, `pegas-memory-${pkg.version}-${t.name}`);
    const started = performance.now();
    await buildExecutable({ outfile: file, target: t.bunTarget, executablePath: runtime });
    const bytes = Bun.file(file).size;
    process.stderr.write(
      `${basename(file)}: ${(bytes / 2 ** 20).toFixed(1)} MiB in ${((performance.now() - started) / 1000).toFixed(1)} s\n`,
    );
    built.push({ file, bytes });
  }
  await updateChecksums(
    outDir,
    built.map((b) => b.file),
  );
  return built;
}

if (import.meta.main) {
  const { values } = parseArgs({ options: { target: { type: "string", multiple: true }, out: { type: "string" } } });
  const outDir = resolve(values.out ?? join(ROOT, "dist", "release"));
  release(values.target ?? [], outDir).then(
    () => process.stderr.write(`wrote ${join(outDir, "SHA256SUMS")}\n`),
    (err: Error) => {
      process.stderr.write(`release: ${err.message}\n`);
      process.exitCode = 1;
    },
  );
}
