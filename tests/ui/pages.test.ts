/**
 * The admin page in headless Debian chromium over a store holding the Chekhov text (Russian) and an English web page:
 * every page renders with its expected content; «палата» finds hits citing the Chekhov text and an English query the
 * English page; an atom forgotten from its page is gone from search and its undo brings it back; verify and link
 * confirm what they did; the graph view draws an atom's neighbours, marks the inferred edge and moves to a clicked
 * neighbour, edge labels showing at a readable size where pointed at; no page is wider than a 1366 px window (nor
 * documents, search and atom at 375 px); "/" focuses the search box; no request leaves 127.0.0.1 and no page logs an
 * error. Screenshots of each page go to .tmp/ui-screenshots/.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { addGap } from "../../src/core/gaps/gaps.ts";
import { storeAtom } from "../../src/core/knowledge/store-atom.ts";
import {
  browserSkipReason,
  launchBrowser,
  openStore,
  seed,
  serveUi,
  shot,
  type InferredChain,
  type UiServer,
  watchProblems,
} from "./support.ts";
import type { TestServices } from "../support/services.ts";

if (browserSkipReason) console.warn(`skipping the admin page's browser tests: ${browserSkipReason}`);

describe.skipIf(!!browserSkipReason)("admin page in chromium", () => {
  let store: TestServices;
  let ui: UiServer;
  let chain: InferredChain;
  let browser: Awaited<ReturnType<typeof launchBrowser>>;
  let page: Page;
  const requests: string[] = [];
  const problems: string[] = [];

  beforeAll(async () => {
    store = await openStore();
    chain = await seed(store.services);
    await addGap(store.services, {
      question: "Кто был прототипом доктора Рагина?",
      reason: "the text does not say",
      priority: 5,
    });
    ui = serveUi(store.services);
    browser = await launchBrowser();
    page = await browser.context.newPage();
    page.on("request", (r) => requests.push(r.url()));
    watchProblems(page, problems);
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await ui?.stop();
    await store?.dispose();
  }, 30_000);

  const hitIds = async (): Promise<number[]> =>
    (await page.locator("ol.hits li.hit h3 a").evaluateAll((as) => as.map((a) => a.getAttribute("href") ?? ""))).map(
      (h) => Number(h.split("/").pop()),
    );

  async function searchFor(q: string): Promise<void> {
    await page.goto(`${ui.url}/search`);
    await page.fill("#q", q);
    await page.press("#q", "Enter");
    await page.waitForURL(/\/ui\/search\?q=/);
  }

  test("overview: counts by type and status, documents by kind, gaps, outbox, projections, embedding model", async () => {
    const res = await page.goto(ui.url);
    expect(res?.status()).toBe(200);
    expect(await page.getAttribute("html", "lang")).toBe("en");
    await expect(page.locator("h1").textContent()).resolves.toBe("Overview");
    const atoms = Number((await page.locator("#h-atoms").textContent())!.replace(/\D+/g, ""));
    const stats = await store.services.maintenance.stats();
    expect(atoms).toBe(stats.atoms.total);
    const text = (await page.locator("main").textContent())!;
    for (const s of [
      "By type",
      "By status",
      "candidate",
      "text",
      "web",
      "open",
      "outbox backlog",
      "URL documents due for a re-check",
      "embedding model",
      store.services.embedder.model,
      "Projections",
    ]) {
      expect(text).toContain(s);
    }
    await shot(page, "overview");
  });

  test("search «палата» shows hits citing the Chekhov text, with status and locator", async () => {
    await searchFor("палата");
    const hits = page.locator("ol.hits li.hit");
    expect(await hits.count()).toBeGreaterThanOrEqual(5);
    const first = hits.first();
    expect(await first.locator(".status").first().textContent()).toBe("candidate");
    const captions = await page.locator("ol.hits figcaption").allTextContents();
    expect(captions.some((c) => c.includes("Палата") && /line/.test(c))).toBe(true);
    const quotes = (await page.locator("ol.hits blockquote").allTextContents()).join(" ");
    expect(quotes).toMatch(/палат/i);
    expect(await page.locator("ol.hits blockquote").first().getAttribute("lang")).toBe("ru");
    await shot(page, "search-ru");
  });

  test("an English search finds the English page; a type filter narrows the hits", async () => {
    await searchFor("install Docker Engine on Ubuntu");
    const captions = await page.locator("ol.hits figcaption").allTextContents();
    expect(captions.length).toBeGreaterThan(0);
    expect(captions[0]).toMatch(/Docker/);
    await shot(page, "search-en");
    await page.goto(`${ui.url}/search?q=${encodeURIComponent("палата")}&type=definition&type=logical_rule`);
    const types = await page.locator("ol.hits .type").allTextContents();
    expect(types.every((t) => t === "definition" || t === "logical_rule")).toBe(true);
  });

  test("documents: the list with kind, version, authority, atoms per status; a document's atoms, paged", async () => {
    await page.goto(`${ui.url}/documents`);
    const rows = page.locator("tbody tr");
    expect(await rows.count()).toBe(2);
    const table = (await page.locator("table").textContent())!;
    expect(table).toContain("Палата");
    expect(table).toContain("web");
    expect(table).toContain("candidate");
    await shot(page, "documents");
    await page
      .getByRole("link", { name: /Палата/ })
      .first()
      .click();
    await page.waitForURL(/\/ui\/documents\/\d+$/);
    expect(await page.locator("#h-atoms").textContent()).toMatch(/Atoms \(\d+\)/);
    const total = Number((await page.locator("#h-atoms").textContent())!.replace(/\D+/g, ""));
    expect(total).toBeGreaterThan(50); // the Chekhov text gives more than one page
    expect(await page.locator("main tbody tr").count()).toBe(50);
    await page.getByRole("link", { name: "Next →" }).click();
    await page.waitForURL(/page=2/);
    expect(await page.locator("main tbody tr").count()).toBe(Math.min(50, total - 50));
    await shot(page, "document");
  });

  test("gaps: open gaps by priority and the suggestions", async () => {
    await page.goto(`${ui.url}/gaps`);
    expect(await page.locator("#h-open").textContent()).toBe("Open (1)");
    expect(await page.locator("main").textContent()).toContain("Кто был прототипом доктора Рагина?");
    expect(await page.locator("#h-answered").textContent()).toBe("Answered (0)");
    await shot(page, "gaps");
  });

  test("atom: forget from its page removes it from search; undo brings it back", async () => {
    await searchFor("палата");
    const before = await hitIds();
    const target = before[0];
    await page.locator("ol.hits li.hit h3 a").first().click();
    await page.waitForURL(new RegExp(`/ui/atom/${target}$`));
    const main = (await page.locator("main").textContent())!;
    for (const s of ["Content", "Citations", "Links", "Status history", "Forget"]) expect(main).toContain(s);
    await shot(page, "atom");
    await page.fill("#forget-reason", "wrong reading of the text");
    await page.getByRole("button", { name: "Forget atom" }).click();
    await page.waitForURL(/done=forgot/);
    expect(await page.locator(".flash").textContent()).toContain(`Atom ${target} forgotten`);
    expect(await page.locator(".meta .status").first().textContent()).toBe("retracted");
    expect(await page.locator("#h-history + .scroll table").textContent()).toContain("wrong reading of the text");
    await shot(page, "atom-forgotten");
    await searchFor("палата");
    expect(await hitIds()).not.toContain(target);
    await page.goto(`${ui.url}/atom/${target}`);
    await page.getByRole("button", { name: "Restore atom" }).click();
    await page.waitForURL(/done=restored/);
    expect(await page.locator(".flash").textContent()).toContain("restored");
    await searchFor("палата");
    expect(await hitIds()).toContain(target);
    // The confirmation of a forget carries its own undo.
    await page.goto(`${ui.url}/atom/${target}`);
    await page.fill("#forget-reason", "second thoughts");
    await page.getByRole("button", { name: "Forget atom" }).click();
    await page.waitForURL(/done=forgot/);
    await page.locator(".flash").getByRole("button", { name: "Undo" }).click();
    await page.waitForURL(/done=restored/);
    expect(await page.locator(".meta .status").first().textContent()).toBe("candidate");
  });

  test("atom: verify and link confirm what they did", async () => {
    await page.goto(`${ui.url}/atom/${chain.b}`);
    await page.getByRole("button", { name: "Verify atom" }).click();
    await page.waitForURL(/done=verified/);
    expect(await page.locator(".flash").textContent()).toMatch(/Verified: 1 atom checked, \d+ status change/);
    await page.fill("#link-kind", "supports");
    await page.fill("#link-dst", String(chain.a));
    await page.getByRole("button", { name: "Link", exact: true }).click();
    await page.waitForURL(/done=linked/);
    expect(await page.locator(".flash").textContent()).toMatch(
      new RegExp(`atom:${chain.b} → supports → atom:${chain.a} stored`),
    );
    expect(await page.locator("main").textContent()).toContain("→ supports");
  });

  test("graph: an atom's neighbours drawn, the inferred edge marked, a click moves to the neighbour", async () => {
    await page.goto(`${ui.url}/graph?node=atom:${chain.a}`);
    await page.waitForSelector("#graph[data-ready]");
    expect(Number(await page.getAttribute("#graph", "data-ready"))).toBeGreaterThanOrEqual(3);
    const nodes = await page.locator("[data-node]").evaluateAll((li) => li.map((e) => e.getAttribute("data-node")));
    expect(nodes).toEqual(expect.arrayContaining([`atom:${chain.a}`, `atom:${chain.b}`, `atom:${chain.c}`]));
    const inferred = page.locator("tr.inferred");
    expect(await inferred.count()).toBeGreaterThanOrEqual(1);
    expect(await inferred.first().textContent()).toContain("inferred");
    const drawn = await page.evaluate(() =>
      (globalThis as any).pegasGraph
        .edges("[inferred = 1]")
        .map((e: any) => [e.source().id(), e.target().id(), e.style("line-style")]),
    );
    expect(drawn).toContainEqual([`atom:${chain.a}`, `atom:${chain.c}`, "dashed"]);
    // Edge labels: none drawn until pointed at; pointing at a node shows its edges' labels at ≥ 12 px on screen.
    const labels = () =>
      page.evaluate(() => {
        const cy = (globalThis as any).pegasGraph;
        return cy.edges().map((e: any) => ({
          text: e.style("label"),
          px: parseFloat(e.style("font-size")) * cy.zoom(),
          src: e.source().id(),
          dst: e.target().id(),
        }));
      });
    expect((await labels()).every((l: { text: string }) => l.text === "")).toBe(true);
    const box = (await page.locator("#graph").boundingBox())!;
    const atA = await page.evaluate(
      (id) => (globalThis as any).pegasGraph.getElementById(id).renderedPosition(),
      `atom:${chain.a}`,
    );
    await page.mouse.move(box.x + atA.x, box.y + atA.y);
    const shown = (await labels()).filter((l: { text: string }) => l.text !== "");
    expect(shown.length).toBeGreaterThanOrEqual(2);
    expect(shown.map((l: { text: string }) => l.text)).toContain("depends_on (inferred)");
    for (const l of shown) expect(l.px).toBeGreaterThanOrEqual(12);
    await shot(page, "graph");
    const at = await page.evaluate(
      (id) => (globalThis as any).pegasGraph.getElementById(id).renderedPosition(),
      `atom:${chain.b}`,
    );
    await page.mouse.click(box.x + at.x, box.y + at.y);
    await page.waitForURL(new RegExp(`node=atom%3A${chain.b}$`));
    await page.waitForSelector("#graph[data-ready]");
    expect(await page.locator("h1").textContent()).toContain("Graph around");
  });

  test("layout: no page is wider than the window at 1366×768, nor documents and search at 375×800; long tokens wrap", async () => {
    const path =
      "/var/lib/pegas-memory/projects/some-very-long-directory-name/another_really_long_segment/and/a/deeply/nested/file_name_that_goes_on.ts";
    const long = await storeAtom(store.services, {
      type: "fact",
      claim: `The configuration is read from ${path}`,
      links: [{ atom_id: chain.a, kind: "configured_by_a_rather_long_relation_name" }],
    });
    const doc = await store.services.documents.listDocuments(0, 1);
    const pages = [
      `/graph?node=atom:${chain.a}`,
      `/search?q=${encodeURIComponent("configuration")}`,
      "/documents",
      `/documents/${doc.rows[0].id}`,
      `/atom/${long.atom_id}`,
      `/atom/${chain.a}`,
      "/gaps",
      "",
    ];
    const overflow = async (): Promise<number> =>
      page.evaluate(() => (globalThis as any).document.documentElement.scrollWidth - (globalThis as any).innerWidth);
    await page.setViewportSize({ width: 1366, height: 768 });
    try {
      for (const p of pages) {
        await page.goto(`${ui.url}${p}`);
        expect({ page: p, overflow: await overflow() }).toEqual({ page: p, overflow: 0 });
      }
      await page.goto(`${ui.url}/graph?node=atom:${long.atom_id}`);
      const origin = page.locator("#h-edges + .scroll th", { hasText: "Origin" });
      expect((await origin.boundingBox())!.x + (await origin.boundingBox())!.width).toBeLessThanOrEqual(1366);
      expect(await page.locator("h1").textContent()).toMatch(/^Graph around .{80}…$/);
      await shot(page, "graph-1366");
      await page.setViewportSize({ width: 375, height: 800 });
      for (const p of ["/documents", `/search?q=${encodeURIComponent("configuration")}`, `/atom/${long.atom_id}`]) {
        await page.goto(`${ui.url}${p}`);
        expect({ page: p, overflow: await overflow() }).toEqual({ page: p, overflow: 0 });
      }
      await shot(page, "atom-375");
    } finally {
      await page.setViewportSize({ width: 1366, height: 900 });
    }
  });

  test("keyboard: '/' focuses the search box; the skip link and nav are reachable by Tab", async () => {
    await page.goto(`${ui.url}/documents`);
    await page.keyboard.press("/");
    expect(await page.evaluate(() => (globalThis as any).document.activeElement?.id)).toBe("quick-q");
    await page.locator("body").click({ position: { x: 5, y: 300 } });
    await page.keyboard.press("Tab");
    expect(await page.evaluate(() => (globalThis as any).document.activeElement?.textContent)).toBe("Skip to content");
    await page.keyboard.press("Tab");
    expect(await page.evaluate(() => (globalThis as any).document.activeElement?.textContent)).toBe("Overview");
  });

  test("no request left 127.0.0.1 and no page logged an error or warning", () => {
    expect(requests.length).toBeGreaterThan(20);
    const origin = new URL(ui.url).origin;
    expect(requests.filter((u) => !u.startsWith(`${origin}/`) && !u.startsWith("data:"))).toEqual([]);
    expect(problems).toEqual([]);
  });
});
