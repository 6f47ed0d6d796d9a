/**
 * The compiled executable as users run it under systemd: `serve --http 127.0.0.1:0` with stdin closed (/dev/null
 * would end a stdio server at once), the bound URL read from its "http server listening" log line; the SDK client
 * stores and finds an atom over HTTP, SIGTERM ends it with status 0 promptly and the data survive a restart. And
 * `serve --http 0.0.0.0:…` without PEGAS_HTTP_TOKEN refuses to start.
 */
import { expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { startHttpServer } from "../../bench/lib/http-server-proc.ts";
import { isolatedBinary, isolatedEnv, seededDataDir } from "../support/binary.ts";
import { httpClient } from "./support.ts";

test("serve --http: MCP over HTTP from the executable, stdin closed; SIGTERM exits 0 quickly; data kept", async () => {
  const { dir, bin } = await isolatedBinary();
  await seededDataDir(join(dir, "data", "pegas-memory")); // the default data dir, created and migrated
  const cmd = { argv: [bin], env: isolatedEnv(dir), cwd: dir };
  try {
    const srv = await startHttpServer(cmd, []);
    expect(srv.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(await (await fetch(`${srv.url}/healthz`)).json()).toEqual({ status: "ok" });
    const { client } = await httpClient(srv.url);
    const stored = await client.callTool({
      name: "memory_store",
      arguments: { type: "fact", claim: "Пегас отвечает по HTTP, когда stdin закрыт" },
    });
    expect(stored.isError).toBeFalsy();
    const id = (stored.structuredContent as { atom_id: number }).atom_id;
    const found = await client.callTool({ name: "memory_search", arguments: { query: "отвечает по HTTP" } });
    expect((found.structuredContent as { hits: Array<{ atom_id: number }> }).hits[0]?.atom_id).toBe(id);
    expect((await fetch(`${srv.url}/readyz`)).status).toBe(200);
    const t0 = performance.now();
    const code = await srv.stop();
    const ms = performance.now() - t0;
    console.warn(`serve --http: SIGTERM → exit ${code} in ${Math.round(ms)} ms`);
    expect(code).toBe(0);
    expect(srv.stderrTail()).not.toContain('"level":"error"');

    const again = await startHttpServer(cmd, []);
    const c2 = await httpClient(again.url);
    const r = await c2.client.callTool({ name: "memory_get", arguments: { atom_id: id } });
    expect(JSON.stringify(r.structuredContent)).toContain("Пегас отвечает по HTTP");
    expect(await again.stop()).toBe(0);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}, 180_000);

test("serve --http 0.0.0.0 without PEGAS_HTTP_TOKEN refuses to start (exit 65, the message names it)", async () => {
  const { dir, bin } = await isolatedBinary();
  try {
    const p = Bun.spawn([bin, "serve", "--http", "0.0.0.0:0"], {
      cwd: dir,
      env: isolatedEnv(dir),
      stdin: "ignore",
      stdout: "pipe",
      stderr: "pipe",
    });
    const code = await p.exited;
    const err = await new Response(p.stderr).text();
    expect(code).toBe(65);
    expect(err).toContain("INVALID_INPUT");
    expect(err).toContain("PEGAS_HTTP_TOKEN");
    expect(await new Response(p.stdout).text()).toBe("");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}, 120_000);
