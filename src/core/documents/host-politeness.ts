/**
 * Politeness of a crawl over several hosts (the URL refresh): robots.txt is read once per origin through the same
 * Fetcher as the pages (so the same proxy and address rules apply), and requests to one host are spaced by an
 * interval, a longer Crawl-delay winning. RFC 9309 §2.3.1: a robots.txt that answers 4xx allows everything; one
 * that cannot be reached (5xx, network failure, timeout) disallows everything for this run.
 */
import { ALLOW_ALL, DISALLOW_ALL, parseRobots, type RobotsRules, robotsAllow } from "../../domain/robots.ts";
import { PegasError, toPegasError } from "../../errors.ts";
import type { Fetcher } from "../../ports/models/fetcher.ts";
import { MAX_CRAWL_DELAY_MS } from "./freshness-policy.ts";

/** Options of {@link HostPoliteness}. */
export interface PolitenessOptions {
  /** Robots product token matched against User-agent lines, e.g. "pegas-memory". */
  agent: string;
  /** Least time between two requests to one host (ms). */
  intervalMs: number;
  signal?: AbortSignal;
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new PegasError("CANCELLED", "refresh cancelled"));
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(new PegasError("CANCELLED", "refresh cancelled"));
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/** Robots rules and request spacing per host, for one run. */
export class HostPoliteness {
  private readonly robots = new Map<string, RobotsRules>();
  private readonly nextAt = new Map<string, number>();
  /** Why an origin's robots.txt could not be read (the fetch error's message), by origin. */
  private readonly unreadable = new Map<string, string>();

  constructor(
    private readonly fetcher: Fetcher,
    private readonly opts: PolitenessOptions,
  ) {}

  /** Waits for the host's next slot and takes it. @throws PegasError CANCELLED. */
  async pace(url: URL): Promise<void> {
    const wait = (this.nextAt.get(url.host) ?? 0) - Date.now();
    if (wait > 0) await sleep(wait, this.opts.signal);
    this.nextAt.set(url.host, Date.now() + this.interval(this.robots.get(url.origin)));
  }

  /** The spacing of requests under `rules`: the configured interval, or the Crawl-delay when longer (bounded). */
  private interval(rules?: RobotsRules): number {
    return Math.max(this.opts.intervalMs, Math.min(MAX_CRAWL_DELAY_MS, (rules?.crawlDelayS ?? 0) * 1000));
  }

  /**
   * Whether robots.txt of the URL's origin lets us fetch it (read, paced, on the first URL of each origin):
   * `unreachable` when robots.txt could not be read (everything is disallowed for this run).
   */
  async allowed(url: URL): Promise<"allowed" | "disallowed" | "unreachable"> {
    let rules = this.robots.get(url.origin);
    if (!rules) {
      rules = await this.readRobots(url);
      this.robots.set(url.origin, rules);
    }
    if (robotsAllow(rules, url.pathname + url.search)) return "allowed";
    return rules === DISALLOW_ALL ? "unreachable" : "disallowed";
  }

  /** Why robots.txt of the URL's origin could not be read (e.g. a refused private address), once `allowed` said so. */
  unreachableReason(url: URL): string | undefined {
    return this.unreadable.get(url.origin);
  }

  private async readRobots(url: URL): Promise<RobotsRules> {
    await this.pace(url);
    const askedAt = Date.now();
    try {
      const r = await this.fetcher.fetch(`${url.origin}/robots.txt`, this.opts.signal);
      const rules = parseRobots(new TextDecoder().decode(r.bytes), this.opts.agent);
      // The Crawl-delay is known only now: the next request waits for it from when robots.txt was asked.
      this.nextAt.set(url.host, Math.max(this.nextAt.get(url.host) ?? 0, askedAt + this.interval(rules)));
      return rules;
    } catch (err) {
      const e = toPegasError(err);
      if (e.code === "CANCELLED") throw e;
      if (e.code === "NOT_FOUND") return ALLOW_ALL;
      const status = (err as { status?: unknown }).status;
      if (typeof status === "number" && status >= 400 && status < 500) return ALLOW_ALL;
      this.unreadable.set(url.origin, e.message);
      return DISALLOW_ALL;
    }
  }
}
