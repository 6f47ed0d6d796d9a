/**
 * Politeness of a crawl over several hosts (the URL refresh): robots.txt is read once per origin for the run
 * (robots-txt.ts: through the same Fetcher as the pages, so the same proxy and address rules apply; a 4xx allows
 * everything, an unreachable one disallows everything for this run), and requests to one host are spaced by an
 * interval, a longer Crawl-delay winning.
 */
import type { RobotsRules } from "../../domain/robots.ts";
import { PegasError } from "../../errors.ts";
import type { Fetcher } from "../../ports/models/fetcher.ts";
import { MAX_CRAWL_DELAY_MS } from "./freshness-policy.ts";
import { RobotsCache } from "./robots-txt.ts";

/** Options of {@link HostPoliteness}. */
export interface PolitenessOptions {
  /** Least time between two requests to one host (ms). */
  intervalMs: number;
  /** Honour robots.txt (default true; `respect_robots = false` turns it off: every page is allowed, none asked). */
  robots?: boolean;
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
  private readonly cache: RobotsCache;
  private readonly rules = new Map<string, RobotsRules>();
  private readonly nextAt = new Map<string, number>();
  /** Why an origin's robots.txt could not be read (the fetch error's message), by origin. */
  private readonly unreadable = new Map<string, string>();

  constructor(
    fetcher: Fetcher,
    private readonly opts: PolitenessOptions,
  ) {
    this.cache = new RobotsCache(fetcher, { ttlMs: Number.POSITIVE_INFINITY, keepFailures: true });
  }

  /** Waits for the host's next slot and takes it. @throws PegasError CANCELLED. */
  async pace(url: URL): Promise<void> {
    const wait = (this.nextAt.get(url.host) ?? 0) - Date.now();
    if (wait > 0) await sleep(wait, this.opts.signal);
    this.nextAt.set(url.host, Date.now() + this.interval(this.rules.get(url.origin)));
  }

  /** The spacing of requests under `rules`: the configured interval, or the Crawl-delay when longer (bounded). */
  private interval(rules?: RobotsRules): number {
    return Math.max(this.opts.intervalMs, Math.min(MAX_CRAWL_DELAY_MS, (rules?.crawlDelayS ?? 0) * 1000));
  }

  /**
   * Whether robots.txt of the URL's origin lets us fetch it (read, paced, on the first URL of each origin):
   * `unreachable` when robots.txt could not be read (everything is disallowed for this run).
   * @throws PegasError CANCELLED.
   */
  async allowed(url: URL): Promise<"allowed" | "disallowed" | "unreachable"> {
    if (this.opts.robots === false) return "allowed";
    let askedAt = 0;
    const entry = await this.cache.get(url, this.opts.signal, async () => {
      await this.pace(url);
      askedAt = Date.now();
    });
    if (askedAt) {
      this.rules.set(url.origin, entry.rules);
      // The Crawl-delay is known only now: the next request waits for it from when robots.txt was asked.
      this.nextAt.set(url.host, Math.max(this.nextAt.get(url.host) ?? 0, askedAt + this.interval(entry.rules)));
      if (entry.unreachable) this.unreadable.set(url.origin, entry.unreachable.message);
    }
    if (entry.unreachable) return "unreachable";
    return entry.rules.allows(url.href) ? "allowed" : "disallowed";
  }

  /** Why robots.txt of the URL's origin could not be read (e.g. a refused private address), once `allowed` said so. */
  unreachableReason(url: URL): string | undefined {
    return this.unreadable.get(url.origin);
  }
}
