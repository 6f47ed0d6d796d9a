/**
 * fuzz_calls (issue 21, item 5): 3,000 seeded random `tools/call` requests (bench/lib/fuzz-calls.ts: real and unknown
 * tool names, arguments from the listed schemas then broken, Russian, emoji and huge strings, wrong types,
 * non-object arguments) through an in-memory MCP client against every tool on a fresh embedded store, four in
 * flight. Counts crashes (a JSON-RPC error but -32602, an INTERNAL or uncoded `isError`), hangs (no answer within
 * 30 s) and output-schema violations (structured content checked against the listed output schema); the first few
 * of each are kept in the result file. tests/core/fuzz-calls.test.ts asserts the same on fewer calls.
 */
import { connectRegistry } from "../lib/mcp-inproc.ts";
import { fuzzToolCalls } from "../lib/fuzz-calls.ts";
import { pgliteServices } from "../lib/env.ts";
import type { Benchmark, BenchOutcome } from "../lib/report.ts";

const CALLS = 3000;
const SEED = 21;
const TIMEOUT_MS = 30_000;
const CONCURRENCY = 4;
/** Failures of each kind kept in the result file. */
const KEPT = 5;

/** The fuzz benchmark (see module doc). */
export const fuzzBench: Benchmark = {
  name: "fuzz_calls",
  description: `${CALLS} fuzzed tools/call requests against every tool: crashes, hangs, output-schema violations`,
  async run(): Promise<BenchOutcome> {
    const s = await pgliteServices();
    const { client, close } = await connectRegistry(s.services);
    try {
      const r = await fuzzToolCalls(client, {
        calls: CALLS,
        seed: SEED,
        timeoutMs: TIMEOUT_MS,
        concurrency: CONCURRENCY,
      });
      return {
        params: { calls: CALLS, seed: SEED, timeout_ms: TIMEOUT_MS, concurrency: CONCURRENCY, backend: "pglite" },
        results: {
          ms: r.ms,
          ok: r.ok,
          refused: r.refused,
          invalid_params: r.invalidParams,
          crashes: r.crashes.length,
          hangs: r.hangs.length,
          schema_violations: r.schemaViolations.length,
          first_crashes: r.crashes.slice(0, KEPT),
          first_hangs: r.hangs.slice(0, KEPT),
          first_schema_violations: r.schemaViolations.slice(0, KEPT),
          per_tool: r.perTool,
        },
        summary: [
          { metric: "fuzzed calls", value: r.calls, target: "3,000" },
          { metric: "crashes", value: r.crashes.length, target: "0" },
          { metric: "hangs", value: r.hangs.length, target: "0" },
          { metric: "output-schema violations", value: r.schemaViolations.length, target: "0" },
          { metric: "calls answered ok / refused / -32602", value: `${r.ok} / ${r.refused} / ${r.invalidParams}` },
        ],
      };
    } finally {
      await close();
      await s.dispose();
    }
  },
};
