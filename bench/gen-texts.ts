/**
 * `bun bench/gen-texts.ts <dir> [MB]`: writes the generated inputs of the linear-ingest benchmark into `dir`
 * (bench/lib/large-texts.ts): `natural-<MB>mb.txt`, `repetitive-<MB>mb.txt` and `one-line-<MB>mb.txt`, each of about
 * MB × 10⁶ bytes (default 20). The same seed gives the same bytes on every machine.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { naturalText, oneLineText, repetitiveText } from "./lib/large-texts.ts";

const [dir, mbArg] = process.argv.slice(2);
if (!dir) {
  process.stderr.write("usage: bun bench/gen-texts.ts <dir> [MB]\n");
  process.exit(2);
}
const mb = Number(mbArg ?? 20);
if (!(mb > 0)) {
  process.stderr.write(`MB must be a positive number, not '${mbArg}'\n`);
  process.exit(2);
}
mkdirSync(dir, { recursive: true });
const bytes = Math.round(mb * 1e6);
for (const [name, make] of [
  ["natural", naturalText],
  ["repetitive", repetitiveText],
  ["one-line", oneLineText],
] as const) {
  const path = join(dir, `${name}-${mb}mb.txt`);
  writeFileSync(path, make(bytes));
  process.stderr.write(`${path}\n`);
}
