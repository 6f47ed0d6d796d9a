/**
 * The admin page's app over a PGlite store holding «Палата № 6» (the Chekhov fixture), mounted at /ui as
 * src/http/app.ts mounts it, with the loopback host the requests use: shared by the route tests.
 */
import { Hono } from "hono";
import { ingest } from "../../src/core/documents/ingest.ts";
import type { Services } from "../../src/core/services.ts";
import { createUiApp } from "../../src/ui/app.ts";
import { fixture, openTestServices, type TestServices } from "../support/services.ts";

/** The Host header the app allows. */
export const HOST = "127.0.0.1:8080";
/** The Origin of a same-origin form post. */
export const ORIGIN = `http://${HOST}`;

/** An opened store with the fixture ingested and the UI app over it; `t.dispose()` closes it. */
export interface ChekhovUi {
  t: TestServices;
  s: Services;
  root: Hono;
  docId: number;
}

/** Opens the store, ingests the fixture and mounts the app. Throws when the store cannot be opened. */
export async function openChekhovUi(): Promise<ChekhovUi> {
  const t = await openTestServices("pglite");
  if (typeof t === "string") throw new Error(t);
  const s = t.services;
  const docId = (await ingest(s, { path: fixture("text/ru_chekhov_palata_no6.txt") }, { trustedPath: true })).doc_id!;
  const root = new Hono();
  root.route("/ui", createUiApp({ services: async () => s, allowedHosts: () => [HOST] }));
  return { t, s, root, docId };
}
