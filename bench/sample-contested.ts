/**
 * `bun bench/sample-contested.ts [out.jsonl]`: the sample of atoms to label for the false-contested share (issue 21
 * item 1). Verifies the shared fixtures corpus in process (bench/lib/verified-fixtures.ts), then takes every
 * `contested` atom and a seeded random draw of the other atoms up to {@link SAMPLE} in all, and writes one JSON line
 * per atom: id, status, content (cut to 600 characters), source fixture and its `contradicts` partners. Each line is
 * then labelled by reading (tests/dedup/contested-labels.jsonl, `label`: `contested-right` when the atom really
 * conflicts with a partner, `contested-wrong` when it does not, `not-contested` for the others). Default output:
 * .tmp/contested-sample.jsonl.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { setLogLevel } from "../src/log.ts";
import { verifiedFixtures } from "./lib/verified-fixtures.ts";
import { mulberry32 } from "../tests/support/prng.ts";

/** Atoms in the sample: all contested ones, then random others up to this many. */
export const SAMPLE = 220;

async function main(): Promise<void> {
  setLogLevel("warn");
  const out = process.argv[2] ?? ".tmp/contested-sample.jsonl";
  const corpus = await verifiedFixtures();
  const contested = corpus.atoms.filter((a) => a.status === "contested");
  const others = corpus.atoms.filter((a) => a.status !== "contested").sort((x, y) => x.id - y.id);
  const random = mulberry32(21);
  const drawn = [];
  while (drawn.length < Math.max(0, SAMPLE - contested.length) && others.length)
    drawn.push(...others.splice(Math.floor(random() * others.length), 1));
  const cut = (s: string) => (s.length > 600 ? `${s.slice(0, 600)}…` : s);
  const lines = [...contested, ...drawn].map((a) =>
    JSON.stringify({
      id: a.id,
      status: a.status,
      source: a.source,
      content: cut(a.content),
      contradicts: a.contradicts.map((c) => ({ id: c.id, content: cut(c.content) })),
    }),
  );
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, `${lines.join("\n")}\n`);
  console.log(
    `${corpus.atoms.length} atoms verified (${corpus.checked} checks, verdicts ${JSON.stringify(corpus.verdicts)}); ` +
      `${contested.length} contested; sample of ${lines.length} → ${out}`,
  );
}

if (import.meta.main) await main();
