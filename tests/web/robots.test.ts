/** robots.txt parsing and matching (RFC 9309), and the refresh's ages and retry delays. */
import { describe, expect, test } from "bun:test";
import { parseAge, retryAt } from "../../src/core/documents/freshness-policy.ts";
import { DISALLOW_ALL, parseRobots, robotsAllow } from "../../src/domain/robots.ts";

describe("robots.txt", () => {
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

  test("the group naming our token wins over *, and its groups merge", () => {
    const ours = parseRobots(text, "pegas-memory");
    expect(robotsAllow(ours, "/private/x")).toBe(true); // only * disallows it
    expect(robotsAllow(ours, "/drafts/a")).toBe(false);
    expect(robotsAllow(ours, "/tmp/file")).toBe(false);
    expect(ours.crawlDelayS).toBeUndefined();
  });

  test("* applies to other agents: longest match decides, Allow wins, $ anchors, * spans", () => {
    const any = parseRobots(text, "somebot");
    expect(robotsAllow(any, "/private")).toBe(false);
    expect(robotsAllow(any, "/private/open/page?x=1")).toBe(true);
    expect(robotsAllow(any, "/docs/a.pdf")).toBe(false);
    expect(robotsAllow(any, "/docs/a.pdf?download=1")).toBe(true);
    expect(robotsAllow(any, "/")).toBe(true);
    expect(any.crawlDelayS).toBe(5);
  });

  test("empty Disallow, no group for us, and the unreachable case", () => {
    expect(robotsAllow(parseRobots("User-agent: *\nDisallow:\n", "pegas-memory"), "/a")).toBe(true);
    expect(robotsAllow(parseRobots("User-agent: otherbot\nDisallow: /\n", "pegas-memory"), "/a")).toBe(true);
    expect(robotsAllow(DISALLOW_ALL, "/a")).toBe(false);
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
