/**
 * Acceptance (issue 23): a restart reuses a valid index snapshot (catching up only what changed since its mark) and
 * rebuilds a stale-beyond-use, corrupt or foreign one; in every case the answers equal those of a fresh rebuild from
 * the database. Over the embedded default (PGlite), with projections opened beside the services' own, as a new
 * process would open them.
 */
import { afterAll, describe, expect, spyOn, test } from "bun:test";
import { existsSync, mkdtempSync, readFileSync, rmSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { EmbeddedProjection } from "../../src/adapters/embedded/projection.ts";
import { storeAtom } from "../../src/core/knowledge/store-atom.ts";
import { log } from "../../src/log.ts";
import type { ChangeFeed } from "../../src/ports/store/change-feed.ts";
import { SNAPSHOT_FORMAT } from "../../src/adapters/embedded/snapshot.ts";
import { snapshotPath } from "../../src/wiring/services.ts";
import { suiteServices } from "../support/services.ts";

const ctx = suiteServices("pglite", {}, { outboxReader: false });
const dir = mkdtempSync(join(tmpdir(), "pegas-snap-"));
const path = join(dir, "index.snap");
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const CLAIMS = [
  "The hospital ward number six stands in the courtyard among burdock and nettles.",
  "Doctor Andrey Yefimych Ragin reads books in the evening and drinks vodka with the postmaster.",
  "Ivan Dmitrich Gromov believes he is persecuted and is kept in ward six.",
  "The postmaster Mikhail Averyanych talks about the old days of the town.",
  "Палата номер шесть стоит во дворе больницы, окружённая репейником и крапивой.",
  "Андрей Ефимыч Рагин по вечерам читает книги и пьёт водку с почтмейстером.",
  "Иван Дмитрич Громов считает, что его преследуют, и живёт в палате номер шесть.",
  "Почтмейстер Михаил Аверьяныч вспоминает прежние времена города.",
];
const MORE = [
  "Ragin is himself locked in ward six after his friends declare him mad.",
  "Рагина самого запирают в палату номер шесть, объявив его сумасшедшим.",
];
const QUERIES = ["ward six", "postmaster", "Рагин книги", "палата номер шесть", "persecuted Gromov", "водка"];

/** A ChangeFeed that counts the rows it hands out and can pretend to be another database. */
function countingFeed(identity?: string) {
  const store = ctx.services.changeFeed;
  const feed = {
    rows: 0,
    changeMark: () => store.changeMark(),
    feedIdentity: async () => identity ?? (await store.feedIdentity()),
    atomChanges: async (...a: Parameters<ChangeFeed["atomChanges"]>) => {
      const r = await store.atomChanges(...a);
      feed.rows += r.length;
      return r;
    },
    embeddingChanges: async (...a: Parameters<ChangeFeed["embeddingChanges"]>) => {
      const r = await store.embeddingChanges(...a);
      feed.rows += r.length;
      return r;
    },
  };
  return feed;
}

/** A projection as a fresh process opens it: with the snapshot at `path` (saving after any change), or none. */
function open(opts: { snapshot: boolean; identity?: string }) {
  const feed = countingFeed(opts.identity);
  const { model, dim } = ctx.services.embedder;
  const p = new EmbeddedProjection(feed, model, dim, true, opts.snapshot ? { path, minRows: 1 } : undefined);
  return { p, feed };
}

/** Everything the projection answers: lexical and vector hits for each query, with scores, and sizes. */
async function answers(p: EmbeddedProjection) {
  const out: unknown[] = [p.state.atoms, await p.vectorIndex.count()];
  for (const q of QUERIES) {
    const lexemes = await ctx.services.searchReads.analyze(q);
    out.push(p.lexical(lexemes, 10, {}), p.lexical(lexemes, 10, { types: ["fact"] }));
    out.push(await p.vectorIndex.search(await ctx.services.embedder.embedQuery(q), 10));
  }
  return out;
}

async function fresh() {
  const { p } = open({ snapshot: false });
  await p.sync();
  return answers(p);
}

describe("index snapshot", () => {
  test("the first catch-up writes a snapshot; a restart reuses it without reading the feed again", async () => {
    for (const claim of CLAIMS) await storeAtom(ctx.services, { type: "fact", claim });
    const first = open({ snapshot: true });
    expect(await first.p.sync()).toBeGreaterThanOrEqual(CLAIMS.length * 2);
    expect(existsSync(path)).toBe(true);

    const again = open({ snapshot: true });
    await again.p.sync();
    // Only the rows of the last transactions at or after the saved mark are read again, not the whole store.
    expect(again.feed.rows).toBeLessThan(first.feed.rows);
    expect(again.p.state.atoms).toBe(first.p.state.atoms);
    expect(await answers(again.p)).toEqual(await fresh());
  });

  test("a stale snapshot is caught up from its mark: answers equal a fresh rebuild", async () => {
    const before = readFileSync(path);
    for (const claim of MORE) await storeAtom(ctx.services, { type: "fact", claim });
    const restarted = open({ snapshot: true });
    await restarted.p.sync();
    expect(restarted.p.state.atoms).toBe(CLAIMS.length + MORE.length);
    expect(restarted.feed.rows).toBeLessThan((CLAIMS.length + MORE.length) * 2);
    expect(await answers(restarted.p)).toEqual(await fresh());
    expect(readFileSync(path).equals(before)).toBe(false); // saved anew with the new mark
  });

  for (const [name, damage] of [
    ["a flipped byte", (f: string) => writeFileSync(f, flip(readFileSync(f), 200))],
    ["a truncated file", (f: string) => truncateSync(f, 100)],
    ["foreign bytes", (f: string) => writeFileSync(f, "not a snapshot at all")],
  ] as const) {
    test(`a snapshot with ${name} is rebuilt from scratch with a warning, then saved anew`, async () => {
      damage(path);
      const warn = spyOn(log, "warn");
      try {
        const { p, feed } = open({ snapshot: true });
        await p.sync();
        expect(warn).toHaveBeenCalledTimes(1);
        expect(String(warn.mock.calls[0][0])).toContain("index snapshot unusable");
        expect(feed.rows).toBeGreaterThanOrEqual((CLAIMS.length + MORE.length) * 2); // everything read again
        expect(await answers(p)).toEqual(await fresh());
      } finally {
        warn.mockRestore();
      }
      const next = open({ snapshot: true });
      await next.p.sync();
      expect(next.feed.rows).toBeLessThan((CLAIMS.length + MORE.length) * 2); // the rewritten snapshot is used
    });
  }

  test("a snapshot of an older format is rebuilt with a warning, then saved anew in this format", async () => {
    const file = readFileSync(path);
    file.writeUInt32LE(SNAPSHOT_FORMAT - 1, 8); // float32 vectors before format 3
    writeFileSync(path, file);
    const warn = spyOn(log, "warn");
    try {
      const { p, feed } = open({ snapshot: true });
      await p.sync();
      expect(warn).toHaveBeenCalledTimes(1);
      expect(String(warn.mock.calls[0][0])).toContain(`format ${SNAPSHOT_FORMAT - 1}`);
      expect(feed.rows).toBeGreaterThanOrEqual((CLAIMS.length + MORE.length) * 2);
      expect(await answers(p)).toEqual(await fresh());
    } finally {
      warn.mockRestore();
    }
    expect(readFileSync(path).readUInt32LE(8)).toBe(SNAPSHOT_FORMAT);
  });

  test("a snapshot of another database is not used", async () => {
    const warn = spyOn(log, "warn");
    try {
      const { p, feed } = open({ snapshot: true, identity: "another-cluster:pegas:17" });
      await p.sync();
      expect(warn).toHaveBeenCalledTimes(1);
      expect(feed.rows).toBeGreaterThanOrEqual((CLAIMS.length + MORE.length) * 2);
      expect(await answers(p)).toEqual(await fresh());
    } finally {
      warn.mockRestore();
    }
  });

  test("the services keep their snapshot in the data dir's cache", () => {
    const { model, dim } = ctx.services.embedder;
    const p = snapshotPath(ctx.config.data_dir, model, dim);
    expect(p.startsWith(join(ctx.config.data_dir, ".cache"))).toBe(true);
    expect(snapshotPath("/d", "org/model:v1", 8)).toBe("/d/.cache/index-org_model_v1-8.snap");
  });
});

function flip(buf: Buffer, at: number): Buffer {
  const b = Buffer.from(buf);
  b[Math.min(at, b.length - 5)] ^= 0xff;
  return b;
}
