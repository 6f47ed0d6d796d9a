/**
 * Where benchmarks run: repository paths, the shared data read in place (../shared, never copied), temporary data
 * dirs removed afterwards, in-process services on a fresh PGlite dir or a temporary PostgreSQL database, and the
 * compiled executable copied alone into an empty directory.
 */
import { copyFileSync, chmodSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import postgres from "postgres";
import { type Config, loadConfig } from "../../src/config.ts";
import type { Services } from "../../src/core/services.ts";
import { createServices } from "../../src/wiring/services.ts";

/** Repository root (the directory holding package.json). */
export const ROOT = resolve(import.meta.dir, "../..");
/** The shared read-only data, next to the repository. */
export const SHARED = resolve(ROOT, "..", "shared");
/** The two fixture texts of the ingest benchmarks. */
export const TEXTS = {
  chekhov: join(SHARED, "fixtures/text/ru_chekhov_palata_no6.txt"),
  botchan: join(SHARED, "fixtures/text/en_gutenberg_8868_botchan.txt"),
} as const;
/** Admin URL of the PostgreSQL server used when available (trust auth on 127.0.0.1). */
export const PG_URL = process.env.PEGAS_BENCH_PG_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

const made: string[] = [];

/** A new empty temporary directory; every one is removed by {@link removeTempDirs}. */
export function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), `pegas-bench-${prefix}-`));
  made.push(dir);
  return dir;
}

/** Removes one temporary directory now. */
export function removeDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

/** Removes every temporary directory made by {@link tempDir}. */
export function removeTempDirs(): void {
  for (const d of made.splice(0)) removeDir(d);
}

/** A config that reads no config file and no environment but what is given (as the tests' `testConfig`). */
export function benchConfig(flags: Record<string, unknown>): Config {
  const home = join(tmpdir(), "pegas-bench-home");
  return loadConfig({
    flags: { log_level: "warn", ...flags },
    env: { HOME: home, XDG_CONFIG_HOME: join(home, "no-config") },
  });
}

/** In-process services with their disposal. */
export interface BenchServices {
  services: Services;
  dispose(): Promise<void>;
}

/** Services on a fresh embedded PGlite data dir (or on `dataDir` when given, which is then kept). */
export async function pgliteServices(dataDir?: string): Promise<BenchServices> {
  const dir = dataDir ?? tempDir("pglite");
  const services = await createServices(benchConfig({ data_dir: dir }));
  return {
    services,
    dispose: async () => {
      await services.close(0);
      if (!dataDir) removeDir(dir);
    },
  };
}

/** A new temporary PostgreSQL database named `<prefix>_<pid>_<random>`: its URL and its drop; a reason string when no server answers. */
export async function tempPgDatabase(prefix: string): Promise<{ url: string; drop: () => Promise<void> } | string> {
  const admin = postgres(PG_URL, { max: 1, onnotice: () => {}, connect_timeout: 3 });
  const name = `${prefix}_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  try {
    await admin.unsafe(`CREATE DATABASE ${name}`);
  } catch (err) {
    await admin.end({ timeout: 1 }).catch(() => {});
    return `PostgreSQL at ${PG_URL} unavailable: ${(err as Error).message}`;
  }
  const url = new URL(PG_URL);
  url.pathname = `/${name}`;
  const drop = async () => {
    await admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => {});
    await admin.end({ timeout: 1 });
  };
  return { url: url.href, drop };
}

/** Services on a new temporary PostgreSQL database, dropped on disposal; a reason string when no server answers. */
export async function postgresServices(): Promise<BenchServices | string> {
  const pg = await tempPgDatabase("pegas_bench");
  if (typeof pg === "string") return pg;
  const { url, drop } = pg;
  try {
    const services = await createServices(benchConfig({ database_url: url }));
    return {
      services,
      dispose: async () => {
        await services.close(0);
        await drop();
      },
    };
  } catch (err) {
    await drop();
    return `PostgreSQL at ${PG_URL}: ${(err as Error).message}`;
  }
}

let built: Promise<string> | null = null;

/** Builds dist/pegas-memory once per run (`npm run build`); resolves to its path. */
export function buildBinary(): Promise<string> {
  built ??= (async () => {
    const p = Bun.spawn(["npm", "run", "--silent", "build"], { cwd: ROOT, stdout: "pipe", stderr: "pipe" });
    if ((await p.exited) !== 0) throw new Error(`npm run build failed: ${await new Response(p.stderr).text()}`);
    return join(ROOT, "dist", "pegas-memory");
  })();
  return built;
}

/** The executable copied alone into a new empty temp dir, with an isolated environment (HOME, XDG dirs inside). */
export async function isolatedBinary(): Promise<{ dir: string; bin: string; env: Record<string, string> }> {
  const src = await buildBinary();
  const dir = tempDir("bin");
  const bin = join(dir, "pegas-memory");
  copyFileSync(src, bin);
  chmodSync(bin, 0o755);
  mkdirSync(join(dir, "config"), { recursive: true });
  const env = {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    HOME: dir,
    XDG_CONFIG_HOME: join(dir, "config"),
    XDG_DATA_HOME: join(dir, "data"),
    PEGAS_LOG_LEVEL: "warn",
  };
  return { dir, bin, env };
}

/** Makes an embedded data dir holding the Chekhov text, ingested by the executable's CLI; resolves to the dir. */
export function chekhovDataDir(bin: string, env: Record<string, string>): Promise<string> {
  return textsDataDir(bin, env, [TEXTS.chekhov], "chekhov");
}

/**
 * Makes an embedded data dir holding `paths`, ingested by one call of the executable's CLI; resolves to the dir.
 * @throws Error with the CLI's stderr when the ingest fails.
 */
export async function textsDataDir(
  bin: string,
  env: Record<string, string>,
  paths: string[],
  prefix = "texts",
): Promise<string> {
  const dataDir = tempDir(prefix);
  const p = Bun.spawn([bin, "--data-dir", dataDir, "ingest", ...paths, "--json"], {
    env,
    stdout: "pipe",
    stderr: "pipe",
  });
  if ((await p.exited) !== 0)
    throw new Error(`ingest of ${paths.join(", ")} failed: ${await new Response(p.stderr).text()}`);
  return dataDir;
}
