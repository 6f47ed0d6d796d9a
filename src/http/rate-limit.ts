/**
 * The rate limit of tool calls over HTTP (MCP spec 2025-06-18 and 2025-11-25, Server Features › Tools › Security
 * Considerations: servers MUST rate limit tool invocations): one token bucket per MCP session (Turner's token bucket,
 * as in RFC 2697's single-rate meter): it holds at most `burst` tokens, refills at `perSecond` tokens per second,
 * and each `tools/call` takes one; an empty bucket answers HTTP 429 with `Retry-After` (whole seconds) and a JSON-RPC
 * error. Other methods (initialize, tools/list, ping, notifications) are not counted.
 */
import { countRefused } from "./metrics.ts";
import { rpcError } from "./rpc.ts";

/** A rate: `perSecond` tokens per second (0 = unlimited) and at most `burst` at once (≥ 1). */
export interface RateLimit {
  perSecond: number;
  burst: number;
}

/** One client's token bucket; time in ms from `now` (Date.now() by default, a parameter for tests). */
export class TokenBucket {
  private tokens: number;
  private at: number;

  constructor(
    private readonly rate: RateLimit,
    now = Date.now(),
  ) {
    this.tokens = rate.burst;
    this.at = now;
  }

  /**
   * Takes one token: 0 when one was there (the call may go), else the seconds until one will be (> 0, fractional).
   * An unlimited rate (perSecond 0) always answers 0.
   */
  take(now = Date.now()): number {
    const { perSecond, burst } = this.rate;
    if (perSecond <= 0) return 0;
    this.tokens = Math.min(burst, this.tokens + (Math.max(0, now - this.at) / 1000) * perSecond);
    this.at = now;
    if (this.tokens >= 1) {
      this.tokens -= 1;
      return 0;
    }
    return (1 - this.tokens) / perSecond;
  }
}

/**
 * The 429 answer of a tool call refused by its session's bucket: `Retry-After` in whole seconds (at least 1, RFC 9110
 * §10.2.3), and a JSON-RPC error carrying the request's id so that the client can match it to its call.
 */
export function rateLimited(waitS: number, rate: RateLimit, id: string | number | null): Response {
  countRefused("rate_limit");
  const retry = Math.max(1, Math.ceil(waitS));
  return rpcError(
    429,
    -32000,
    `Too Many Requests: this session made more than ${rate.burst} tool calls at once or more than ${rate.perSecond} ` +
      `per second (http_rate_limit, http_rate_burst); retry after ${retry} s`,
    { "retry-after": String(retry) },
    id,
  );
}
