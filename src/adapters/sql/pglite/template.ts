/**
 * A ready cluster for the first start: the data dir of an embedded database created by PGlite (initdb) with every
 * migration of the build applied and closed cleanly, packed at build time (scripts/pglite-template.ts) as a gzipped
 * tar with a manifest, and embedded in the executable (src/platform/pglite-template.ts). A first start unpacks it
 * (≈ 0.2 s) instead of running initdb and the migrations (≈ 3 s, ≈ 15 s on a busy machine); the migrations newer
 * than the template still run as on any existing store.
 *
 * The manifest says what the cluster holds: PGlite's version (its PostgreSQL refuses a cluster of another catalog
 * version), the migrations applied with their checksums, and the directories (a tar of files keeps no empty one,
 * and PostgreSQL needs pg_notify, pg_tblspc, …). A template whose migrations are not a prefix of this build's (a
 * migration edited since, or one this build does not know) or of another PGlite is not used: initdb runs instead.
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import pglitePackage from "../../../../node_modules/@electric-sql/pglite/package.json" with { type: "json" };
import { sha256Hex } from "../../../domain/hash.ts";
import { log } from "../../../log.ts";
import { MIGRATIONS, type Migration } from "../migrations.ts";
import { clusterState } from "./pg-control.ts";

/** Name of the manifest inside the archive (never a name PostgreSQL uses: it starts with a dot). */
const MANIFEST = ".pegas-template.json";
/** Version of the archive's layout; a reader refuses others. */
const FORMAT = 1;

/** One applied migration as the template records it. */
export interface TemplateMigration {
  version: number;
  name: string;
  /** sha256 of its SQL, as `pm_schema_migrations.checksum`. */
  checksum: string;
}

/** What a template holds (its manifest). */
export interface TemplateManifest {
  format: number;
  /** Version of the @electric-sql/pglite package whose initdb made the cluster. */
  pglite: string;
  /** Migrations applied in it, ascending. */
  migrations: TemplateMigration[];
  /** Every directory of the cluster (relative, `/`-separated), parents first; files are the archive's entries. */
  dirs: string[];
}

/** The version of the PGlite package this build runs. */
export const PGLITE_VERSION: string = pglitePackage.version;

/** Migrations (default: this build's) as a template records them. */
export function templateMigrations(migrations: readonly Migration[] = MIGRATIONS): TemplateMigration[] {
  return migrations.map((m) => ({ version: m.version, name: m.name, checksum: sha256Hex(m.sql) }));
}

/**
 * Packs the cluster in `dataDir` (closed cleanly: no socket, no PGlite running on it) with its manifest into a
 * gzipped tar. Entries whose name starts with a dot (our cache, sockets, build markers) are left out.
 * @throws Error when the cluster was not shut down cleanly (a template must not need crash recovery).
 */
export async function packTemplate(dataDir: string, migrations: TemplateMigration[]): Promise<Uint8Array> {
  const state = clusterState(dataDir);
  if (state !== "shut down") throw new Error(`the cluster in '${dataDir}' is ${state ?? "missing"}, not shut down`);
  const files: Record<string, Uint8Array> = {};
  const dirs: string[] = [];
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      if (e.name.startsWith(".")) continue;
      const path = join(dir, e.name);
      const rel = relative(dataDir, path).split("\\").join("/");
      if (e.isDirectory()) {
        dirs.push(rel);
        walk(path);
      } else if (e.isFile()) files[rel] = readFileSync(path);
    }
  };
  walk(dataDir);
  const manifest: TemplateManifest = { format: FORMAT, pglite: PGLITE_VERSION, migrations, dirs };
  files[MANIFEST] = new TextEncoder().encode(JSON.stringify(manifest));
  return new Bun.Archive(files, { compress: "gzip", level: 9 }).bytes();
}

/** Why `manifest` does not fit this build (null when it does): another PGlite, or migrations that are not ours. */
export function templateMismatch(
  manifest: TemplateManifest,
  migrations: TemplateMigration[] = templateMigrations(),
): string | null {
  if (manifest.format !== FORMAT) return `its format is ${manifest.format}, this build reads ${FORMAT}`;
  if (manifest.pglite !== PGLITE_VERSION)
    return `it was made by PGlite ${manifest.pglite}, this build runs ${PGLITE_VERSION}`;
  for (const [i, m] of manifest.migrations.entries()) {
    const ours = migrations[i];
    if (!ours || ours.version !== m.version || ours.checksum !== m.checksum)
      return `its migration ${m.version} (${m.name}) differs from this build's`;
  }
  return null;
}

/** The manifest of the template `archive`. @throws Error when the archive is unreadable or lacks its manifest. */
export function readTemplateManifest(archive: Uint8Array): TemplateManifest {
  return manifestOf(tarEntries(Bun.gunzipSync(archive as Uint8Array<ArrayBuffer>)));
}

function manifestOf(entries: Map<string, Uint8Array>): TemplateManifest {
  const bytes = entries.get(MANIFEST);
  if (!bytes) throw new Error(`the PGlite template has no ${MANIFEST}`);
  return JSON.parse(new TextDecoder().decode(bytes)) as TemplateManifest;
}

/** A NUL-terminated field of a tar header. */
function field(header: Uint8Array, at: number, length: number): string {
  const bytes = header.subarray(at, at + length);
  const end = bytes.indexOf(0);
  return new TextDecoder().decode(end < 0 ? bytes : bytes.subarray(0, end));
}

/**
 * The regular files of an uncompressed ustar archive (POSIX.1-1988, as Bun.Archive writes it): name (with the ustar
 * prefix) → contents, views into `tar`. Other entry types are skipped. @throws Error on a truncated archive.
 */
export function tarEntries(tar: Uint8Array): Map<string, Uint8Array> {
  const entries = new Map<string, Uint8Array>();
  for (let at = 0; at + 512 <= tar.length; ) {
    const header = tar.subarray(at, at + 512);
    if (header.every((b) => b === 0)) break; // the end-of-archive blocks
    const size = Number.parseInt(field(header, 124, 12).trim() || "0", 8);
    const start = at + 512;
    if (!Number.isFinite(size) || start + size > tar.length) throw new Error("the PGlite template is truncated");
    const type = header[156];
    const prefix = field(header, 345, 155);
    const name = prefix ? `${prefix}/${field(header, 0, 100)}` : field(header, 0, 100);
    if (type === 0x30 || type === 0) entries.set(name, tar.subarray(start, start + size));
    at = start + Math.ceil(size / 512) * 512;
  }
  return entries;
}

/**
 * Unpacks the template `archive` into `dir` (which must be empty or missing) when it fits this build; returns
 * its manifest, or null (nothing written) when it does not fit. Files are written without fsync, like PGlite's own
 * initdb, whose syncs are no-ops inside the WebAssembly (durable-fs.ts).
 * @throws Error when the archive is unreadable or lacks its manifest; errors of the file system.
 */
export function unpackTemplate(archive: Uint8Array, dir: string): TemplateManifest | null {
  // One gunzip and views into it: ≈ 5× faster than Bun.Archive's files() with a Blob read per entry. Bun's one-shot
  // gunzip takes half the CPU time of node:zlib's gunzipSync here (193 vs 381 ms for the 42 MB tar, same run), which
  // inflates in chunks and then concatenates them.
  const entries = tarEntries(Bun.gunzipSync(archive as Uint8Array<ArrayBuffer>));
  const manifest = manifestOf(entries);
  const mismatch = templateMismatch(manifest);
  if (mismatch) {
    log.info("the embedded database template does not fit this build; running initdb", { why: mismatch });
    return null;
  }
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  for (const d of manifest.dirs) mkdirSync(join(dir, d), { recursive: true, mode: 0o700 });
  for (const [name, bytes] of entries) {
    if (name === MANIFEST) continue;
    writeFileSync(join(dir, name), bytes, { mode: 0o600 });
  }
  return manifest;
}
