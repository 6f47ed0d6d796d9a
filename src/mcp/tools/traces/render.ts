/**
 * Text content (tool.ts `render`) of memory_trace_add and memory_trace_search, and the concise structured content
 * of memory_trace_search: hits cut to {@link TRACE_SHOWN_CHARS} characters, small metadata only, no scores.
 */
import { lines, oneLine } from "../../render.ts";

type Out = { [key: string]: any };

/** Content characters of a hit shown by default (detailed: up to the 4,000 the search keeps). */
export const TRACE_SHOWN_CHARS = 600;
/** Metadata kept by default when its JSON is at most this long (characters); larger metadata is left out. */
const METADATA_CHARS = 300;

/** memory_trace_add's text. */
export function renderTraceAdd(out: Out): string {
  return lines([
    `Recorded trace ${out.trace_id} (${out.kind}${out.session ? `, session ${out.session}` : ""}, ${out.content_chars} characters) at ${out.created_at}.`,
    ...(out.warnings as string[]).map((w) => `Warning: ${oneLine(w, 300)}`),
  ]);
}

/** A hit as the concise content and the text show it. */
function shortHit(h: Out): Out {
  const cut = h.content.length > TRACE_SHOWN_CHARS;
  const meta = JSON.stringify(h.metadata ?? {});
  return {
    trace_id: h.trace_id,
    kind: h.kind,
    ...(h.session ? { session: h.session } : {}),
    content: cut ? `${h.content.slice(0, TRACE_SHOWN_CHARS - 1)}…` : h.content,
    truncated: cut || h.truncated,
    content_chars: h.content_chars,
    ...(meta !== "{}" && meta.length <= METADATA_CHARS ? { metadata: h.metadata } : {}),
    created_at: h.created_at,
  };
}

/** memory_trace_search's concise content: hits cut, small metadata, no scores. */
export function conciseTraceSearch(out: Out): Out {
  const { next_cursor, ...rest } = out;
  return { ...rest, hits: (out.hits as Out[]).map(shortHit), ...(next_cursor ? { next_cursor } : {}) };
}

/** Metadata as `key=value` pairs (a nested value as its JSON). */
function metadataText(m: Record<string, unknown>): string {
  return Object.entries(m)
    .map(([k, v]) => `${k}=${typeof v === "string" ? v : JSON.stringify(v)}`)
    .join(", ");
}

/** memory_trace_search's text: one block per hit (newest or best first) and the cursor of the next page. */
export function renderTraceSearch(out: Out): string {
  const how = {
    fulltext: "full-text",
    trigram: "trigram (no word matched; spelling-tolerant)",
    recent: "newest first",
  };
  const hits = (out.hits as Out[]).map(shortHit);
  const cut = hits.some((h) => h.truncated);
  return lines([
    hits.length
      ? `${hits.length} trace(s)${out.query ? ` for “${oneLine(out.query, 200)}”` : ""}, ${how[out.match as keyof typeof how] ?? out.match}:`
      : `No trace matches${out.query ? ` “${oneLine(out.query, 200)}”` : ""}.`,
    ...hits.map((h) => {
      const meta = h.metadata ? `\n  metadata: ${metadataText(h.metadata)}` : "";
      const len = h.truncated ? ` [cut; ${h.content_chars} characters in all]` : "";
      return `- trace ${h.trace_id} · ${h.kind}${h.session ? ` · session ${h.session}` : ""} · ${h.created_at}\n  ${h.content.replace(/\n+/g, "\n  ")}${len}${meta}`;
    }),
    cut ? 'Cut traces: response_format "detailed" shows up to 4,000 characters and all metadata.' : "",
    out.next_cursor
      ? `More: call memory_trace_search again with cursor "${out.next_cursor}" (same query and filters).`
      : "",
  ]);
}
