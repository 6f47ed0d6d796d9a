/**
 * The migrated PGlite cluster embedded in the executable (src/adapters/sql/pglite/template.ts says what it is):
 * `scripts/pglite-template.ts` makes dist/pglite-template.tar.gz before `bun build --compile` embeds it (npm's
 * `prebuild`). Run from source without a build, there is none and a first start runs initdb.
 *
 * Bun-specific: `with { type: "file" }` (in pglite-template-file.ts) embeds the file and yields its path; that module
 * is imported dynamically, so that a missing file is a failed import here rather than a failed start.
 */
import { readFileSync } from "node:fs";

/** The template's bytes (a gzipped tar), or null when this build has none. Never throws. */
export async function embeddedTemplate(): Promise<Uint8Array | null> {
  try {
    const { default: path } = await import("./pglite-template-file.ts");
    return readFileSync(path);
  } catch {
    return null;
  }
}
