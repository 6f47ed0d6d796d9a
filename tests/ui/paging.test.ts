/**
 * The gaps page pages long lists: 60 open gaps show 50 on page 1 with a link to page 2, which shows the other 10;
 * the two lists page independently; a page beyond the last redirects to it (no browser: plain requests to the admin
 * app over a PGlite store).
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { Hono } from "hono";
import { addGap } from "../../src/core/gaps/gaps.ts";
import { linkNodes } from "../../src/core/knowledge/link-forget.ts";
import { storeAtom } from "../../src/core/knowledge/store-atom.ts";
import type { Services } from "../../src/core/services.ts";
import { createUiApp } from "../../src/ui/app.ts";
import { openTestServices, type TestServices } from "../support/services.ts";

const ORIGIN = "http://127.0.0.1:8080";
let t: TestServices;
let root: Hono;
let hub = 0;

beforeAll(async () => {
  const opened = await openTestServices("pglite");
  if (typeof opened === "string") throw new Error(opened);
  t = opened;
  const s: Services = t.services;
  // Distinct questions (a rewording of an open gap would raise its priority instead of adding one).
  for (let i = 0; i < 60; i++)
    await addGap(s, {
      question: `What is the melting point of alloy sample number ${i} (batch ${i * 7919})?`,
      priority: 1 + (i % 5),
    });
  hub = (await storeAtom(s, { type: "fact", claim: "The central station of the sample network opened in 1901." }))
    .atom_id;
  for (let i = 0; i < 60; i++) {
    const leaf = await storeAtom(s, {
      type: "fact",
      claim: `Branch line ${i} of the sample network runs ${i * 13 + 7} kilometres to depot ${i * 7919}.`,
    });
    await linkNodes(s, { src: hub, dst: leaf.atom_id, kind: "connects_to" });
  }
  root = new Hono();
  root.route("/ui", createUiApp({ services: async () => s, allowedHosts: () => ["127.0.0.1:8080"] }));
}, 120_000);
afterAll(() => t?.dispose());

const page = async (query: string, path = "/ui/gaps") => {
  const res = await root.request(`${ORIGIN}${path}${query}`, { headers: { host: "127.0.0.1:8080" } });
  expect(res.status).toBe(200);
  return res.text();
};
const rows = (body: string, list: string) =>
  (
    body
      .split(`id="h-${list}"`)[1]
      ?.split("</section>")[0]
      .match(/<tr><td>/g) ?? []
  ).length;

test("60 open gaps: 50 on page 1 with a link to page 2, 10 on page 2; the answered list is unaffected", async () => {
  const first = await page("");
  expect(first).toContain("Open (60)");
  expect(rows(first, "open")).toBe(50);
  expect(first).toContain("Page 1 of 2 (60 in all)");
  const next = /href="([^"]*open_page=2[^"]*)"/.exec(first)?.[1]?.replaceAll("&amp;", "&");
  expect(next).toBeDefined();
  const second = await page(next!.slice(next!.indexOf("?"), next!.indexOf("#") < 0 ? undefined : next!.indexOf("#")));
  expect(rows(second, "open")).toBe(10);
  expect(second).toContain("Page 2 of 2 (60 in all)");
  expect(second).toContain("Answered (0)");
  const beyond = await root.request(`${ORIGIN}/ui/gaps?open_page=99`, { headers: { host: "127.0.0.1:8080" } });
  expect(beyond.status).toBe(302); // to the last page
  expect(beyond.headers.get("location")).toBe("/ui/gaps?open_page=2&answered_page=1");
  expect(rows(await page("?open_page=-3"), "open")).toBe(50);
});

test("an atom's 60 links out: 50 on page 1 with a link to page 2, 10 on page 2; a page past the end goes to the last", async () => {
  const path = `/ui/atom/${hub}`;
  const links = (body: string) => (body.split("<h3>Out (60)</h3>")[1]?.split("<h3>")[0].match(/<li>/g) ?? []).length;
  const first = await page("", path);
  expect(first).toContain("Out (60)");
  expect(links(first)).toBe(50);
  expect(first).toContain("Page 1 of 2 (60 in all)");
  expect(first).toContain(`${path}?links_page=2`);
  const second = await page("?links_page=2", path);
  expect(links(second)).toBe(10);
  const past = await root.request(`${ORIGIN}${path}?links_page=9`, { headers: { host: "127.0.0.1:8080" } });
  expect(past.status).toBe(302);
  expect(past.headers.get("location")).toContain("links_page=2");
});
