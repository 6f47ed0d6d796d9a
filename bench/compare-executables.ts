/**
 * `bun bench/compare-executables.ts <base-executable> <head-executable> [rounds]`: the same commands run by two
 * builds of pegas-memory, alternating (base, head, then head, base …) so that whatever else the machine does weighs
 * on both alike; prints the median of each figure per build and head ÷ base as JSON. For "did this change slow
 * anything down" between two commits on one machine (build each with `npm run build` and copy dist/pegas-memory
 * aside), where the committed bench/results come from another machine or another day.
 *
 * Figures (ms, wall time from spawn): `--version`; spawn → `initialize` answered over stdio on an existing data dir;
 * the first `search` on a fresh data dir (initdb and migrations included); a `search` on a data dir holding «Палата
 * № 6»; ingest of Botchan (≈ 420 KB of text) into a just-created data dir. Each build reads and writes only its own
 * data dirs, in a temporary HOME removed at the end.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { TEXTS } from "./lib/env.ts";
import { median, round } from "./lib/stats.ts";

const [baseBin, headBin, roundsArg] = process.argv.slice(2);
if (!baseBin || !headBin) {
  process.stderr.write("usage: bun bench/compare-executables.ts <base-executable> <head-executable> [rounds]\n");
  process.exit(64);
}
const BINS: Record<string, string> = { base: baseBin, head: headBin };
const ROUNDS = Number(roundsArg ?? 7);
const QUERY = "больничная палата";

function env(home: string): Record<string, string> {
  return { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: home, XDG_CONFIG_HOME: join(home, "cfg") };
}

/** Runs one command to its end; its wall time in ms. @throws Error with its stderr when it fails. */
async function timed(bin: string, args: string[], home: string): Promise<number> {
  const t0 = performance.now();
  const p = Bun.spawn([bin, ...args], { env: env(home), stdout: "ignore", stderr: "pipe" });
  const code = await p.exited;
  if (code !== 0) throw new Error(`${bin} ${args.join(" ")} exited ${code}: ${await new Response(p.stderr).text()}`);
  return performance.now() - t0;
}

/** Spawn → the `initialize` response's first bytes on stdout, in ms. */
async function initialize(bin: string, home: string, dataDir: string): Promise<number> {
  const t0 = performance.now();
  const p = Bun.spawn([bin, "--data-dir", dataDir, "serve"], {
    env: env(home),
    stdin: "pipe",
    stdout: "pipe",
    stderr: "ignore",
  });
  const params = { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "compare", version: "1" } };
  p.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params })}\n`);
  await p.stdin.flush();
  const { value } = await p.stdout.getReader().read();
  const ms = performance.now() - t0;
  p.stdin.end();
  await p.exited;
  if (!value || !new TextDecoder().decode(value).includes('"result"')) throw new Error(`${bin}: no initialize result`);
  return ms;
}

const home = mkdtempSync(join(tmpdir(), "pegas-compare-"));
try {
  const samples: Record<string, Record<string, number[]>> = { base: {}, head: {} };
  const add = (side: string, figure: string, ms: number) => (samples[side][figure] ??= []).push(ms);
  const existing: Record<string, string> = {};
  for (const side of ["base", "head"]) {
    existing[side] = join(home, `existing-${side}`);
    await timed(BINS[side], ["--data-dir", existing[side], "ingest", TEXTS.chekhov], home);
  }
  for (let i = 0; i < ROUNDS; i++) {
    for (const side of i % 2 ? ["head", "base"] : ["base", "head"]) {
      const bin = BINS[side];
      const fresh = join(home, `fresh-${side}-${i}`);
      add(side, "version_ms", await timed(bin, ["--version"], home));
      add(side, "initialize_ms", await initialize(bin, home, existing[side]));
      add(side, "first_query_fresh_ms", await timed(bin, ["--data-dir", fresh, "search", QUERY], home));
      add(side, "search_existing_ms", await timed(bin, ["--data-dir", existing[side], "search", QUERY], home));
      add(side, "ingest_botchan_ms", await timed(bin, ["--data-dir", fresh, "ingest", TEXTS.botchan], home));
      rmSync(fresh, { recursive: true, force: true });
    }
  }
  const figures: Record<string, { base: number; head: number; ratio: number }> = {};
  for (const figure of Object.keys(samples.base)) {
    const base = median(samples.base[figure]);
    const head = median(samples.head[figure]);
    figures[figure] = { base: round(base, 1), head: round(head, 1), ratio: round(head / base, 2) };
  }
  console.log(JSON.stringify({ rounds: ROUNDS, base: baseBin, head: headBin, figures }, null, 2));
} finally {
  rmSync(home, { recursive: true, force: true });
}
