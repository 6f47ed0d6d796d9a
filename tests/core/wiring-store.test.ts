/**
 * The canonical store opened alone (src/wiring/store.ts), as `migrate`, `export`, `import` and doctor open it, on a
 * fresh PostgreSQL database (skipped, with the reason, when no server answers): openStore leaves the schema alone,
 * openMigratedStore applies the migrations, or with migrate off refuses a schema behind this build and names what is
 * missing.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { LATEST_SCHEMA_VERSION, MIGRATIONS } from "../../src/adapters/sql/migrations.ts";
import { openMigratedStore, openStore } from "../../src/wiring/store.ts";
import { createTempPgDatabase, pgSkipReason, type TempDb } from "../support/pg.ts";
import { testConfig } from "../support/services.ts";

const skip = await pgSkipReason();

describe.skipIf(skip !== null)("the store opened without models", () => {
  let db: TempDb;
  const config = (migrate: boolean) => testConfig({ database_url: db.url, migrate });

  beforeAll(async () => {
    const made = await createTempPgDatabase("pegas_wstore");
    if (typeof made === "string") throw new Error(made);
    db = made;
  });
  afterAll(async () => {
    await db?.drop();
  });

  test("openStore leaves a fresh database unmigrated", async () => {
    const store = await openStore(config(true));
    try {
      expect(store.kind).toBe("postgres");
      const status = await store.maintenance.migrationStatus();
      expect(status.applied).toEqual([]);
      expect(status.pending).toEqual(MIGRATIONS.map((m) => m.version));
    } finally {
      await store.close();
    }
  });

  test("with migrate off, a schema behind this build is MIGRATION_REQUIRED naming the pending migrations", async () => {
    const pending = MIGRATIONS.map((m) => m.version).join(", ");
    await expect(openMigratedStore(config(false))).rejects.toMatchObject({
      code: "MIGRATION_REQUIRED",
      message: `the database lacks migration(s) ${pending}`,
      hint: "run `pegas-memory migrate`",
    });
  });

  test("with migrate on, the schema is brought up to date; then migrate off opens it", async () => {
    const migrated = await openMigratedStore(config(true));
    await migrated.close();
    const store = await openMigratedStore(config(false));
    try {
      const status = await store.maintenance.migrationStatus();
      expect(status.pending).toEqual([]);
      expect(Math.max(...status.applied)).toBe(LATEST_SCHEMA_VERSION);
      const outbox = store.openOutbox();
      try {
        expect(await outbox.backlog()).toMatchObject({ pending: 0, dead: 0 });
      } finally {
        await outbox.close();
      }
    } finally {
      await store.close();
    }
  });
});
