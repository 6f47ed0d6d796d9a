/**
 * The CLI commands `get`, `link`, `forget` and `context` (src/cli/recall-commands.ts) on a temporary PostgreSQL
 * database: what they print, their JSON, and their refusals.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Cli } from "../../src/cli/args.ts";
import { runContext, runForget, runGet, runLink } from "../../src/cli/recall-commands.ts";
import { storeAtom } from "../../src/core/knowledge/store-atom.ts";
import { createServices } from "../../src/wiring/services.ts";
import { createTempPgDatabase, pgSkipReason, type TempDb } from "../support/pg.ts";
import { capture } from "../support/capture.ts";
import { testConfig } from "../support/services.ts";

let skip: string | null = null;
let db: TempDb | undefined;
beforeAll(async () => {
  skip = await pgSkipReason();
  if (skip) return;
  const t = await createTempPgDatabase("pegas_recall_cli");
  if (typeof t === "string") skip = t;
  else db = t;
});
afterAll(async () => {
  await db?.drop();
});

const cli = (command: string, positionals: string[], values: Cli["values"] = {}): Cli => ({
  command,
  positionals,
  values,
  flags: {},
});

describe("recall CLI", () => {
  test("link, get, context, forget and undo", async () => {
    if (skip) return console.warn(`skipped: ${skip}`);
    const config = testConfig({ database_url: db!.url, log_level: "warn" });
    const s = await createServices(config);
    let a: number;
    let b: number;
    let c: number;
    try {
      c = (await storeAtom(s, { type: "fact", claim: "Сергей Королёв учился в Одессе." })).atom_id;
      a = (await storeAtom(s, { type: "fact", claim: "Обсерватория Пулково основана в 1839 году." })).atom_id;
      b = (await storeAtom(s, { type: "fact", claim: "Пулковский меридиан служил нулевым для русских карт." })).atom_id;
    } finally {
      await s.close();
    }
    const linked = await capture(() =>
      runLink(config, cli("link", [String(b), `atom:${a}`], { kind: ["related"], confidence: "0.7" })),
    );
    expect(linked.out).toMatch(
      new RegExp(`^linked: atom:${b} -related-> atom:${a} \\(pm_atom_link:\\d+, agent, confidence 0\\.70\\)\n$`),
    );
    const again = JSON.parse(
      (await capture(() => runLink(config, cli("link", [String(b), String(a)], { kind: ["related"], json: true }))))
        .out,
    );
    expect(again).toMatchObject({ created: false, table: "pm_atom_link", confidence: expect.closeTo(0.8, 5) });

    const got = await capture(() => runGet(config, cli("get", [`atom:${a}`])));
    expect(got.out).toContain(`atom ${a} (fact, candidate`);
    expect(got.out).toContain("claim: Обсерватория Пулково основана в 1839 году.");
    expect(got.out).toContain(`← related atom ${b} (candidate, agent): Пулковский меридиан`);

    const ctx = await capture(() =>
      runContext(config, cli("context", ["когда", "основана", "обсерватория", "Пулково?"], { budget: "300" })),
    );
    expect(ctx.out).toStartWith("- Обсерватория Пулково основана в 1839 году.");
    expect(ctx.out).toContain(`atom ${a}`);
    expect(ctx.err).toMatch(/^\d+ of 300 tokens \(o200k_base/);

    const gone = await capture(() => runForget(config, cli("forget", [], { atom: String(a), reason: "проверка" })));
    expect(gone.out).toBe("retracted 1 atom(s); 1 link(s) withdrawn from the projections\n");
    const tomb = await capture(() => runGet(config, cli("get", [String(a)], { json: true })));
    expect(JSON.parse(tomb.out).atom.status).toBe("retracted");
    const back = await capture(() =>
      runForget(config, cli("forget", [], { atom: String(a), reason: "вернуть", undo: true })),
    );
    expect(back.out).toBe("restored 1 atom(s); 1 link(s) restored to the projections\n");
    const entity = await capture(() =>
      runForget(config, cli("forget", [], { entity: "Сергея Королёва", reason: "по просьбе", json: true })),
    );
    expect(JSON.parse(entity.out)).toMatchObject({ entity: { name: "Сергей Королев" }, documents: [] });
    expect(JSON.parse(entity.out).changes.map((x: { atom_id: number }) => x.atom_id)).toEqual([c]);

    await expect(runGet(config, cli("get", []))).rejects.toMatchObject({ code: "INVALID_INPUT" });
    await expect(runLink(config, cli("link", ["1", "2"]))).rejects.toMatchObject({ code: "INVALID_INPUT" });
    await expect(
      runLink(config, cli("link", [String(a), String(b)], { kind: ["related"], confidence: "abc" })),
    ).rejects.toMatchObject({ code: "INVALID_INPUT", message: expect.stringContaining("'abc'") });
    await expect(runForget(config, cli("forget", [], { atom: String(a) }))).rejects.toMatchObject({
      code: "INVALID_INPUT",
    });
    await expect(runContext(config, cli("context", []))).rejects.toMatchObject({ code: "INVALID_INPUT" });

    // --remove deletes the agent's link made above; a second removal finds nothing; --confidence is refused with it.
    await expect(
      runLink(config, cli("link", [String(b), String(a)], { kind: ["related"], remove: true, confidence: "0.5" })),
    ).rejects.toMatchObject({ code: "INVALID_INPUT" });
    const removed = await capture(() =>
      runLink(config, cli("link", [String(b), String(a)], { kind: ["related"], remove: true })),
    );
    expect(removed.out).toMatch(
      new RegExp(
        `^removed: atom:${b} -related-> atom:${a} \\(pm_atom_link:\\d+, agent\\); inferred edges retracted 0, kept by another justification 0\n$`,
      ),
    );
    await expect(
      runLink(config, cli("link", [String(b), String(a)], { kind: ["related"], remove: true })),
    ).rejects.toMatchObject({ code: "NOT_FOUND" });
  }, 60_000);
});
