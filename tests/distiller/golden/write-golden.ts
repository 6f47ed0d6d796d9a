/**
 * `bun tests/distiller/golden/write-golden.ts`: writes tests/distiller/golden/ingest-golden.json, the digests of
 * chunking, distilling and embedding every input of ingest-digest.ts. Generated once from the code BEFORE a
 * speed-up (the first version: main at 7694bde, before the ingest-distill CPU work) and compared by
 * tests/distiller/ingest-golden.test.ts. Regenerate it only when an output is meant to change (a new distiller rule,
 * a parser fix, another embedder): run this script on the changed code and commit the file with the change that
 * explains it.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { digestInput, type InputDigest, inputNames } from "./ingest-digest.ts";

const out: Record<string, InputDigest> = {};
for (const name of inputNames()) {
  out[name] = await digestInput(name);
  process.stderr.write(`${name}: ${out[name].chunks} chunks, ${out[name].drafts} drafts\n`);
}
writeFileSync(join(import.meta.dir, "ingest-golden.json"), `${JSON.stringify(out, null, 2)}\n`);
