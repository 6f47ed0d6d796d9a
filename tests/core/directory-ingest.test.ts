/**
 * Directory ingest: every supported file, recursively; hidden files, unsupported files, links out of the roots and
 * symlink loops are passed over and reported; a file that fails does not stop the others; results stay bounded.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ingest, MAX_LISTED } from "../../src/core/documents/ingest.ts";
import { openTestServices, type TestServices } from "../support/services.ts";

let t: TestServices;
let root: string;
let outside: string;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), "pegas-dir-"));
  outside = mkdtempSync(join(tmpdir(), "pegas-outside-"));
  const docs = join(root, "docs");
  mkdirSync(join(docs, "sub", "deeper"), { recursive: true });
  writeFileSync(join(docs, "a.txt"), "Первый документ о флигеле во дворе больницы.");
  writeFileSync(join(docs, "sub", "b.md"), "# Второй\n\nДокумент о докторе Рагине и его книгах.");
  writeFileSync(
    join(docs, "sub", "deeper", "c.html"),
    `<html><body><article><p>${"Третий документ о палате номер шесть. ".repeat(10)}</p></article></body></html>`,
  );
  writeFileSync(join(docs, "broken.pdf"), "%PDF-1.4 this is not really a PDF");
  writeFileSync(join(docs, "image.png"), "not text");
  writeFileSync(join(docs, ".secret.txt"), "hidden");
  writeFileSync(join(outside, "leak.txt"), "must not be read");
  symlinkSync(join(outside, "leak.txt"), join(docs, "link-out.txt"));
  symlinkSync("..", join(docs, "sub", "loop"));
  const many = join(root, "many");
  mkdirSync(many);
  for (let i = 0; i < MAX_LISTED + 20; i++)
    writeFileSync(join(many, `f${i}.txt`), `Файл номер ${i}: заметка о наблюдении ${i}.`);
  const opened = await openTestServices("pglite", { ingest_roots: [root] });
  if (typeof opened === "string") throw new Error(opened);
  t = opened;
}, 60_000);

afterAll(async () => {
  await t?.dispose();
  rmSync(root, { recursive: true, force: true });
  rmSync(outside, { recursive: true, force: true });
});

test("supported files are ingested, the rest reported; a symlink loop ends", async () => {
  const r = await ingest(t.services, { path: join(root, "docs") });
  expect(r.documents.map((d) => d.uri.split("/").pop()).sort()).toEqual(["a.txt", "b.md", "c.html"]);
  expect(r.errors.map((e) => [e.source.split("/").pop(), e.code])).toEqual([["broken.pdf", "UNSUPPORTED_MEDIA"]]);
  const reasons = Object.fromEntries(r.skipped.map((s) => [s.source.split("/").pop(), s.reason]));
  expect(reasons[".secret.txt"]).toBe("hidden");
  expect(reasons["image.png"]).toBe("unsupported file type");
  expect(reasons["link-out.txt"]).toContain("outside the ingest roots");
  expect(Object.values(reasons).some((x) => String(x).includes("already walked"))).toBe(true);
}, 60_000);

test("a large directory: totals count everything, lists stay bounded", async () => {
  const r = await ingest(t.services, { path: join(root, "many") });
  expect(r.documents_total).toBe(MAX_LISTED + 20);
  expect(r.documents.length).toBe(MAX_LISTED);
  expect(r.atoms_created).toBeGreaterThanOrEqual(MAX_LISTED + 20); // a passage per file, and its fact
  expect(JSON.stringify(r).length).toBeLessThan(1024 * 1024);
}, 120_000);

test("past max_directory_files the walk stops with a warning; the files taken are ingested", async () => {
  const dir = join(root, "limited");
  mkdirSync(dir);
  for (let i = 0; i < 5; i++) writeFileSync(join(dir, `n${i}.txt`), `Limited note ${i} about the garden.`);
  const before = t.services.config.max_directory_files;
  t.services.config.max_directory_files = 3;
  try {
    const r = await ingest(t.services, { path: dir });
    expect(r.documents.map((d) => d.uri.split("/").pop())).toEqual(["n0.txt", "n1.txt", "n2.txt"]);
    expect(r.warnings[0]).toContain("more than 3 supported files");
    expect(r.warnings[0]).toContain("raise max_directory_files in the config file");
  } finally {
    t.services.config.max_directory_files = before;
  }
}, 60_000);

test("a cancelled directory ingest keeps the files stored; a re-run skips them and stores the rest", async () => {
  const dir = join(root, "resumable");
  mkdirSync(dir);
  for (let i = 0; i < 6; i++)
    writeFileSync(join(dir, `r${i}.txt`), `Resumable note ${i}: the well is ${i} metres deep.`);
  const ac = new AbortController();
  const first = ingest(
    t.services,
    { path: dir },
    {
      signal: ac.signal,
      progressEveryMs: 0,
      onProgress: (_p, _t, message) => {
        if (message.startsWith("file 2") && message.includes("done")) ac.abort();
      },
    },
  );
  await expect(first).rejects.toMatchObject({ code: "CANCELLED" });
  const again = await ingest(t.services, { path: dir });
  expect(again.documents_total).toBe(6);
  const unchanged = again.documents.filter((d) => d.unchanged).map((d) => d.uri.split("/").pop());
  expect(unchanged).toEqual(["r0.txt", "r1.txt"]);
  expect(again.documents.filter((d) => !d.unchanged).length).toBe(4);
}, 60_000);

test("files of one batch are deduplicated together, as files stored one by one are", async () => {
  const dir = join(root, "restated");
  mkdirSync(dir);
  writeFileSync(join(dir, "1.txt"), "The Eiffel Tower was completed in 1889. It is made of wrought iron.");
  writeFileSync(join(dir, "2.txt"), "THE EIFFEL TOWER WAS COMPLETED IN 1889! Paris is the capital of France.");
  writeFileSync(join(dir, "3.txt"), "The Eiffel Tower was completed in 1887.");
  const r = await ingest(t.services, { path: dir });
  expect(r.errors).toEqual([]);
  const by = new Map(r.documents.map((d) => [d.uri.split("/").pop(), d]));
  expect(by.get("2.txt")!.atoms_near_duplicate).toBe(1);
  expect(by.get("2.txt")!.merges[0].kept_atom_id).toBeGreaterThan(0);
  expect(by.get("3.txt")!.links_added).toBeGreaterThanOrEqual(1);
  expect(by.get("3.txt")!.atoms_contradicting).toBe(1);
  expect(r.atoms_near_duplicate).toBe(1);
  expect(r.atoms_created + r.atoms_existing + r.atoms_near_duplicate).toBe(r.atoms_distilled);
});
