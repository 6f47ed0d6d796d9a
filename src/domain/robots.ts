/**
 * robots.txt (RFC 9309, the Robots Exclusion Protocol): parsing a file into the rules of one crawler and matching
 * paths against them. Pure; fetching the file and what an unreachable one means are the caller's business.
 *
 * Decisions: the group whose user-agent names our product token (case-insensitively) wins over `*`; several
 * groups for the same agent are merged (§2.2.1); the longest matching rule decides, Allow winning a tie (§2.2.2);
 * `*` matches any run of characters and a final `$` anchors the end; an empty Disallow allows everything. The
 * non-standard Crawl-delay of the chosen group is kept (seconds), as the politeness delay a crawler may honour.
 */

/** One Allow/Disallow rule. */
interface Rule {
  allow: boolean;
  pattern: string;
  re: RegExp;
}

/** The rules of robots.txt for one crawler. */
export interface RobotsRules {
  rules: readonly Rule[];
  /** Crawl-delay of the chosen group in seconds, if it gave one. */
  crawlDelayS?: number;
}

/** Rules that allow everything (no robots.txt, or one that names nothing for us). */
export const ALLOW_ALL: RobotsRules = { rules: [] };

/** Rules that allow nothing (RFC 9309 §2.3.1.4: robots.txt unreachable through a server or network error). */
export const DISALLOW_ALL: RobotsRules = { rules: [{ allow: false, pattern: "/", re: /^\// }] };

function patternRegExp(pattern: string): RegExp {
  const anchored = pattern.endsWith("$");
  const body = (anchored ? pattern.slice(0, -1) : pattern)
    .split("*")
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, "\\$&"))
    .join(".*");
  return new RegExp(`^${body}${anchored ? "$" : ""}`);
}

/**
 * Parses robots.txt `text` for the crawler whose product token is `agent` (e.g. "pegas-memory").
 * Never throws: lines it does not understand are ignored, as the RFC asks.
 */
export function parseRobots(text: string, agent: string): RobotsRules {
  const token = agent.toLowerCase();
  type Group = { agents: string[]; rules: Rule[]; delay?: number };
  const groups: Group[] = [];
  let current: Group | null = null;
  let lastWasAgent = false;
  for (const raw of text.split(/\r\n|\r|\n/)) {
    const line = raw.replace(/#.*$/, "").trim();
    const m = /^([A-Za-z-]+)\s*:\s*(.*)$/.exec(line);
    if (!m) continue;
    const key = m[1].toLowerCase();
    const value = m[2].trim();
    if (key === "user-agent") {
      if (!current || !lastWasAgent) {
        current = { agents: [], rules: [] };
        groups.push(current);
      }
      current.agents.push(value.toLowerCase());
      lastWasAgent = true;
      continue;
    }
    lastWasAgent = false;
    if (!current) continue;
    if (key === "allow" || key === "disallow") {
      if (!value) continue; // an empty Disallow allows all
      const pattern = value.startsWith("/") || value.startsWith("*") ? value : `/${value}`;
      current.rules.push({ allow: key === "allow", pattern, re: patternRegExp(pattern) });
    } else if (key === "crawl-delay") {
      const s = Number(value);
      if (Number.isFinite(s) && s >= 0) current.delay = s;
    }
  }
  const ours = groups.filter((g) => g.agents.includes(token));
  const chosen = ours.length ? ours : groups.filter((g) => g.agents.includes("*"));
  if (!chosen.length) return ALLOW_ALL;
  const delays = chosen.map((g) => g.delay).filter((d): d is number => d !== undefined);
  return {
    rules: chosen.flatMap((g) => g.rules),
    ...(delays.length ? { crawlDelayS: Math.max(...delays) } : {}),
  };
}

/** Whether `rules` let the crawler fetch `pathAndQuery` (the URL's path with its query, e.g. "/a/b?x=1"). */
export function robotsAllow(rules: RobotsRules, pathAndQuery: string): boolean {
  let best: Rule | null = null;
  for (const r of rules.rules) {
    if (!r.re.test(pathAndQuery)) continue;
    if (!best || r.pattern.length > best.pattern.length || (r.pattern.length === best.pattern.length && r.allow))
      best = r;
  }
  return best?.allow ?? true;
}
