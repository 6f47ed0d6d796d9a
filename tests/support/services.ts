/**
 * Services for core tests on a fresh database: PostgreSQL (a temporary database; a reason string when no server
 * answers) or the embedded PGlite (a temporary data dir).
 */
import { afterAll, beforeAll } from "bun:test";
import { cpSync, mkdirSync, mkdtempSync, renameSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Config, loadConfig } from "../../src/config.ts";
import type { Services } from "../../src/core/services.ts";
import { createServices, openDatabase } from "../../src/wiring/services.ts";
import { inputsHash, madeOnce } from "./once.ts";
import { createTempPgDatabase } from "./pg.ts";
import { readEveryOutboxRow } from "./outbox-reader.ts";
import { fixturePath } from "./shared.ts";

/** Services and their disposal. */
export interface TestServices {
  services: Services;
  config: Config;
  dispose(): Promise<void>;
}

/** A config for tests: no config file, no environment but what is given. */
export function testConfig(flags: Record<string, unknown>, env: Record<string, string> = {}): Config {
  return loadConfig({ flags, env: { HOME: tmpdir(), XDG_CONFIG_HOME: join(tmpdir(), "pegas-no-config"), ...env } });
}

/** What the migrated data dir is made from: the migrations, the code that applies them, PGlite (the lock file). */
export const TEMPLATE_INPUTS = ["src", "migrations", "patches", "package-lock.json"];
let bare: Promise<string> | null = null;
let template: Promise<string> | null = null;

/** Copies the data dir `from` into the existing dir `to`, leaving out a socket a host left behind. */
function copyDataDir(from: string, to: string): void {
  cpSync(from, to, { recursive: true, filter: (src) => !/[/\\]\.s\.PGSQL\./.test(src) });
}

/**
 * An embedded data dir with its cluster created (initdb, ≈ 11 CPU-seconds) and no migration applied, closed
 * cleanly: made once per change of its inputs and shared like {@link pgliteTemplate} (.tmp/pglite-bare/<hash>/), which
 * is made from it. Never opened itself: tests of an upgrade from an older schema open copies.
 */
export function pgliteBareTemplate(): Promise<string> {
  bare ??= madeOnce("pglite-bare", inputsHash(TEMPLATE_INPUTS, "pglite bare v2"), async (dir) => {
    // migrate off: initdb's bare cluster, not the executable's migrated template (pglite/template.ts)
    const db = await openDatabase(testConfig({ data_dir: dir, log_level: "warn", migrate: false }));
    await db.sql`SELECT 1`;
    await db.close();
  });
  return bare;
}

/**
 * An embedded data dir with its cluster created (a copy of {@link pgliteBareTemplate}) and every migration applied,
 * closed cleanly: made once per change of its inputs and shared by every test process and run (.tmp/pglite/<hash>/,
 * see once.ts), because initdb costs ≈ 8 s here and forty suites open a fresh one. Never opened itself: suites open
 * copies. Tests of the first start itself make their own empty dirs.
 */
export function pgliteTemplate(): Promise<string> {
  template ??= madeOnce("pglite", inputsHash(TEMPLATE_INPUTS, "pglite template v2"), async (dir) => {
    copyDataDir(await pgliteBareTemplate(), dir);
    const services = await createServices(testConfig({ data_dir: dir, log_level: "warn" }));
    await services.close();
  });
  return template;
}

/**
 * A new temporary dir (`<tmpdir>/<prefix>XXXXXX`) holding a copy of {@link pgliteTemplate}: an embedded database
 * created and migrated, with no rows but the migrations'. The caller removes it.
 */
export async function migratedPgliteDir(prefix: string): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  copyDataDir(await pgliteTemplate(), dir);
  return dir;
}

/**
 * Makes `dataDir` (which must not exist; its parent is created) an embedded data dir already created and migrated:
 * a copy of {@link pgliteTemplate}, so the server or process that opens it skips initdb (≈ 11 CPU-seconds in the
 * executable). For tests whose subject is not the first start; those of the first start itself (stdio hygiene,
 * doctor on a fresh machine, install, one MCP session, two processes racing on a fresh dir) keep an empty dir.
 * Returns `dataDir`.
 */
export async function seededDataDir(dataDir: string): Promise<string> {
  mkdirSync(join(dataDir, ".."), { recursive: true });
  const copy = await migratedPgliteDir("pegas-seed-");
  try {
    renameSync(copy, dataDir);
  } catch {
    cpSync(copy, dataDir, { recursive: true }); // another file system
    rmSync(copy, { recursive: true, force: true });
  }
  return dataDir;
}

/**
 * Options of test services. `outboxReader` (default true) registers a reader of every outbox entity type
 * (outbox-reader.ts), so that writes queue their outbox rows as they do with Memgraph configured and the suites can
 * check them; false keeps the embedded default, where nobody reads the outbox and nothing is queued.
 */
export interface TestServiceOptions {
  outboxReader?: boolean;
}

/** Opens services on a fresh database of the given backend (PGlite: a copy of {@link pgliteTemplate}). */
export async function openTestServices(
  backend: "postgres" | "pglite",
  flags: Record<string, unknown> = {},
  opts: TestServiceOptions = {},
): Promise<TestServices | string> {
  const opened = await openServices(backend, flags);
  if (typeof opened !== "string" && opts.outboxReader !== false) await readEveryOutboxRow(opened.services.outbox);
  return opened;
}

async function openServices(
  backend: "postgres" | "pglite",
  flags: Record<string, unknown>,
): Promise<TestServices | string> {
  if (backend === "postgres") {
    const tmp = await createTempPgDatabase("pegas_core");
    if (typeof tmp === "string") return tmp;
    const config = testConfig({ database_url: tmp.url, log_level: "warn", ...flags });
    const services = await createServices(config).catch(async (err) => {
      await tmp.drop(); // a configuration the test expects to fail must not leave its database behind
      throw err;
    });
    return {
      services,
      config,
      dispose: async () => {
        await services.close(0);
        await tmp.drop();
      },
    };
  }
  const dir = await migratedPgliteDir("pegas-core-");
  const config = testConfig({ data_dir: dir, log_level: "warn", ...flags });
  const services = await createServices(config).catch((err) => {
    rmSync(dir, { recursive: true, force: true });
    throw err;
  });
  return {
    services,
    config,
    dispose: async () => {
      await services.close(0);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Absolute path of a file of the shared fixtures (see shared.ts). */
export function fixture(rel: string): string {
  return fixturePath(rel);
}

/** Services of a test file, open between its beforeAll and afterAll. */
export interface SuiteServices {
  readonly services: Services;
  readonly config: Config;
}

/**
 * Opens services for a test file in a beforeAll hook (none when `opts.skip` gives a reason to skip) and disposes
 * them in afterAll, then runs `opts.after` (to stop stand-in servers). Reading `services` before they are open throws.
 */
export function suiteServices(
  backend: "postgres" | "pglite",
  flags: Record<string, unknown> = {},
  opts: { skip?: string | null; after?: () => unknown } & TestServiceOptions = {},
): SuiteServices {
  let t: TestServices | undefined;
  beforeAll(async () => {
    if (opts.skip) return;
    const opened = await openTestServices(backend, flags, opts);
    if (typeof opened === "string") throw new Error(`cannot open ${backend}: ${opened}`);
    t = opened;
  }, 60_000);
  afterAll(async () => {
    await t?.dispose();
    await opts.after?.();
  }, 30_000);
  const open = (): TestServices => {
    if (!t) throw new Error("the test services are not open");
    return t;
  };
  return {
    get services() {
      return open().services;
    },
    get config() {
      return open().config;
    },
  };
}
