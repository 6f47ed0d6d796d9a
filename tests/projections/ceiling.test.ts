/**
 * The in-process indexes' ceiling (issue 23, item 3): a catch-up that leaves more atoms than the ceiling logs one
 * warning naming the set-up for a store that large, once per process; under the ceiling, or with no advice (vectors
 * only in Qdrant), nothing. Also the advice the wiring gives each back-end.
 */
import { describe, expect, spyOn, test } from "bun:test";
import { EMBEDDED_ATOM_CEILING, EmbeddedProjection } from "../../src/adapters/embedded/projection.ts";
import { storeAtom } from "../../src/core/knowledge/store-atom.ts";
import { log } from "../../src/log.ts";
import { ceilingAdvice } from "../../src/wiring/services.ts";
import { testConfig } from "../support/services.ts";
import { suiteServices } from "../support/services.ts";

const ctx = suiteServices("pglite", {}, { outboxReader: false });

const open = (atoms?: number) =>
  new EmbeddedProjection(
    ctx.services.changeFeed,
    ctx.services.embedder.model,
    ctx.services.embedder.dim,
    true,
    undefined,
    atoms === undefined ? undefined : { atoms, hint: "run PostgreSQL with Qdrant" },
  );

describe("the in-process indexes' ceiling", () => {
  test("past the ceiling one warning names the set-up; under it or without advice, none", async () => {
    for (const claim of ["Палата номер шесть стоит во дворе больницы.", "The postmaster talks about the old days."])
      await storeAtom(ctx.services, { type: "fact", claim });
    const warn = spyOn(log, "warn");
    try {
      const under = open(2);
      await under.sync();
      expect(warn).not.toHaveBeenCalled();
      await storeAtom(ctx.services, { type: "fact", claim: "Ragin reads books in the evening." });
      const none = open();
      await none.sync();
      expect(warn).not.toHaveBeenCalled();

      await under.sync();
      expect(warn).toHaveBeenCalledTimes(1);
      const [message, fields] = warn.mock.calls[0] as [string, Record<string, unknown>];
      expect(message).toContain("holds 3 atoms, past the 2");
      expect(message).toContain("run PostgreSQL with Qdrant");
      expect(fields).toEqual({ atoms: 3, ceiling: 2 });
      await storeAtom(ctx.services, { type: "fact", claim: "Громов живёт в палате номер шесть." });
      await under.sync();
      expect(warn).toHaveBeenCalledTimes(1);
    } finally {
      warn.mockRestore();
    }
  });

  test("the advice per back-end: PostgreSQL with Qdrant for the embedded store, Qdrant for in-process vectors", () => {
    expect(EMBEDDED_ATOM_CEILING).toBe(150_000);
    expect(ceilingAdvice("pglite", testConfig({}))?.hint).toContain("run PostgreSQL (database_url) with Qdrant");
    expect(ceilingAdvice("postgres", testConfig({}))?.hint).toContain("move the vectors to Qdrant");
    const external = testConfig({ qdrant_url: "http://127.0.0.1:6333", embedded_vectors: false });
    expect(ceilingAdvice("postgres", external)).toBeUndefined();
  });
});
