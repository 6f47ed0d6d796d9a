/**
 * Removing a link from the admin page in headless Debian chromium (the browser sends the form's CSRF field, Origin and
 * Sec-Fetch-Site itself): a link made from the atom page is removed with the "Remove link" button of its
 * confirmation, the page confirms it and no longer lists it, "Link again" brings it back, and the button beside the
 * listed link removes it again. No page logs an error. Screenshots: .tmp/ui-screenshots/atom-unlinked.png, atom-remove-link.png.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { atom } from "../inference/support.ts";
import type { TestServices } from "../support/services.ts";
import { browserSkipReason, launchBrowser, openStore, serveUi, shot, type UiServer, watchProblems } from "./support.ts";

if (browserSkipReason) console.warn(`skipping the admin page's unlink browser test: ${browserSkipReason}`);

describe.skipIf(!!browserSkipReason)("Remove link in chromium", () => {
  let store: TestServices;
  let ui: UiServer;
  let browser: Awaited<ReturnType<typeof launchBrowser>>;
  let page: Page;
  const problems: string[] = [];
  const ids = { a: 0, b: 0 };

  beforeAll(async () => {
    store = await openStore();
    ids.a = await atom(store.services, "Рагин читает книги по вечерам");
    ids.b = await atom(store.services, "Михаил Аверьяныч навещает Рагина");
    ui = serveUi(store.services);
    browser = await launchBrowser();
    page = await browser.context.newPage();
    watchProblems(page, problems);
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await ui?.stop();
    await store?.dispose();
  }, 30_000);

  const outLinks = async () =>
    (await store.services.atomReads.atomLinks(ids.a, 10)).out.map((l) => `${l.kind} ${l.atom_id}`);

  test("link, remove from the confirmation, link again, remove from the list", async () => {
    await page.goto(`${ui.url}/atom/${ids.a}`);
    await page.fill("#link-kind", "related");
    await page.fill("#link-dst", String(ids.b));
    await page.getByRole("button", { name: "Link", exact: true }).click();
    await page.waitForURL(/done=linked/);
    expect(await outLinks()).toEqual([`related ${ids.b}`]);

    await page
      .locator(".flash")
      .getByRole("button", { name: /Remove link/ })
      .click();
    await page.waitForURL(/done=unlinked/);
    expect(await page.locator(".flash").textContent()).toMatch(
      new RegExp(`atom:${ids.a} → related → atom:${ids.b} removed \\(source agent\\)`),
    );
    expect(await outLinks()).toEqual([]);
    await shot(page, "atom-unlinked");

    await page.locator(".flash").getByRole("button", { name: "Link again" }).click();
    await page.waitForURL(/done=linked/);
    expect(await outLinks()).toEqual([`related ${ids.b}`]);
    await page.goto(`${ui.url}/atom/${ids.a}`);
    await shot(page, "atom-remove-link");
    await page.getByRole("button", { name: `Remove link → related atom ${ids.b}` }).click();
    await page.waitForURL(/done=unlinked/);
    expect(await outLinks()).toEqual([]);
    expect(await page.locator("ul.links").count()).toBe(0);
    expect(problems).toEqual([]);
  }, 60_000);
});
