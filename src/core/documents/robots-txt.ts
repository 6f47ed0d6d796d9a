/**
 * robots.txt for URL ingest and refresh (RFC 9309): read through the same Fetcher as the pages (so the same proxy and
 * address rules apply), parsed by domain/robots.ts, and kept per origin. What an answer means (§2.3.1): 2xx gives the
 * file's rules; 4xx (429 excepted, which is a rate limit) means there are none, so everything is allowed; 5xx, 429, a
 * timeout or a network failure leave it unreachable, so everything is disallowed for now and tried again later.
 * Switched off by `respect_robots = false`.
 */
import { ALLOW_ALL, DISALLOW_ALL, parseRobots, type RobotsRules } from "../../domain/robots.ts";
import { PegasError, toPegasError } from "../../errors.ts";
import type { Fetcher } from "../../ports/models/fetcher.ts";
import type { Services } from "../services.ts";

/** The robots.txt product token (the fetcher's User-Agent is `pegas-memory/<version>`). */
export const ROBOTS_AGENT = "pegas-memory";

/** How long ingest keeps an origin's robots.txt (ms; 1 hour; RFC 9309 §2.4 allows up to a day). */
export const INGEST_ROBOTS_TTL_MS = 3_600_000;

/** Most origins whose robots.txt ingest keeps; the oldest is dropped first. */
const MAX_KEPT_ORIGINS = 1000;

/** An origin's robots.txt as read: its rules, or why it could not be read (then the rules disallow everything). */
export interface RobotsEntry {
  rules: RobotsRules;
  /** The fetch error when robots.txt was unreachable (5xx, 429, timeout, network, refused address). */
  unreachable?: PegasError;
}

/**
 * Reads `<origin>/robots.txt` with `fetcher` and judges the answer (see the module doc).
 * @throws PegasError CANCELLED only; every other failure is an unreachable entry.
 */
export async function readRobotsTxt(fetcher: Fetcher, origin: string, signal?: AbortSignal): Promise<RobotsEntry> {
  const robotsUrl = `${origin}/robots.txt`;
  try {
    const r = await fetcher.fetch(robotsUrl, signal);
    return { rules: parseRobots(robotsUrl, new TextDecoder().decode(r.bytes), ROBOTS_AGENT) };
  } catch (err) {
    const e = toPegasError(err);
    if (e.code === "CANCELLED") throw e;
    const status = (err as { status?: unknown }).status;
    if (typeof status === "number" && status >= 400 && status < 500 && status !== 429) return { rules: ALLOW_ALL };
    return { rules: DISALLOW_ALL, unreachable: e };
  }
}

/** Options of {@link RobotsCache}. */
export interface RobotsCacheOptions {
  /** How long an entry is kept (ms); Infinity for one refresh run. */
  ttlMs: number;
  /** Keep unreachable entries too (a refresh run: robots.txt is asked once per origin), else ask again next time. */
  keepFailures: boolean;
}

/** robots.txt per origin, read once while kept; concurrent askers share one request. */
export class RobotsCache {
  private readonly entries = new Map<string, { at: number; entry: Promise<RobotsEntry> }>();

  constructor(
    private readonly fetcher: Fetcher,
    private readonly opts: RobotsCacheOptions,
  ) {}

  /**
   * The robots.txt entry of the URL's origin: the kept one, else read now, after `before` resolves (a politeness
   * wait). @throws PegasError CANCELLED.
   */
  get(url: URL, signal?: AbortSignal, before?: () => Promise<void>): Promise<RobotsEntry> {
    const origin = url.origin;
    const hit = this.entries.get(origin);
    if (hit && Date.now() - hit.at < this.opts.ttlMs) return hit.entry;
    const entry = (async () => {
      await before?.();
      return readRobotsTxt(this.fetcher, origin, signal);
    })();
    const kept = { at: Date.now(), entry };
    this.entries.delete(origin);
    this.entries.set(origin, kept);
    if (this.entries.size > MAX_KEPT_ORIGINS) this.entries.delete(this.entries.keys().next().value as string);
    const drop = () => {
      if (this.entries.get(origin) === kept) this.entries.delete(origin);
    };
    entry.then((e) => (e.unreachable && !this.opts.keepFailures ? drop() : undefined), drop);
    return entry;
  }
}

/** One cache per services object (its fetcher): URL ingests of one process share their robots.txt reads. */
const ingestCaches = new WeakMap<Fetcher, RobotsCache>();

function shown(url: URL): string {
  const u = new URL(url.href);
  u.username = "";
  u.password = "";
  return u.href;
}

/**
 * Checks that robots.txt lets URL ingest fetch `url` (http(s) without credentials; others are left to the fetcher,
 * which refuses them); nothing is checked when `respect_robots` is off.
 * @throws PegasError NETWORK_FAILED when robots.txt disallows the page, or when it could not be read (try again
 * later), INVALID_INPUT when the fetcher refused robots.txt's address (as it would the page's), CANCELLED.
 */
export async function checkRobotsForIngest(
  services: Pick<Services, "fetcher" | "config">,
  url: URL,
  signal?: AbortSignal,
): Promise<void> {
  if (!services.config.respect_robots || !/^https?:$/.test(url.protocol) || url.username || url.password) return;
  let cache = ingestCaches.get(services.fetcher);
  if (!cache) {
    cache = new RobotsCache(services.fetcher, { ttlMs: INGEST_ROBOTS_TTL_MS, keepFailures: false });
    ingestCaches.set(services.fetcher, cache);
  }
  const { rules, unreachable } = await cache.get(url, signal);
  if (unreachable?.code === "INVALID_INPUT") throw unreachable;
  if (unreachable)
    throw new PegasError(
      "NETWORK_FAILED",
      `robots.txt of ${url.origin} could not be read (${unreachable.message}), so '${shown(url)}' was not fetched`,
      { hint: "try again later (RFC 9309: an unreachable robots.txt disallows everything)", cause: unreachable },
    );
  if (!rules.allows(url.href))
    throw new PegasError(
      "NETWORK_FAILED",
      `robots.txt of ${url.origin} disallows '${shown(url)}' for ${ROBOTS_AGENT}`,
      {
        hint: "the site asks crawlers not to fetch it; give its text instead, or set respect_robots = false if you may",
      },
    );
}
