/**
 * The migrated template a first start unpacks instead of running initdb and the migrations
 * (src/adapters/sql/pglite/template.ts, made by scripts/pglite-template.ts): a data dir made from it holds the same
 * schema, migrations, extensions, text search configurations and settings as one made by initdb and every migration,
 * a template older than the build gets the newer migrations when opened, and a template that does not fit this build
 * (another PGlite, an edited migration) is refused.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  applyMigrationsWithin,
  LATEST_SCHEMA_VERSION,
  lockMigrations,
  MIGRATIONS,
} from "../../src/adapters/sql/migrations.ts";
import { openPglite } from "../../src/adapters/sql/pglite/open.ts";
import {
  packTemplate,
  PGLITE_VERSION,
  readTemplateManifest,
  type TemplateManifest,
  templateMigrations,
  templateMismatch,
  unpackTemplate,
} from "../../src/adapters/sql/pglite/template.ts";
import { SqlCanonicalStore } from "../../src/adapters/sql/store.ts";
import { migratedPgliteDir } from "../support/services.ts";

const root = mkdtempSync(join(tmpdir(), "pm-template-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** What a data dir holds that a schema depends on, as comparable rows (the postgres database). */
async function schemaOf(dataDir: string): Promise<Record<string, unknown>> {
  const db = await openPglite({ dataDir });
  try {
    return await db.run(async (sql) => ({
      migrations: await sql`SELECT version, name, checksum FROM pm_schema_migrations ORDER BY version`,
      extensions: await sql`SELECT extname, extversion FROM pg_extension ORDER BY extname`,
      textSearch:
        await sql`SELECT c.cfgname, p.prsname, array_agg(m.maptokentype || ':' || d.dictname ORDER BY m.maptokentype, m.mapseqno) AS map
        FROM pg_ts_config c JOIN pg_ts_parser p ON p.oid = c.cfgparser
        LEFT JOIN pg_ts_config_map m ON m.mapcfg = c.oid LEFT JOIN pg_ts_dict d ON d.oid = m.mapdict
        GROUP BY c.cfgname, p.prsname ORDER BY c.cfgname`,
      relations: await sql`SELECT c.relname, c.relkind FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = 'public' ORDER BY c.relname`,
      columns: await sql`SELECT table_name, column_name, data_type, column_default, is_nullable
        FROM information_schema.columns WHERE table_schema = 'public' ORDER BY table_name, ordinal_position`,
      indexes: await sql`SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = 'public' ORDER BY indexname`,
      constraints: await sql`SELECT conrelid::regclass::text AS rel, conname, pg_get_constraintdef(oid) AS def
        FROM pg_constraint WHERE connamespace = 'public'::regnamespace ORDER BY 1, 2`,
      functions: await sql`SELECT proname, pg_get_function_identity_arguments(oid) AS args, md5(prosrc) AS src
        FROM pg_proc WHERE pronamespace = 'public'::regnamespace ORDER BY 1, 2`,
      triggers:
        await sql`SELECT tgname, pg_get_triggerdef(oid) AS def FROM pg_trigger WHERE NOT tgisinternal ORDER BY 1`,
      settings: await sql`SELECT name, setting FROM pg_settings
        WHERE name IN ('default_text_search_config', 'TimeZone', 'server_encoding', 'lc_collate', 'lc_ctype', 'DateStyle')
        ORDER BY name`,
      databases: await sql`SELECT datname, pg_encoding_to_char(encoding) AS enc, datcollate, datctype
        FROM pg_database ORDER BY datname`,
      rows: await sql`SELECT (SELECT count(*) FROM pm_schema_migrations) AS migrations,
        (SELECT count(*) FROM pm_atom) AS atoms, (SELECT count(*) FROM pm_document) AS documents`,
    }));
  } finally {
    await db.close();
  }
}

/** Opens `dataDir` and applies this build's pending migrations; returns the versions applied. */
async function migrate(dataDir: string): Promise<number[]> {
  const db = await openPglite({ dataDir });
  try {
    return await new SqlCanonicalStore(db).migrate();
  } finally {
    await db.close();
  }
}

let reference: Record<string, unknown>;
/** A template one migration behind this build (made as the build script makes one, up to the previous version). */
let older: Uint8Array;

beforeAll(async () => {
  reference = await schemaOf(await migratedPgliteDir("pm-template-ref-"));
  const dataDir = join(root, "made");
  const db = await openPglite({ dataDir });
  try {
    await db.sql.begin(async (tx) => {
      await lockMigrations(tx);
      await applyMigrationsWithin(tx, MIGRATIONS[MIGRATIONS.length - 2].version);
    });
  } finally {
    await db.close();
  }
  older = await packTemplate(dataDir, templateMigrations().slice(0, -1));
}, 120_000);

describe("a data dir from the template", () => {
  test("an older template gets the newer migration, and then equals initdb + every migration", async () => {
    const dir = join(root, "from-older");
    expect(unpackTemplate(older, dir)?.migrations).toHaveLength(MIGRATIONS.length - 1);
    expect(existsSync(join(dir, "pg_notify"))).toBe(true); // an empty directory PostgreSQL needs
    expect(await migrate(dir)).toEqual([LATEST_SCHEMA_VERSION]);
    expect(await schemaOf(dir)).toEqual(reference);
  }, 60_000);

  test("a current template needs no migration and equals initdb + every migration", async () => {
    const dir = join(root, "from-older-2");
    unpackTemplate(older, dir);
    await migrate(dir);
    const current = await packTemplate(dir, templateMigrations());
    expect(readTemplateManifest(current).migrations.map((m) => m.version)).toHaveLength(MIGRATIONS.length);
    const fresh = join(root, "from-current");
    expect(unpackTemplate(current, fresh)).not.toBeNull();
    expect(await migrate(fresh)).toEqual([]);
    expect(await schemaOf(fresh)).toEqual(reference);
  }, 60_000);

  test("a cluster that is open (not shut down) is not packed", async () => {
    const dir = join(root, "open");
    unpackTemplate(older, dir);
    const db = await openPglite({ dataDir: dir });
    try {
      await expect(packTemplate(dir, templateMigrations())).rejects.toThrow("not shut down");
    } finally {
      await db.close();
    }
  }, 60_000);
});

describe("a template that does not fit this build is refused", () => {
  const manifest = (over: Partial<TemplateManifest>): TemplateManifest => ({
    format: 1,
    pglite: PGLITE_VERSION,
    migrations: templateMigrations(),
    dirs: [],
    ...over,
  });

  test("this build's migrations, or fewer of them, fit", () => {
    expect(templateMismatch(manifest({}))).toBeNull();
    expect(templateMismatch(manifest({ migrations: templateMigrations().slice(0, 3) }))).toBeNull();
  });

  test("another PGlite, an edited migration or one this build lacks do not", () => {
    expect(templateMismatch(manifest({ pglite: "0.0.1" }))).toContain("PGlite 0.0.1");
    const edited = templateMigrations().map((m, i) => (i === 1 ? { ...m, checksum: "0".repeat(64) } : m));
    expect(templateMismatch(manifest({ migrations: edited }))).toContain("migration 2");
    const extra = [...templateMigrations(), { version: 9999, name: "future", checksum: "x" }];
    expect(templateMismatch(manifest({ migrations: extra }))).toContain("migration 9999");
    expect(templateMismatch(manifest({ format: 2 }))).toContain("format");
  });

  test("unpacking a template that does not fit writes nothing", async () => {
    const dir = join(root, "refused");
    const { gunzipSync, gzipSync } = await import("node:zlib");
    // The same archive with a manifest naming another PGlite (same length, so the tar stays valid).
    const tar = Buffer.from(gunzipSync(older));
    const at = tar.indexOf(`"pglite":"${PGLITE_VERSION}"`);
    expect(at).toBeGreaterThan(0);
    tar.write(`"pglite":"${"9".repeat(PGLITE_VERSION.length)}"`, at);
    expect(unpackTemplate(gzipSync(tar), dir)).toBeNull();
    expect(existsSync(dir)).toBe(false);
  });
});
