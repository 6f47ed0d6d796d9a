/**
 * The workplace's shared data (real fixtures and benchmark sets), read where it lies: `../shared` beside the
 * repository, or `PEGAS_SHARED_DIR`. Never copied into the project.
 */
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";

const ROOT = resolve(import.meta.dir, "../..");

/** Absolute path of the shared dir. @throws Error naming where it was looked for when it is missing. */
export function sharedDir(): string {
  const dir = process.env.PEGAS_SHARED_DIR ?? resolve(ROOT, "..", "shared");
  if (!existsSync(join(dir, "fixtures"))) {
    throw new Error(
      `shared fixtures not found at '${dir}': clone the repository next to the shared/ folder, or set PEGAS_SHARED_DIR`,
    );
  }
  return dir;
}

/** Absolute path of a file under shared/fixtures. */
export function fixturePath(rel: string): string {
  return join(sharedDir(), "fixtures", rel);
}
