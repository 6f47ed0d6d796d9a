/**
 * memory_ingest as a background job over MCP (in-memory SDK client, embedded database): `background: true` answers at
 * once with a running job; `{job}` answers its state and, once done, the same result a direct call gives; an unknown
 * id, a job mixed with a source, and a path that does not exist or lies outside the roots are refused as tool errors.
 */
import { describe, expect, test } from "bun:test";
import { suiteMcpClient, toolCalls } from "../support/mcp-client.ts";
import { fixture, suiteServices } from "../support/services.ts";

const t = suiteServices("pglite", { ingest_roots: [fixture("")] });
const mcp = suiteMcpClient(t);
const { call, ok, text } = toolCalls(mcp, 120_000);

describe("memory_ingest background jobs", () => {
  test("a job starts at once, can be followed, and its result is the ingest's", async () => {
    const started = await ok("memory_ingest", { path: fixture("html"), background: true });
    expect(started.job.state).toBe("running");
    expect(started.documents_total).toBe(0);
    const id = started.job.id as string;
    let state = started.job;
    let out = started;
    for (let i = 0; i < 600 && state.state === "running"; i++) {
      await Bun.sleep(100);
      out = await ok("memory_ingest", { job: id });
      state = out.job;
    }
    expect(state).toMatchObject({ id, state: "done" });
    expect(state.finished_at).toBeString();
    expect(out.documents_total).toBeGreaterThan(1);
    expect(out.atoms_created).toBeGreaterThan(0);
    const again = await call("memory_ingest", { job: id });
    expect(text(again)).toContain(`Job ${id} done`);
    // The same directory again: every file is unchanged (what a resumed job skips).
    const direct = await ok("memory_ingest", { path: fixture("html") });
    expect(direct.documents_total).toBe(out.documents_total);
    expect(direct.unchanged).toBe(true);
  }, 120_000);

  test("an unknown job and a job given with a source are tool errors", async () => {
    const unknown = await call("memory_ingest", { job: "job-nope" });
    expect(unknown.isError).toBe(true);
    expect(text(unknown)).toContain("NOT_FOUND");
    const mixed = await call("memory_ingest", { job: "job-nope", text: "Some text." });
    expect(mixed.isError).toBe(true);
    expect(text(mixed)).toContain("job goes alone");
  });

  test("a path that no ingest could read is refused by the call that would start the job", async () => {
    const missing = await call("memory_ingest", { path: fixture("html/no-such-page.html"), background: true });
    expect(missing.isError).toBe(true);
    expect(text(missing)).toContain("NOT_FOUND");
    const outside = await call("memory_ingest", { path: "/etc/hostname", background: true });
    expect(outside.isError).toBe(true);
    expect(text(outside)).toContain("outside the ingest roots");
  });
});
