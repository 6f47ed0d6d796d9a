/**
 * The admin page served by the compiled executable alone in an empty directory (no node_modules beside it): with
 * PEGAS_HTTP_TOKEN set, chromium gets the prompt, logs in, searches «палата» and sees the Chekhov text cited, and
 * draws the graph view with the embedded cytoscape; every request stays on 127.0.0.1.
 */
import { expect, test } from "bun:test";
import { readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { startHttpServer } from "../../bench/lib/http-server-proc.ts";
import { isolatedBinary, isolatedEnv, seededDataDir, sharedFixture } from "../support/binary.ts";
import { browserSkipReason, launchBrowser, shot } from "./support.ts";

if (browserSkipReason) console.warn(`skipping the admin page test of the executable: ${browserSkipReason}`);

test.skipIf(!!browserSkipReason)(
  "the executable serves the admin page with its assets embedded",
  async () => {
    const { dir, bin } = await isolatedBinary();
    await seededDataDir(join(dir, "data", "pegas-memory")); // the default data dir, created and migrated
    const env = isolatedEnv(dir, { PEGAS_HTTP_TOKEN: "tok-ui-sixteen-chars" });
    const browser = await launchBrowser();
    try {
      const ingest = Bun.spawnSync([bin, "ingest", sharedFixture("text/ru_chekhov_palata_no6.txt")], { env, cwd: dir });
      expect(ingest.exitCode, ingest.stderr.toString()).toBe(0);
      expect(readdirSync(dir)).not.toContain("node_modules");
      const srv = await startHttpServer({ argv: [bin], env, cwd: dir }, []);
      try {
        const page = await browser.context.newPage();
        const requests: string[] = [];
        page.on("request", (r) => requests.push(r.url()));
        expect((await page.goto(`${srv.url}/ui`))?.status()).toBe(401);
        await page.fill("#token", "tok-ui-sixteen-chars");
        await page.getByRole("button", { name: "Open" }).click();
        await page.waitForSelector("h1:text('Overview')");
        await page.goto(`${srv.url}/ui/search?q=${encodeURIComponent("палата")}`);
        expect((await page.locator("ol.hits figcaption").allTextContents()).some((c) => c.includes("Палата"))).toBe(
          true,
        );
        await shot(page, "binary-search");
        const first = await page.locator("ol.hits li.hit h3 a").first().getAttribute("href");
        await page.goto(`${srv.url}/ui/graph?node=atom:${first!.split("/").pop()}`);
        await page.waitForSelector("#graph[data-ready]");
        expect(requests.filter((u) => !u.startsWith(`${srv.url}/`))).toEqual([]);
        expect(requests.some((u) => u.endsWith("/ui/assets/cytoscape.mjs"))).toBe(true);
      } finally {
        expect(await srv.stop()).toBe(0);
      }
    } finally {
      await browser.close();
      rmSync(dir, { recursive: true, force: true });
    }
  },
  240_000,
);
