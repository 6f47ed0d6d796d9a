/** memory_refresh tool: re-check fetched web pages now (issue 24, item 2), as `pegas-memory refresh` does. */
import { z } from "zod";
import { parseAge } from "../../../core/documents/freshness-policy.ts";
import { refresh } from "../../../core/documents/refresh.ts";
import { id } from "../../schemas.ts";
import type { ToolDef } from "../../tool.ts";
import { renderRefresh } from "./render-refresh.ts";

/** Default most pages one call checks (a run waits ≥ 1 s between two requests to one host). */
export const TOOL_REFRESH_LIMIT = 20;

const OUTCOMES = ["changed", "unchanged", "back", "gone", "retry", "disallowed"] as const;

/** Re-check the fetched URL documents that are due; what changed becomes a new version. */
export const memoryRefresh: ToolDef = {
  name: "memory_refresh",
  title: "Re-check web pages",
  description: "Re-fetch stored web pages not checked for older_than (default 7d); changed pages become new versions.",
  details:
    "Checks the fetched URL documents whose last check is older than `older_than` (90s, 30m, 12h, 7d, 2w; 0 = all), " +
    "oldest first, at most `limit` (default 20, at most 500), with conditional requests (ETag / Last-Modified), the " +
    "site's robots.txt and at least 1 s between two requests to one host, through the same proxy and address rules " +
    "as memory_ingest. A page whose extracted text changed becomes a new document version (atoms it no longer holds " +
    "go `stale`); an unchanged one only records the check; a gone one (404/410) is marked and its atoms flagged, never " +
    "deleted, and is re-checked like the others: when it answers again it is `back` (flags cleared) or a new version; " +
    "a server error, timeout or robots refusal changes nothing and is retried later: the result names each page that " +
    "failed and when it is tried next (`retry_at`), also those still waiting from earlier runs (`waiting_items`). The " +
    "same as `pegas-memory refresh` and its systemd timer.",
  fieldDetails: {
    older_than: "check pages last checked at least this long ago: 90s, 30m, 12h, 7d, 2w; 0 = all (default 7d)",
    limit: "most pages checked (default 20)",
  },
  inputSchema: {
    older_than: z.string().optional(),
    limit: z.number().int().min(1).max(500).optional(),
  },
  outputSchema: {
    checked: z.number(),
    changed: z.number(),
    unchanged: z.number(),
    back: z.number().describe("gone pages that answered again"),
    gone: z.number(),
    retry: z.number(),
    disallowed: z.number().describe("robots.txt forbids the page; retried later"),
    waiting: z.number().describe("pages not checked: an earlier check failed and its retry time has not come"),
    items: z.array(
      z.object({
        doc_id: id,
        uri: z.string(),
        outcome: z.enum(OUTCOMES),
        version: z.number().int(),
        atoms_staled: z.number().int().optional(),
        atoms_flagged: z.number().int().optional(),
        atoms_unflagged: z.number().int().optional(),
        error: z.string().optional(),
        retry_at: z.string().optional(),
      }),
    ),
    waiting_items: z.array(
      z.object({
        doc_id: id,
        uri: z.string(),
        error: z.string().optional(),
        retry_at: z.string(),
        failures: z.number().int(),
      }),
    ),
  },
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  run: async (services, args, ctx) => {
    const r = await refresh(services, {
      olderThanS: typeof args.older_than === "string" ? parseAge(args.older_than) : undefined,
      limit: args.limit ?? TOOL_REFRESH_LIMIT,
      signal: ctx.signal,
      onProgress: (done, total, message) => ctx.progress(done, total, message),
    });
    return { ...r, items: r.items.map((i) => ({ ...i })), waiting_items: r.waiting_items.map((w) => ({ ...w })) };
  },
  render: renderRefresh,
};
