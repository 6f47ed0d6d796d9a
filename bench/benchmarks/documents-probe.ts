/**
 * Child process of the documents benchmark: parses every fixture of one format once (after one warm-up parse)
 * and prints `{"max_rss_mib": …}` (VmHWM) on stdout, so that the peak RSS of parsing that format is measured alone.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { selectParser } from "../../src/adapters/parsers/select.ts";
import { PARSE_LIMITS } from "./documents.ts";
import { SHARED } from "../lib/env.ts";

const kind = process.argv[2] ?? "pdf";
const dir = join(SHARED, "fixtures", kind);
for (const name of readdirSync(dir).sort()) {
  const bytes = new Uint8Array(readFileSync(join(dir, name)));
  await selectParser({ bytes, name })
    .parse({ bytes, uri: `file:///${name}` }, PARSE_LIMITS)
    .catch(() => null);
}
// VmHWM: the resident set's high-water mark, in kB (proc(5)).
const hwm = /VmHWM:\s+(\d+) kB/.exec(readFileSync("/proc/self/status", "utf8"))?.[1];
process.stdout.write(`${JSON.stringify({ max_rss_mib: hwm ? Math.round(Number(hwm) / 1024) : null })}\n`);
