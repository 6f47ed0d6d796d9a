/**
 * Structured logger that writes one JSON object per line to stderr only: stdout belongs to the MCP stdio
 * transport and must carry JSON-RPC alone.
 */
export type LogLevel = "debug" | "info" | "warn" | "error" | "silent";

const ORDER: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 99 };

let threshold: number = ORDER.info;

/** Sets the lowest level that is written (default `info`). */
export function setLogLevel(level: LogLevel): void {
  threshold = ORDER[level];
}

function write(level: LogLevel, msg: string, fields?: Record<string, unknown>): void {
  if (ORDER[level] < threshold) return;
  const line: Record<string, unknown> = { t: new Date().toISOString(), level, msg, ...fields };
  if (fields?.err instanceof Error) {
    const e = fields.err as Error & { code?: string };
    line.err = { name: e.name, message: e.message, code: e.code, cause: String(e.cause ?? "") || undefined };
  }
  process.stderr.write(`${JSON.stringify(line)}\n`);
}

/** The process-wide logger; every method writes to stderr. */
export const log = {
  debug: (msg: string, fields?: Record<string, unknown>) => write("debug", msg, fields),
  info: (msg: string, fields?: Record<string, unknown>) => write("info", msg, fields),
  warn: (msg: string, fields?: Record<string, unknown>) => write("warn", msg, fields),
  error: (msg: string, fields?: Record<string, unknown>) => write("error", msg, fields),
};
