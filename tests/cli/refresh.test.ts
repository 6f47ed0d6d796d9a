/**
 * `pegas-memory refresh` (src/cli/refresh-command.ts) in-process through main() on an embedded store: `--older-than`
 * chooses what is due (a page ingested just now is not due at 1d, is at 0s), the re-check sends the stored ETag and
 * its 304 leaves the document at version 1, `--json` prints the outcome, and a bad age is a usage error naming the
 * accepted forms.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { main } from "../../src/cli/main.ts";
import { capture } from "../support/capture.ts";
import { migratedPgliteDir } from "../support/services.ts";

const PAGE = `<html><head><title>Тарифы</title></head><body><article><h1>Тарифы</h1><p>${"Базовый тариф стоит 300 рублей в месяц и включает 50 гигабайт трафика. ".repeat(5)}</p></article></body></html>`;

let dataDir: string;
const dir = mkdtempSync(join(tmpdir(), "pegas-cli-refresh-"));
const config = join(dir, "config.toml");
writeFileSync(config, "allow_private_urls = true\n");
const conditional: Array<string | null> = [];
let down = false;
let downAsked = 0;
const server = Bun.serve({
  hostname: "127.0.0.1",
  port: 0,
  fetch(req) {
    if (new URL(req.url).pathname === "/down") {
      downAsked++;
      return down
        ? new Response("down", { status: 502 })
        : new Response(PAGE.replaceAll("Базовый", "Семейный"), { headers: { "content-type": "text/html" } });
    }
    if (new URL(req.url).pathname !== "/tariffs") return new Response("none", { status: 404 });
    const inm = req.headers.get("if-none-match");
    conditional.push(inm);
    if (inm === '"t1"') return new Response(null, { status: 304, headers: { etag: '"t1"' } });
    return new Response(PAGE, { headers: { "content-type": "text/html; charset=utf-8", etag: '"t1"' } });
  },
});

beforeAll(async () => {
  dataDir = await migratedPgliteDir("pegas-cli-refresh-data-");
}, 120_000);
afterAll(() => {
  server.stop(true);
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(dir, { recursive: true, force: true });
});

const run = (...argv: string[]) =>
  capture(() => main(["--config", config, "--data-dir", dataDir, "--log-level", "error", ...argv], () => {}));

describe("refresh", () => {
  test("a bad age is a usage error naming the forms", async () => {
    const r = await run("refresh", "--older-than", "weekly");
    expect(r.code).not.toBe(0);
    expect(r.err).toContain("7d");
  });

  test("--older-than picks what is due; the stored ETag comes back and a 304 changes nothing", async () => {
    const url = `http://127.0.0.1:${server.port}/tariffs`;
    expect((await run("ingest", url)).code).toBe(0);
    expect(conditional).toEqual([null]);
    const none = await run("refresh", "--older-than", "1d", "--json");
    expect(none.code).toBe(0);
    expect(JSON.parse(none.out)).toMatchObject({ checked: 0, items: [] });
    const r = await run("refresh", "--older-than", "0s", "--json");
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out)).toMatchObject({
      checked: 1,
      unchanged: 1,
      items: [{ uri: url, outcome: "unchanged", version: 1 }],
    });
    expect(conditional).toEqual([null, '"t1"']);
    const text = await run("refresh", "--older-than", "0");
    expect(text.out).toContain(`unchanged ${url}`);
    expect(text.out).toContain("refresh: 1 checked, 0 changed, 1 unchanged, 0 back, 0 gone");
  }, 120_000);

  test("a failing page is printed with its next attempt, then as waiting (not asked again)", async () => {
    const url = `http://127.0.0.1:${server.port}/down`;
    expect((await run("ingest", url)).code).toBe(0);
    down = true;
    downAsked = 0;
    const r = await run("refresh", "--older-than", "0");
    expect(r.code).toBe(0);
    expect(r.out).toMatch(
      new RegExp(`^retry ${url}, next attempt \\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ: .*HTTP 502`, "m"),
    );
    const again = await run("refresh", "--older-than", "0", "--json");
    expect(JSON.parse(again.out)).toMatchObject({ waiting: 1, waiting_items: [{ uri: url, failures: 1 }] });
    const text = await run("refresh", "--older-than", "0");
    expect(text.out).toMatch(new RegExp(`^waiting ${url}, next attempt \\S+Z \\(failed 1×: .*HTTP 502`, "m"));
    expect(text.out).toContain("1 waiting for a retry");
    expect(downAsked).toBe(1);
  }, 120_000);
});
