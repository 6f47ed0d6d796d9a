/**
 * 1,000 seeded random `tools/call` requests (bench/lib/fuzz-calls.ts: real and unknown tool names, arguments from
 * the listed schemas then broken, Russian, emoji and huge strings, wrong types, non-object arguments) against every
 * tool over an in-memory client on the embedded database: no crash (no JSON-RPC error but -32602, no INTERNAL or
 * uncoded `isError`), no hang (a 20 s timeout per call) and no structured content outside its listed output schema;
 * the server still answers afterwards. The same run with 3,000 calls (the first 1,000 are these) is the fuzz_calls
 * benchmark (bench/benchmarks/fuzz.ts), whose result file records its counts.
 */
import { describe, expect, test } from "bun:test";
import { fuzzToolCalls } from "../../bench/lib/fuzz-calls.ts";
import { suiteMcpClient } from "../support/mcp-client.ts";
import { suiteServices } from "../support/services.ts";

const CALLS = 1000;
const SEED = 21;

const t = suiteServices("pglite");
const mcp = suiteMcpClient(t);

describe("fuzzed tools/call", () => {
  test(`${CALLS} calls: 0 crashes, 0 hangs, 0 output-schema violations`, async () => {
    const report = await fuzzToolCalls(mcp.client, { calls: CALLS, seed: SEED, timeoutMs: 20_000 });
    console.error(
      `fuzz: ${report.calls} calls in ${report.ms} ms: ${report.ok} ok, ${report.refused} refused, ` +
        `${report.invalidParams} -32602`,
      report.perTool,
    );
    expect({ crashes: report.crashes, hangs: report.hangs, schemaViolations: report.schemaViolations }).toEqual({
      crashes: [],
      hangs: [],
      schemaViolations: [],
    });
    // Most calls reach a tool and most answers are refusals or results, not protocol errors.
    expect(report.ok + report.refused + report.invalidParams).toBe(CALLS);
    expect(report.ok).toBeGreaterThan(CALLS / 10);
    expect(report.refused).toBeGreaterThan(CALLS / 10);
    const after = await mcp.client.callTool({ name: "memory_stats", arguments: {} });
    expect(after.isError).toBeFalsy();
  }, 120_000);
});
