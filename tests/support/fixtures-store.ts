/**
 * An embedded store holding every shared fixture document (PDFs, EPUBs, HTML pages, the two novels) ingested with
 * the embedded defaults: made once per change of the code or of the fixture list (.tmp/pglite-fixtures/<hash>/, see
 * once.ts) and shared by the test files and runs that read it, so the books are ingested once. Suites open a copy.
 */
import { afterAll, beforeAll } from "bun:test";
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Services } from "../../src/core/services.ts";
import { ingest } from "../../src/core/documents/ingest.ts";
import { createServices } from "../../src/wiring/services.ts";
import { inputsHash, madeOnce } from "./once.ts";
import { pgliteTemplate, TEMPLATE_INPUTS, testConfig } from "./services.ts";
import { fixturePath } from "./shared.ts";

/** The fixture files the store holds (paths under shared/fixtures), ingested in this order. */
export const FIXTURE_FILES = [
  "text/ru_chekhov_palata_no6.txt",
  "text/en_gutenberg_8868_botchan.txt",
  "pdf/en_paper_mdpi_toxins_2016_ligatures.pdf",
  "pdf/en_paper_npj_2020_two_column_ligatures.pdf",
  "pdf/en_paper_plosmed_2022_single_column.pdf",
  "pdf/ru_paper_iccsde_2024_geoacoustics.pdf",
  "epub/en_epub3_alice_in_wonderland.epub",
  "epub/en_epub2_leaves_of_grass_gutenberg.epub",
  "html/en_wikipedia_mozilla.html",
  "html/en_blog_v8dev_emscripten_standalone_wasm.html",
  "html/en_blog_firefox_nightly_issue85.html",
  "html/en_docs_docker_install_engine.html",
] as const;

const flags = (dataDir: string) => ({ data_dir: dataDir, log_level: "warn", ingest_roots: [fixturePath("")] });

let made: Promise<string> | null = null;

/**
 * The data dir of the fixtures store (never opened itself: open a copy). Ingesting takes ≈ 10–20 s the first time
 * per change of `src/`.
 * @throws Error when a fixture fails to ingest.
 */
export function fixturesStoreTemplate(): Promise<string> {
  made ??= madeOnce(
    "pglite-fixtures",
    inputsHash(TEMPLATE_INPUTS, `fixtures store v1 ${FIXTURE_FILES.join(" ")}`),
    async (dir) => {
      cpSync(await pgliteTemplate(), dir, { recursive: true, filter: (src) => !/[/\\]\.s\.PGSQL\./.test(src) });
      const services = await createServices(testConfig(flags(dir)));
      try {
        for (const f of FIXTURE_FILES) {
          const r = await ingest(services, { path: fixturePath(f) });
          if (r.errors.length) throw new Error(`ingesting ${f}: ${JSON.stringify(r.errors)}`);
        }
      } finally {
        await services.close(0);
      }
    },
  );
  return made;
}

/** Services over a fresh copy of the fixtures store; `dispose` closes them and removes the copy. */
export async function openFixturesStore(): Promise<{ services: Services; dispose(): Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), "pegas-fixtures-"));
  cpSync(await fixturesStoreTemplate(), dir, { recursive: true, filter: (src) => !/[/\\]\.s\.PGSQL\./.test(src) });
  const services = await createServices(testConfig(flags(dir)));
  return {
    services,
    dispose: async () => {
      await services.close(0);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * {@link openFixturesStore} for a test file: open between its beforeAll and afterAll. Reading `services` before they
 * are open throws.
 */
export function suiteFixturesStore(): { readonly services: Services } {
  let open: Awaited<ReturnType<typeof openFixturesStore>> | undefined;
  beforeAll(async () => {
    open = await openFixturesStore();
  }, 300_000);
  afterAll(async () => {
    await open?.dispose();
  }, 30_000);
  return {
    get services() {
      if (!open) throw new Error("the fixtures store is not open");
      return open.services;
    },
  };
}
