/**
 * `bun bench/dump-dedup-pairs.ts [out.json]`: dumps the candidate pairs that dedup and verification meet on the shared
 * fixtures corpus (tests/support/fixtures-store.ts: the twelve text/PDF/EPUB/HTML fixtures ingested with the embedded
 * defaults), so that a sample of them can be labelled by reading (tests/dedup/labelled-pairs.jsonl).
 *
 * Per live atom: its verification neighbours (the k = VERIFY_NEIGHBOURS nearest by the stored embedding, as
 * core/verify/step.ts asks the vector index) and its dedup candidates (the lexical projection's top
 * CANDIDATES_PER_DRAFT of the same type, as core/knowledge/dedup.ts asks for the lexical embedder). A pair is kept
 * when its cosine reaches the embedder's near-duplicate threshold (below it neither dedup nor the judge reads the
 * words). Each pair is written once (lower atom id first) with its cosine, both fixture paths, who met it
 * (`dedup`, `verify`) and today's decision. Default output: .tmp/dedup-candidates.json (not committed: the labelled
 * sample is).
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { CANDIDATES_PER_DRAFT, policyOf } from "../src/core/knowledge/dedup.ts";
import { VERIFY_NEIGHBOURS } from "../src/core/verify/limits.ts";
import { decidePair } from "../src/domain/meaning/dedup.ts";
import { setLogLevel } from "../src/log.ts";
import type { VerifySubject } from "../src/ports/store/verification.ts";
import { openFixturesStore } from "../tests/support/fixtures-store.ts";
import { mulberry32 } from "../tests/support/prng.ts";
import { allAtomRows } from "./lib/atom-rows.ts";

/** One candidate pair as dumped. */
export interface CandidatePair {
  a: string;
  b: string;
  ids: [number, number];
  type: string;
  cosine: number;
  sources: [string, string];
  met_by: Array<"dedup" | "verify">;
  decision: string;
  reason: string;
}

/** Longest text (characters) of a pair taken whole into the sample: sentence-sized atoms, the ones meaning rules read. */
const SHORT = 400;
/** Chunk-sized pairs added to the sample: the closest ones, and a seeded random draw per language. */
const LONG_TOP = 20;
const LONG_RANDOM = { en: 20, ru: 20 };

/**
 * The pairs to label: every pair whose texts are both shorter than {@link SHORT} characters, the {@link LONG_TOP}
 * closest longer ones, and a seeded random draw of the other longer ones per language ({@link LONG_RANDOM}).
 */
export function samplePairs(pairs: CandidatePair[]): CandidatePair[] {
  const short = pairs.filter((p) => Math.max(p.a.length, p.b.length) < SHORT);
  const long = pairs.filter((p) => Math.max(p.a.length, p.b.length) >= SHORT).sort((x, y) => y.cosine - x.cosine);
  const rest = long.slice(LONG_TOP);
  const random = mulberry32(20261202);
  const drawn: CandidatePair[] = [];
  for (const [lang, n] of Object.entries(LONG_RANDOM)) {
    const pool = rest.filter((p) => /\p{Script=Cyrillic}/u.test(p.a) === (lang === "ru"));
    for (let i = 0; i < n && pool.length; i++) drawn.push(...pool.splice(Math.floor(random() * pool.length), 1));
  }
  return [...short, ...long.slice(0, LONG_TOP), ...drawn];
}

const LIVE = ["candidate", "verified", "contested"] as const;

function dot(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i] * b[i];
  return s;
}

/** The fixture path (under shared/fixtures) of an atom's first evidence document, or its URI. */
const fixtureOf = (s: VerifySubject) => {
  const uri = s.sources[0]?.uri ?? "";
  const at = uri.lastIndexOf("/fixtures/");
  return at >= 0 ? uri.slice(at + "/fixtures/".length) : uri;
};

async function main(): Promise<void> {
  setLogLevel("warn");
  const out = process.argv[2] ?? ".tmp/dedup-candidates.json";
  const store = await openFixturesStore();
  try {
    const { services } = store;
    await services.projection.sync();
    const policy = policyOf(services);
    const atoms = (await allAtomRows(services.changeFeed)).filter((a) =>
      (LIVE as readonly string[]).includes(a.status),
    );
    const model = services.embedder.model;
    const pairs = new Map<string, { ids: [number, number]; cosine: number; met: Set<"dedup" | "verify"> }>();
    const note = (x: number, y: number, cosine: number, by: "dedup" | "verify") => {
      if (x === y || !(cosine >= policy.threshold)) return;
      const ids: [number, number] = x < y ? [x, y] : [y, x];
      const key = ids.join(":");
      const p = pairs.get(key) ?? { ids, cosine, met: new Set() };
      p.met.add(by);
      pairs.set(key, p);
    };
    for (let g = 0; g < atoms.length; g += 256) {
      const group = atoms.slice(g, g + 256);
      const vectors = await services.embeddingStore.embeddingsOf(
        group.map((a) => a.id),
        model,
      );
      for (const a of group) {
        const v = vectors.get(a.id);
        if (!v) continue;
        for (const h of await services.vectorIndex.search(v, VERIFY_NEIGHBOURS + 1, { status: [...LIVE] }))
          note(a.id, h.atomId, h.score, "verify");
        const lexical = services.projection.lexical(
          a.lexemes,
          CANDIDATES_PER_DRAFT + 1,
          { types: [a.type], status: [...LIVE] },
          { neighbours: false }, // as dedup asks
        );
        const others = await services.embeddingStore.embeddingsOf(
          lexical.map((h) => h.atomId),
          model,
        );
        for (const h of lexical) {
          const w = others.get(h.atomId);
          if (w) note(a.id, h.atomId, dot(v, w), "dedup");
        }
      }
    }
    const ids = [...new Set([...pairs.values()].flatMap((p) => p.ids))];
    const subjects = new Map<number, VerifySubject>();
    for (let i = 0; i < ids.length; i += 500)
      for (const s of await services.verification.verificationSubjects(ids.slice(i, i + 500))) subjects.set(s.id, s);
    const dumped: CandidatePair[] = [];
    for (const p of pairs.values()) {
      const [x, y] = [subjects.get(p.ids[0]), subjects.get(p.ids[1])];
      if (!x || !y) continue;
      const a = x.content || x.claim;
      const b = y.content || y.claim;
      const d = decidePair(a, b, p.cosine, policy);
      dumped.push({
        a,
        b,
        ids: p.ids,
        type: x.type === y.type ? x.type : `${x.type}/${y.type}`,
        cosine: Number(p.cosine.toFixed(4)),
        sources: [fixtureOf(x), fixtureOf(y)],
        met_by: [...p.met].sort(),
        decision: d.outcome,
        reason: d.reason,
      });
    }
    dumped.sort((x, y) => x.ids[0] - y.ids[0] || x.ids[1] - y.ids[1]);
    mkdirSync(dirname(out), { recursive: true });
    writeFileSync(out, JSON.stringify({ atoms: atoms.length, threshold: policy.threshold, pairs: dumped }, null, 1));
    const sample = samplePairs(dumped);
    writeFileSync(`${out.replace(/\.json$/, "")}-sample.jsonl`, `${sample.map((p) => JSON.stringify(p)).join("\n")}\n`);
    console.log(`sample of ${sample.length} pairs to label → ${out.replace(/\.json$/, "")}-sample.jsonl`);
    const by = (k: string) => dumped.filter((p) => p.decision === k).length;
    console.log(
      `${atoms.length} atoms, ${dumped.length} candidate pairs at cosine >= ${policy.threshold}: ` +
        `${by("merge")} merge, ${by("contradiction")} contradiction, ${by("keep")} keep → ${out}`,
    );
  } finally {
    await store.dispose();
  }
}

await main();
