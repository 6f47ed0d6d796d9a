/**
 * robots.txt (RFC 9309, the Robots Exclusion Protocol): a fetched file as the rules of one crawler, parsed and
 * matched by the `robots-parser` package (Google's matching algorithm: the group naming our product token wins over
 * `*`, groups for one agent merge, the longest matching rule decides and Allow wins a tie, `*` and a final `$` work).
 * The non-standard Crawl-delay of the chosen group is kept (seconds). Pure; fetching the file and what an
 * unreachable one means are the caller's business.
 */
import robotsParser from "robots-parser";

/** The rules of robots.txt for one crawler on one origin. */
export interface RobotsRules {
  /** Whether the crawler may fetch `url` (absolute, on the origin the rules came from). */
  allows(url: string): boolean;
  /** Crawl-delay of the chosen group in seconds, if it gave one. */
  crawlDelayS?: number;
}

/** Rules that allow everything (no robots.txt, or one that names nothing for us). */
export const ALLOW_ALL: RobotsRules = { allows: () => true };

/** Rules that allow nothing (RFC 9309 §2.3.1.4: robots.txt unreachable through a server or network error). */
export const DISALLOW_ALL: RobotsRules = { allows: () => false };

/** Most characters of a robots.txt parsed (RFC 9309 §2.5: at least 500 KiB must be; the rest is ignored). */
export const MAX_ROBOTS_CHARS = 512 * 1024;

/**
 * Parses robots.txt `text`, fetched from `robotsUrl` (e.g. `https://example.org/robots.txt`), for the crawler whose
 * product token is `agent` (e.g. "pegas-memory"). Never throws: lines it does not understand are ignored, as the
 * RFC asks. A URL of another origin than `robotsUrl` is allowed (these rules do not govern it).
 */
export function parseRobots(robotsUrl: string, text: string, agent: string): RobotsRules {
  const robots = robotsParser(robotsUrl, text.slice(0, MAX_ROBOTS_CHARS));
  const delay = robots.getCrawlDelay(agent);
  return {
    allows: (url) => robots.isAllowed(url, agent) ?? true,
    ...(typeof delay === "number" && Number.isFinite(delay) && delay >= 0 ? { crawlDelayS: delay } : {}),
  };
}
