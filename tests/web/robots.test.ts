/** robots.txt parsing and matching (RFC 9309), and the refresh's ages and retry delays. */
import { describe, expect, test } from "bun:test";
import { parseAge, retryAt } from "../../src/core/documents/freshness-policy.ts";
import { HostPoliteness } from "../../src/core/documents/host-politeness.ts";
import { DISALLOW_ALL, parseRobots } from "../../src/domain/robots.ts";
import { PegasError } from "../../src/errors.ts";
import type { Fetcher } from "../../src/ports/models/fetcher.ts";

describe("robots.txt (parsed by robots-parser)", () => {
  const text = [
    "# comment",
    "User-agent: *",
    "Disallow: /private",
    "Allow: /private/open",
    "Disallow: /*.pdf$",
    "Crawl-delay: 5",
    "",
    "User-agent: Pegas-Memory",
    "User-agent: otherbot",
    "Disallow: /drafts/",
    "",
    "user-agent: pegas-memory",
    "disallow: /tmp # merged with the group above",
  ].join("\r\n");
  const ROBOTS = "https://example.test/robots.txt";
  const at = (path: string) => `https://example.test${path}`;

  test("the group naming our token wins over *, and its groups merge", () => {
    const ours = parseRobots(ROBOTS, text, "pegas-memory");
    expect(ours.allows(at("/private/x"))).toBe(true); // only * disallows it
    expect(ours.allows(at("/drafts/a"))).toBe(false);
    expect(ours.allows(at("/tmp/file"))).toBe(false);
    expect(ours.crawlDelayS).toBeUndefined();
  });

  test("* applies to other agents: longest match decides, Allow wins, $ anchors, * spans", () => {
    const any = parseRobots(ROBOTS, text, "somebot");
    expect(any.allows(at("/private"))).toBe(false);
    expect(any.allows(at("/private/open/page?x=1"))).toBe(true);
    expect(any.allows(at("/docs/a.pdf"))).toBe(false);
    expect(any.allows(at("/docs/a.pdf?download=1"))).toBe(true);
    expect(any.allows(at("/"))).toBe(true);
    expect(any.crawlDelayS).toBe(5);
  });

  test("empty Disallow, no group for us, non-ASCII paths, and the unreachable case", () => {
    expect(parseRobots(ROBOTS, "User-agent: *\nDisallow:\n", "pegas-memory").allows(at("/a"))).toBe(true);
    expect(parseRobots(ROBOTS, "User-agent: otherbot\nDisallow: /\n", "pegas-memory").allows(at("/a"))).toBe(true);
    const ru = parseRobots(ROBOTS, "User-agent: *\nDisallow: /статьи/черновики\n", "pegas-memory");
    expect(ru.allows(new URL(at("/статьи/черновики/1")).href)).toBe(false);
    expect(ru.allows(new URL(at("/статьи/1")).href)).toBe(true);
    expect(parseRobots(ROBOTS, "<html><body>Not found</body></html>", "pegas-memory").allows(at("/a"))).toBe(true);
    expect(DISALLOW_ALL.allows(at("/a"))).toBe(false);
  });
});

describe("refresh ages and retries", () => {
  test("ages take a unit; a bare number is days; anything else is refused", () => {
    expect(parseAge("90s")).toBe(90);
    expect(parseAge("30m")).toBe(1800);
    expect(parseAge("12h")).toBe(43_200);
    expect(parseAge("7d")).toBe(604_800);
    expect(parseAge("2")).toBe(172_800);
    expect(parseAge("1w")).toBe(604_800);
    expect(() => parseAge("soon")).toThrow("not an age");
    expect(() => parseAge("-1d")).toThrow("not an age");
    // a huge age selects what 1000 years select, instead of overflowing the database's interval (was INTERNAL)
    expect(parseAge("99999999999d")).toBe(1000 * 365 * 86_400);
    expect(parseAge("9".repeat(400))).toBe(1000 * 365 * 86_400);
  });

  test("a failure is retried after a doubling delay, or the server's Retry-After, at most a day", () => {
    const now = new Date("2026-01-01T00:00:00Z");
    const after = (d: Date) => (d.getTime() - now.getTime()) / 60_000;
    expect(after(retryAt(now, 1))).toBe(15);
    expect(after(retryAt(now, 3))).toBe(60);
    expect(after(retryAt(now, 30))).toBe(1440);
    expect(after(retryAt(now, 1, "120"))).toBe(2);
    expect(after(retryAt(now, 1, "Thu, 01 Jan 2026 01:00:00 GMT"))).toBe(60);
    expect(after(retryAt(now, 1, "999999"))).toBe(1440);
    expect(after(retryAt(now, 2, "garbage"))).toBe(30);
  });
});

describe("host politeness", () => {
  /** A fetcher whose robots.txt answers `robots` (a status error, or a body), recording what was asked when. */
  function fetcher(robots: number | string) {
    const asked: Array<[string, number]> = [];
    const f: Fetcher = {
      fetch: async (url) => {
        asked.push([new URL(url).pathname, Date.now()]);
        if (typeof robots === "number")
          throw Object.assign(new PegasError(robots === 404 ? "NOT_FOUND" : "NETWORK_FAILED", `HTTP ${robots}`), {
            status: robots,
          });
        return {
          url,
          status: 200,
          mediaType: "text/plain",
          bytes: new TextEncoder().encode(robots),
          headers: {},
          redirects: [],
        };
      },
    };
    return { f, asked };
  }
  const page = new URL("http://example.test/a/page");

  test("robots.txt answering 404 or 403 allows; 429, 503 or no answer makes the origin unreachable for the run", async () => {
    for (const [status, want] of [
      [404, "allowed"],
      [403, "allowed"],
      [429, "unreachable"], // a rate limit, not "no robots.txt"
      [503, "unreachable"],
      [0, "unreachable"],
    ] as const) {
      const { f, asked } = fetcher(status);
      const p = new HostPoliteness(f, { intervalMs: 1 });
      expect(await p.allowed(page)).toBe(want);
      expect(await p.allowed(new URL("http://example.test/b"))).toBe(want);
      expect(asked.map(([path]) => path)).toEqual(["/robots.txt"]); // read once per origin
      // the refresh report says why the origin is unreachable (was only "robots.txt could not be read")
      expect(p.unreachableReason(page)).toBe(want === "unreachable" ? `HTTP ${status}` : undefined);
    }
  });

  test("a disallowed page is told apart, and requests to a host are spaced by the Crawl-delay", async () => {
    const { f, asked } = fetcher("User-agent: *\nDisallow: /a/\nCrawl-delay: 0.2\n");
    const p = new HostPoliteness(f, { intervalMs: 1 });
    expect(await p.allowed(page)).toBe("disallowed");
    expect(await p.allowed(new URL("http://example.test/b"))).toBe("allowed");
    const start = Date.now();
    await p.pace(page);
    await p.pace(page);
    expect(Date.now() - asked[0][1]).toBeGreaterThanOrEqual(390);
    expect(Date.now() - start).toBeGreaterThanOrEqual(190);
  });

  test("respect_robots off: every page is allowed and robots.txt is never asked", async () => {
    const { f, asked } = fetcher("User-agent: *\nDisallow: /\n");
    const p = new HostPoliteness(f, { intervalMs: 1, robots: false });
    expect(await p.allowed(page)).toBe("allowed");
    expect(asked).toEqual([]);
  });
});
