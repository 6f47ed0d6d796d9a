/**
 * A seeded fuzz run of `tools/call` against a connected MCP client: tool names real and not, arguments built from
 * each tool's listed input schema and then broken (wrong types, missing and unknown fields, non-object arguments),
 * strings in Russian, with emoji, control characters, lone surrogates and up to 64 KiB. Every call is classified:
 * - a result: an `isError` result is fine when its text starts with a stable error code other than INTERNAL; a
 *   success must carry structured content valid against the tool's listed output schema (checked with Ajv here,
 *   independently of the server's own check);
 * - a JSON-RPC error: -32602 (Invalid params) is fine; any other code is a crash, a timeout is a hang.
 * The same seed gives the same calls (mulberry32); several calls are in flight at once, as agents send them.
 * Used by the fuzz test (tests/core/fuzz-calls.test.ts).
 */
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { CallToolResultSchema, ErrorCode, McpError, type Tool } from "@modelcontextprotocol/sdk/types.js";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import { mulberry32 } from "../../tests/support/prng.ts";

/** One call that went wrong: what was sent, and what came back. */
export interface FuzzFailure {
  call: number;
  tool: string;
  /** The arguments sent, as JSON cut to 300 characters. */
  args: string;
  detail: string;
}

/** What a fuzz run found. */
export interface FuzzReport {
  calls: number;
  /** Successful results whose structured content matched the output schema. */
  ok: number;
  /** `isError` results with a stable, non-INTERNAL code (the tool refused the input). */
  refused: number;
  /** JSON-RPC -32602 errors (malformed params, unknown tool). */
  invalidParams: number;
  crashes: FuzzFailure[];
  hangs: FuzzFailure[];
  schemaViolations: FuzzFailure[];
  /** Calls per tool name sent (unknown names under "(unknown)") and the milliseconds they took, summed. */
  perTool: Record<string, { calls: number; ms: number }>;
  ms: number;
}

/** Options of {@link fuzzToolCalls}. */
export interface FuzzOptions {
  calls: number;
  seed: number;
  /** Per-call timeout (ms): a call that does not answer within it is a hang. */
  timeoutMs: number;
  /** Calls in flight at once. */
  concurrency?: number;
}

/** The error codes an `isError` text may start with (src/errors.ts) but INTERNAL, which is a crash. */
const REFUSAL_CODES =
  /^(NOT_FOUND|INVALID_INPUT|UNSUPPORTED_MEDIA|STORE_UNAVAILABLE|INDEX_UNAVAILABLE|LLM_FAILED|NETWORK_FAILED|MIGRATION_REQUIRED|LIMIT_EXCEEDED|CANCELLED): /;

type Rand = () => number;
type Json = Record<string, unknown>;

const pick = <T>(r: Rand, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
const int = (r: Rand, lo: number, hi: number): number => lo + Math.floor(r() * (hi - lo + 1));

const WORDS = ["палата", "больница", "Рагин", "Громов", "насос", "река", "pump", "river", "Ёжик", "тумане", "flood"];
const ODD = [
  "",
  " ",
  "🙂🚀🦔",
  "👩‍👩‍👧‍👦".repeat(50),
  "\u0000\u0001\u001f",
  "\ud800",
  "שלום עולם",
  "'; DROP TABLE pm_atom; --",
  "%s%n%x",
  "$" + "{process.exit()}", // a template placeholder, sent as text
  "atom:12",
  "symbol:1",
  "doc:999999",
  "../../etc/passwd",
  "/etc/passwd",
  "/nonexistent/файл.txt",
  "http://127.0.0.1:1/",
  "http://[::1]:1/x",
  "ftp://example.invalid/",
  "file:///etc/passwd",
  "NaN",
  "-1",
];

/** A random string: Russian and English words, odd Unicode, injection-looking text, or a huge one (≤ 64 KiB). */
function str(r: Rand): string {
  const k = r();
  if (k < 0.4) return Array.from({ length: int(r, 1, 8) }, () => pick(r, WORDS)).join(" ");
  if (k < 0.8) return pick(r, ODD);
  if (k < 0.9) return `${pick(r, WORDS)} ${pick(r, ODD)} ${pick(r, WORDS)}`;
  return `${pick(r, WORDS)} ${pick(r, ["я", "a", "🙂", "ж "])}`.repeat(int(r, 100, 8000)).slice(0, 64 * 1024);
}

/** A value of no particular type, for a field that should get another. */
function wrong(r: Rand): unknown {
  return pick(r, [null, true, false, 0, -1, 1.5, 2 ** 53 + 2, -(2 ** 31), "12", "", [], [1, "x"], {}, { a: 1 }])!;
}

/** A value for a JSON Schema node: valid most of the time, else of a wrong type or out of range. */
function valueFor(r: Rand, schema: Json | undefined, depth = 0): unknown {
  if (!schema || depth > 3 || r() < 0.12) return wrong(r);
  if (Array.isArray(schema.enum)) return r() < 0.85 ? pick(r, schema.enum) : str(r);
  if (Array.isArray(schema.anyOf)) return valueFor(r, pick(r, schema.anyOf as Json[]), depth + 1);
  switch (schema.type) {
    case "string":
      return str(r);
    case "integer":
      return pick(r, [1, 1, 2, 3, 5, 10, 50, 0, -3, 1000, 2 ** 31, int(r, 1, 200)]);
    case "number":
      return pick(r, [0, 0.5, 1, -0.1, 1.5, 1e308, r()]);
    case "boolean":
      return r() < 0.5;
    case "array":
      return Array.from({ length: int(r, 0, 4) }, () => valueFor(r, schema.items as Json, depth + 1));
    case "object": {
      const props = (schema.properties ?? {}) as Record<string, Json>;
      const out: Json = {};
      for (const [k, v] of Object.entries(props)) if (r() < 0.6) out[k] = valueFor(r, v, depth + 1);
      return out;
    }
    default:
      return wrong(r);
  }
}

/** Arguments for `tool`: its required fields and some optional ones, then a mutation now and then. */
function argumentsFor(r: Rand, tool: Tool): unknown {
  const k = r();
  if (k < 0.06) return pick(r, [[], [1, 2], "query", 42, null, true]);
  const props = (tool.inputSchema.properties ?? {}) as Record<string, Json>;
  const required = new Set(tool.inputSchema.required ?? []);
  const args: Json = {};
  for (const [name, schema] of Object.entries(props)) {
    if (required.has(name) ? r() < 0.93 : r() < 0.35) args[name] = valueFor(r, schema);
  }
  if (k < 0.16) args[pick(r, ["limit", "top_k", "q", "atomId", "формат", "🙂", "__proto__", "constructor"])] = 1;
  return args;
}

const UNKNOWN_TOOLS = ["memory_serch", "memory", "", "memory_search ", "ПОИСК", "🙂", "tools/list", "x".repeat(300)];

/**
 * Sends `opts.calls` seeded random `tools/call` requests through `client` (tools as `tools/list` gives them) and
 * classifies each answer (see the module comment). Never throws for a call's outcome; the report says it all.
 */
export async function fuzzToolCalls(client: Client, opts: FuzzOptions): Promise<FuzzReport> {
  const started = performance.now();
  const { tools } = await client.listTools();
  const validator = new AjvJsonSchemaValidator();
  const outputs: Outputs = new Map(
    tools.filter((t) => t.outputSchema).map((t) => [t.name, validator.getValidator(t.outputSchema as never)]),
  );
  const r = mulberry32(opts.seed);
  const planned: Planned[] = Array.from({ length: opts.calls }, (_, call) => {
    const tool = r() < 0.04 ? null : pick(r, tools);
    return {
      call,
      name: tool ? tool.name : pick(r, UNKNOWN_TOOLS),
      args: tool ? argumentsFor(r, tool) : { query: str(r) },
    };
  });
  const report: FuzzReport = {
    calls: opts.calls,
    ...{ ok: 0, refused: 0, invalidParams: 0, ms: 0 },
    ...{ crashes: [], hangs: [], schemaViolations: [], perTool: {} },
  };
  const known = new Set(tools.map((t) => t.name));
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < planned.length; i = next++) {
      const p = planned[i]!;
      const stat = (report.perTool[known.has(p.name) ? p.name : "(unknown)"] ??= { calls: 0, ms: 0 });
      const t0 = performance.now();
      await sendOne(client, p, known.has(p.name), outputs, opts.timeoutMs, report);
      stat.calls++;
      stat.ms += Math.round(performance.now() - t0);
    }
  };
  await Promise.all(Array.from({ length: opts.concurrency ?? 4 }, worker));
  report.ms = Math.round(performance.now() - started);
  return report;
}

/** One planned call: its index in the run, the tool name and the arguments (of any JSON type). */
interface Planned {
  call: number;
  name: string;
  args: unknown;
}

/** The listed output schemas' validators by tool name. */
type Outputs = Map<string, ReturnType<AjvJsonSchemaValidator["getValidator"]>>;

/** Sends one planned call and counts its outcome in `report` (see the module comment). */
async function sendOne(
  client: Client,
  p: Planned,
  knownTool: boolean,
  outputs: Outputs,
  timeoutMs: number,
  report: FuzzReport,
): Promise<void> {
  const failure = (detail: string): FuzzFailure => ({
    call: p.call,
    tool: p.name.slice(0, 60),
    args: (JSON.stringify(p.args) ?? String(p.args)).slice(0, 300),
    detail: detail.slice(0, 500),
  });
  try {
    const res = await client.request(
      { method: "tools/call", params: { name: p.name, arguments: p.args as Json } },
      CallToolResultSchema,
      { timeout: timeoutMs },
    );
    const text = (res.content as Array<{ type: string; text?: string }>).find((c) => c.type === "text")?.text ?? "";
    if (res.isError) {
      if (REFUSAL_CODES.test(text)) report.refused++;
      else report.crashes.push(failure(`isError without a stable code: ${text}`));
      return;
    }
    const check = outputs.get(p.name)?.(res.structuredContent);
    if (!check || check.valid) report.ok++;
    else report.schemaViolations.push(failure(check.errorMessage ?? "invalid structured content"));
  } catch (err) {
    const code = err instanceof McpError ? err.code : undefined;
    // -32602 is the answer to malformed params and unknown tools only: object arguments to a known tool are the
    // tool's to refuse as an isError result.
    const wellFormed = knownTool && p.args !== null && typeof p.args === "object" && !Array.isArray(p.args);
    if (code === ErrorCode.InvalidParams && !wellFormed) report.invalidParams++;
    else if (code === ErrorCode.RequestTimeout) report.hangs.push(failure(String(err)));
    else report.crashes.push(failure(String(err)));
  }
}
