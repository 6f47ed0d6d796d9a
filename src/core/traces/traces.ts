/**
 * Episodic traces (issue 4, item 6): the agent's own plan / action / observation / reflection notes, kept apart
 * from knowledge atoms. memory_search and memory_get_context never read them; only memory_trace_search does.
 */
import { randomUUID } from "node:crypto";
import { sha256Hex } from "../../domain/hash.ts";
import { sanitizeText } from "../../domain/text.ts";
import { invalidInput } from "../../errors.ts";
import type { TraceKind, TraceMatch, TraceQuery } from "../../ports/store/traces.ts";
import type { Services } from "../services.ts";
import { cleanMetadata } from "./metadata.ts";

/** The kinds of trace, in the order an agent's loop produces them. */
export const TRACE_KINDS = ["plan", "action", "observation", "reflection"] as const satisfies readonly TraceKind[];
/** Longest trace content (UTF-16 code units, after sanitizing); longer material belongs in memory_ingest. */
export const MAX_TRACE_CHARS = 100_000;
/** Longest session id (code units). */
export const MAX_SESSION_CHARS = 200;
/** Longest search query (code units). */
export const MAX_TRACE_QUERY_CHARS = 4000;
/** Content of one hit is cut to this many code points (`truncated: true`). */
export const TRACE_HIT_CHARS = 4000;
/** Hits per page when `limit` is not given. */
export const DEFAULT_TRACE_LIMIT = 10;
/** Largest `limit`. */
export const MAX_TRACE_LIMIT = 100;
/** A page stops growing once its hits serialize to more than this many bytes (the rest is behind next_cursor). */
export const TRACE_PAGE_BYTES = 512 * 1024;
/** Deepest offset a cursor may point at. */
const MAX_OFFSET = 10_000;

/** Input of memory_trace_add. */
export interface TraceAddInput {
  kind: TraceKind;
  content: string;
  session?: string;
  metadata?: Record<string, unknown>;
}

/** Outcome of memory_trace_add; `warnings` say what sanitizing changed. */
export interface TraceAddResult {
  trace_id: number;
  kind: TraceKind;
  session: string | null;
  /** When it was stored, ISO 8601 UTC. */
  created_at: string;
  /** Length of the stored content in code points. */
  content_chars: number;
  warnings: string[];
}

/** Input of memory_trace_search: every field optional; without a query the newest traces are listed. */
export interface TraceSearchInput {
  query?: string;
  session?: string;
  kind?: TraceKind | TraceKind[];
  /** ISO 8601 date or date-time; only traces created at or after it. A date-time without a zone is UTC. */
  since?: string;
  limit?: number;
  cursor?: string;
}

/** One hit; `score` is ts_rank_cd (fulltext), word similarity 0..1 (trigram) or 0 (recent). */
export interface TraceHit {
  trace_id: number;
  kind: TraceKind;
  session: string | null;
  content: string;
  /** True when `content` was cut to {@link TRACE_HIT_CHARS} code points. */
  truncated: boolean;
  /** Length of the whole content in code points. */
  content_chars: number;
  metadata: Record<string, unknown>;
  /** ISO 8601 UTC. */
  created_at: string;
  score: number;
}

/** A page of hits, how they were found, and the cursor for the next page (null at the end). */
export interface TraceSearchResult {
  query: string;
  match: TraceMatch;
  hits: TraceHit[];
  next_cursor: string | null;
}

function codePoints(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0xd800 || c > 0xdbff) n++; // a high surrogate is counted with its low half
  }
  return n;
}

function checkKind(kind: unknown): TraceKind {
  if (typeof kind === "string" && (TRACE_KINDS as readonly string[]).includes(kind)) return kind as TraceKind;
  throw invalidInput(`unknown trace kind '${String(kind).slice(0, 40)}'`, `use one of ${TRACE_KINDS.join(", ")}`);
}

function checkSession(session: string | undefined, warnings: string[]): string | undefined {
  if (session === undefined) return undefined;
  const s = sanitizeText(String(session), "session");
  warnings.push(...s.warnings);
  const text = s.text.trim();
  if (!text) throw invalidInput("session is empty", "omit `session`, or give the id of the agent's run");
  if (text.length > MAX_SESSION_CHARS)
    throw invalidInput(`session is ${text.length} characters; the limit is ${MAX_SESSION_CHARS}`, "use a short run id");
  return text;
}

/**
 * Stores one trace. The write carries a fresh request key, so a write run again after a lost connection stores it once.
 * @throws PegasError INVALID_INPUT (unknown kind, empty or too long content, bad session or metadata), STORE_UNAVAILABLE.
 */
export async function addTrace(services: Pick<Services, "traces">, input: TraceAddInput): Promise<TraceAddResult> {
  const kind = checkKind(input.kind);
  const warnings: string[] = [];
  const s = sanitizeText(String(input.content ?? ""), "content");
  warnings.push(...s.warnings);
  const content = s.text.trim();
  if (!content) throw invalidInput("content is empty", "write what was planned, done, observed or concluded");
  if (content.length > MAX_TRACE_CHARS) {
    throw invalidInput(
      `content is ${content.length} characters; the limit is ${MAX_TRACE_CHARS}`,
      "split it into several traces, or use memory_ingest for documents",
    );
  }
  const session = checkSession(input.session, warnings) ?? null;
  const metadata = cleanMetadata(input.metadata, warnings);
  const row = await services.traces.addTrace({ kind, content, session, metadata, requestKey: randomUUID() });
  return { trace_id: row.id, kind, session, created_at: row.createdAt, content_chars: codePoints(content), warnings };
}

const ISO_8601 = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?)?$/i;

/**
 * Parses an ISO 8601 date (`2024-05-01`, midnight UTC) or date-time (`2024-05-01T12:30:00+03:00`; no zone = UTC)
 * into an ISO UTC string. @throws PegasError INVALID_INPUT for anything else, including impossible dates.
 */
export function parseSince(since: string): string {
  const m = ISO_8601.exec(since.trim());
  const bad = () =>
    invalidInput(
      `since '${since.slice(0, 40)}' is not an ISO 8601 timestamp`,
      "use e.g. 2024-05-01 or 2024-05-01T12:30:00Z",
    );
  if (!m) throw bad();
  const [, y, mo, d, h = "00", mi = "00", sec = "00", frac = "", zone = "Z"] = m;
  const calendar = new Date(Date.UTC(Number(y), Number(mo) - 1, Number(d)));
  if (
    calendar.getUTCMonth() !== Number(mo) - 1 ||
    calendar.getUTCDate() !== Number(d) ||
    Number(h) > 23 ||
    Number(mi) > 59 ||
    Number(sec) > 59
  ) {
    throw bad();
  }
  const z = zone.toUpperCase() === "Z" ? "Z" : `${zone.slice(0, 3)}:${zone.slice(-2)}`;
  const ms = Date.parse(`${y}-${mo}-${d}T${h}:${mi}:${sec}${frac.slice(0, 4)}${z}`);
  if (!Number.isFinite(ms)) throw bad();
  return new Date(ms).toISOString();
}

function cursorKey(query: TraceQuery): string {
  return sha256Hex(JSON.stringify([query.text, query.session ?? null, query.kinds ?? null, query.since ?? null])).slice(
    0,
    16,
  );
}

function decodeCursor(cursor: string, key: string): { offset: number; match: TraceMatch } {
  try {
    const { o, h, m } = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
    if (h === key && Number.isInteger(o) && o > 0 && o <= MAX_OFFSET && ["fulltext", "trigram", "recent"].includes(m))
      return { offset: o, match: m };
  } catch {
    // fall through to the error below
  }
  throw invalidInput(
    `cursor '${cursor.slice(0, 24)}' does not belong to this trace search`,
    "repeat the same query and filters, or drop the cursor",
  );
}

function toQuery(input: TraceSearchInput, limit: number): TraceQuery {
  const text = sanitizeText(String(input.query ?? ""), "query").text.trim();
  if (text.length > MAX_TRACE_QUERY_CHARS)
    throw invalidInput(`query is ${text.length} characters; the limit is ${MAX_TRACE_QUERY_CHARS}`);
  const kinds =
    input.kind === undefined ? undefined : (Array.isArray(input.kind) ? input.kind : [input.kind]).map(checkKind);
  if (kinds && kinds.length === 0)
    throw invalidInput("kind is an empty list", "omit `kind`, or name at least one kind");
  return {
    text,
    // A filter repaired by sanitizing matches what was stored repaired the same way; nothing to warn about.
    session: checkSession(input.session, []),
    kinds,
    since: input.since === undefined ? undefined : parseSince(String(input.since)),
    limit: limit + 1,
    offset: 0,
    match: text ? "fulltext" : "recent",
    maxContentChars: TRACE_HIT_CHARS,
  };
}

/**
 * Searches traces: full-text on the `pegas` configuration (Russian and English stemming) ranked by ts_rank_cd,
 * newest first on ties; when that finds nothing, pg_trgm word similarity; without a query, the newest traces.
 * @throws PegasError INVALID_INPUT (bad kind, session, since, limit or cursor), STORE_UNAVAILABLE.
 */
export async function searchTraces(
  services: Pick<Services, "traces">,
  input: TraceSearchInput,
): Promise<TraceSearchResult> {
  const limit = input.limit ?? DEFAULT_TRACE_LIMIT;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_TRACE_LIMIT)
    throw invalidInput(`limit must be an integer from 1 to ${MAX_TRACE_LIMIT}, got ${limit}`);
  const query = toQuery(input, limit);
  const key = cursorKey(query);
  if (input.cursor) Object.assign(query, decodeCursor(input.cursor, key));
  let rows = await services.traces.searchTraces(query);
  if (rows.length === 0 && query.match === "fulltext" && query.offset === 0) {
    query.match = "trigram";
    rows = await services.traces.searchTraces(query);
  }
  const hits: TraceHit[] = [];
  let bytes = 0;
  for (const r of rows.slice(0, limit)) {
    const hit: TraceHit = {
      trace_id: r.id,
      kind: r.kind,
      session: r.session,
      content: r.content,
      truncated: r.truncated,
      content_chars: r.contentChars,
      metadata: r.metadata,
      created_at: r.createdAt,
      score: Number(r.score.toFixed(6)),
    };
    bytes += Buffer.byteLength(JSON.stringify(hit));
    if (hits.length > 0 && bytes > TRACE_PAGE_BYTES) break;
    hits.push(hit);
  }
  const next = query.offset + hits.length;
  const more = rows.length > hits.length && next <= MAX_OFFSET;
  return {
    query: query.text,
    match: query.match,
    hits,
    next_cursor: more ? Buffer.from(JSON.stringify({ o: next, h: key, m: query.match })).toString("base64url") : null,
  };
}
