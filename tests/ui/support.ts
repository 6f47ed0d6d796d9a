/**
 * Helpers of the admin page's browser tests: a PGlite store holding real fixtures (the Chekhov text in Russian, an
 * English web page) plus an inferred edge made by a logical_rule and memory_infer, served by the UI app on loopback
 * (the way src/http/app.ts mounts it), and Debian's chromium driven by playwright-core with the flags this machine
 * needs. Skips with a reason when /usr/bin/chromium is missing.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { Hono } from "hono";
import { type BrowserContext, type Page, chromium } from "playwright-core";
import { infer } from "../../src/core/inference/infer.ts";
import { ingest } from "../../src/core/documents/ingest.ts";
import { linkNodes } from "../../src/core/knowledge/link-forget.ts";
import type { Services } from "../../src/core/services.ts";
import { type HttpListener, listen } from "../../src/platform/http-server.ts";
import { createUiApp } from "../../src/ui/app.ts";
import { rule } from "../inference/support.ts";
import { fixture, openTestServices, type TestServices } from "../support/services.ts";

/** Where Debian's chromium lives. */
export const CHROMIUM = "/usr/bin/chromium";
/** Why browser tests skip here, or null when chromium is installed. */
export const browserSkipReason: string | null = existsSync(CHROMIUM)
  ? null
  : `${CHROMIUM} is missing (apt-get install -y chromium)`;
/** Screenshots of each page (gitignored; never committed). */
export const SHOTS = resolve(import.meta.dir, "../../.tmp/ui-screenshots");

/** The atoms the fixture store's inferred edge joins: a → b → c extracted (depends_on), a → c inferred. */
export interface InferredChain {
  a: number;
  b: number;
  c: number;
}

/** Ingests the fixtures and makes an inferred edge; returns the chain's atom ids. */
export async function seed(s: Services): Promise<InferredChain> {
  await ingest(s, { path: fixture("text/ru_chekhov_palata_no6.txt") }, { trustedPath: true });
  await ingest(s, { path: fixture("html/en_docs_docker_install_engine.html") }, { trustedPath: true });
  const ru = await s.searchReads.trigramSearch("Рагин больница", 3, { status: ["candidate"] });
  const en = await s.searchReads.trigramSearch("Docker Engine install", 1, { status: ["candidate"] });
  if (ru.length < 2 || en.length < 1) throw new Error("the fixtures gave too few atoms to link");
  const [a, b, c] = [ru[0].atomId, ru[1].atomId, en[0].atomId];
  await linkNodes(s, { src: a, dst: b, kind: "depends_on" });
  await linkNodes(s, { src: b, dst: c, kind: "depends_on" });
  const r = await rule(s, '{"if": ["depends_on", "depends_on"], "then": "depends_on"}');
  const out = await infer(s, { ruleIds: [r] });
  if (out.edgesAdded < 1) throw new Error("memory_infer derived no edge");
  return { a, b, c };
}

/** A served UI over its own store. */
export interface UiServer {
  url: string;
  services: Services;
  listener: HttpListener;
  stop(): Promise<void>;
}

/** Serves `createUiApp` at /ui of a Hono app on 127.0.0.1 (any free port) over the given services. */
export function serveUi(services: Services, token?: string): UiServer {
  const app = new Hono();
  let listener: HttpListener | null = null;
  const allowedHosts = () => (listener ? [`127.0.0.1:${listener.port}`] : []);
  app.route("/ui", createUiApp({ services: async () => services, token, allowedHosts }));
  listener = listen({ hostname: "127.0.0.1", port: 0, fetch: app.fetch });
  const l = listener;
  return { url: `${l.url}/ui`, services, listener: l, stop: () => l.stop(true) };
}

/** Opens a PGlite store (skipping the seed when `seeded` is false). */
export async function openStore(): Promise<TestServices> {
  const t = await openTestServices("pglite");
  if (typeof t === "string") throw new Error(t);
  return t;
}

/** Headless Debian chromium with the machine's flags and a fresh profile (one context); `close` removes the profile. */
export async function launchBrowser(): Promise<{ context: BrowserContext; close(): Promise<void> }> {
  const profile = mkdtempSync(join(tmpdir(), "pegas-ui-chromium-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
    viewport: { width: 1366, height: 900 },
    locale: "ru-RU",
  });
  return {
    context,
    close: async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** Saves a full-page screenshot as .tmp/ui-screenshots/<name>.png. */
export async function shot(page: Page, name: string): Promise<void> {
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
}

/** Collects the page's console errors and warnings and its uncaught exceptions into `problems` (a test expects none). */
export function watchProblems(page: Page, problems: string[]): void {
  page.on("console", (m) => {
    if (m.type() === "error" || m.type() === "warning") problems.push(`${m.type()}: ${m.text()}`);
  });
  page.on("pageerror", (e) => problems.push(`pageerror: ${e.message}`));
}
