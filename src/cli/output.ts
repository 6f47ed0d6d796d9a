/** CLI output: JSON or human-readable text, on stdout (the CLI's own channel; the MCP server never uses these). */
import type { SearchResult } from "../core/search/search.ts";
import { formatLocator } from "../domain/locator.ts";
import type { ProgressFn } from "../domain/progress.ts";

/** Writes one line to stdout. */
export function out(text: string): void {
  process.stdout.write(text.endsWith("\n") ? text : `${text}\n`);
}

/** Writes a value as pretty JSON. */
export function outJson(value: unknown): void {
  out(JSON.stringify(value, null, 2));
}

/** Formats search hits with their citations. */
export function formatSearch(r: SearchResult): string {
  if (r.degraded) process.stderr.write(`warning: degraded search: ${r.degraded}\n`);
  if (!r.hits.length) return `no hits for «${r.query}»`;
  const rows = r.hits.map((h, i) => {
    const excerpt = h.content.replace(/\s+/g, " ").slice(0, 240);
    const cites = h.citations.map(
      (c) => `     ↳ ${c.title ?? c.uri} — ${c.uri}${formatLocator(c.locator) ? `, ${formatLocator(c.locator)}` : ""}`,
    );
    return [
      `${i + 1}. [atom ${h.atom_id}, ${h.type}, ${h.status}, score ${h.score.toFixed(4)}]`,
      `   ${excerpt}${h.content.length > 240 ? "…" : ""}`,
      ...cites,
    ].join("\n");
  });
  return rows.join("\n\n") + (r.next_cursor ? "\n\n(more hits: raise --k)" : "");
}

/** Where a progress bar draws: stderr, or a stand-in (tests). */
export interface ProgressStream {
  isTTY?: boolean;
  columns?: number;
  write(text: string): unknown;
}

/**
 * A progress display on stderr fed the very numbers MCP progress notifications carry (domain/progress.ts). On a
 * terminal: a bar redrawn in place at most every 100 ms (`label [#####-----]  42% message`; the count instead of a
 * percentage while the total is unknown), erased by `done()`. Elsewhere (a pipe, a log): one line per `everyMs`
 * (`label: message [42%]`), the first at once. Returns the callback to hand to the run and `done`.
 */
export function progressBar(
  label: string,
  opts: { everyMs?: number; stream?: ProgressStream } = {},
): { onProgress: ProgressFn; done: () => void } {
  const stream = opts.stream ?? process.stderr;
  const tty = Boolean(stream.isTTY);
  const everyMs = tty ? 100 : (opts.everyMs ?? 2000);
  let lastAt = Number.NEGATIVE_INFINITY;
  let drawn = false;
  const onProgress: ProgressFn = (progress, total, message) => {
    const now = Date.now();
    if (now - lastAt < everyMs && !(total !== undefined && progress >= total)) return;
    lastAt = now;
    const share = total ? `${String(Math.floor((100 * progress) / total)).padStart(3)}%` : `${progress}`;
    if (!tty) {
      stream.write(`${label}: ${message} [${share.trim()}]\n`);
      return;
    }
    const width = 24;
    const filled = total ? Math.round((width * Math.min(progress, total)) / total) : 0;
    const head = `${label} [${"#".repeat(filled)}${"-".repeat(width - filled)}] ${share} `;
    const room = Math.max(0, (stream.columns || 80) - head.length - 1);
    stream.write(`\r\x1b[2K${head}${[...message].slice(0, room).join("")}`);
    drawn = true;
  };
  const done = () => {
    if (drawn) stream.write("\r\x1b[2K");
    drawn = false;
  };
  return { onProgress, done };
}
