/**
 * dedup_pairs (issue 21 item 1): how right dedup and verification are about meaning.
 * 1. The labelled pair set (tests/dedup/pair-set.jsonl, 553 pairs, Russian and English, ≥ 50 % real candidate
 *    pairs of the fixtures corpus): both texts embedded by the local lexical embedder through its port, each pair
 *    decided by domain/meaning/dedup.ts under the lexical policy, its relation (`kind`: merge, corroborate,
 *    contradict, supersede, separate) compared with the label; precision and recall per label on the tune half and
 *    on the frozen check half (split by hash before any rule was changed).
 * 2. The false-contested share: the fixtures corpus verified in process (bench/lib/verified-fixtures.ts), and the
 *    committed labelled sample of it (tests/dedup/contested-labels.jsonl, made by bench/sample-contested.ts and
 *    labelled by reading): the share of sampled atoms that are `contested` without a real conflict. The run also
 *    counts the atoms contested now and how many of them the sample does not hold (the sample is then stale).
 * 3. The failure as reported, at corpus scale: a synthetic catalogue (bench/lib/catalogue.ts: 40 documents of
 *    numbered items — "Widget 5 weighs 22 kilograms.", «Датчик 12 показывает 40 градусов.» — some restated with
 *    another value), ingested into a fresh PGlite store and verified: statement atoms contested without a conflict,
 *    and conflicts found (truth by construction).
 * A neural embedder is not measured here (no Ollama on the reference machine): its policy merges paraphrases.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { LexicalHashEmbedder } from "../../src/adapters/embedded/lexical-embedder.ts";
import { decidePair, dedupPolicy } from "../../src/domain/meaning/dedup.ts";
import { setLogLevel } from "../../src/log.ts";
import { PAIR_SET, type SetPair } from "../../tests/dedup/pair-set.ts";
import { dot } from "../../tests/dedup/cosines.ts";
import { measureCatalogue } from "../lib/catalogue.ts";
import { pgliteServices, ROOT } from "../lib/env.ts";
import { type HalfScores, scoreHalf } from "../lib/pair-scores.ts";
import type { Benchmark, BenchOutcome, SummaryRow } from "../lib/report.ts";
import { verifiedFixtures } from "../lib/verified-fixtures.ts";

/** One labelled atom of the false-contested sample. */
interface ContestedLabel {
  id: number;
  status: string;
  content: string;
  label: "contested-right" | "contested-wrong" | "not-contested";
}

const LABELS_FILE = join(ROOT, "tests", "dedup", "contested-labels.jsonl");

function readLabels(): ContestedLabel[] {
  return readFileSync(LABELS_FILE, "utf8")
    .split("\n")
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as ContestedLabel);
}

async function pairScores(): Promise<{ tune: HalfScores; check: HalfScores; threshold: number }> {
  const embedder = new LexicalHashEmbedder();
  const policy = dedupPolicy(embedder);
  const vs = await embedder.embedDocuments(PAIR_SET.flatMap((p) => [p.a, p.b]));
  const cosine = new Map<SetPair, number>(PAIR_SET.map((p, i) => [p, dot(vs[2 * i], vs[2 * i + 1])]));
  const kindOf = (p: SetPair) => decidePair(p.a, p.b, cosine.get(p)!, policy).kind;
  const half = (h: "tune" | "check") => PAIR_SET.filter((p) => p.half === h);
  return {
    tune: scoreHalf(half("tune"), kindOf),
    check: scoreHalf(half("check"), kindOf),
    threshold: policy.threshold,
  };
}

const fmt = (x: number | null) => (x === null ? "—" : x.toFixed(3));

function pairRows(name: "tune" | "check", s: HalfScores): SummaryRow[] {
  const l = (k: string) => s.labels.find((x) => x.label === k)!;
  const c = l("contradict");
  const m = l("merge");
  const rest = s.labels
    .filter((x) => x.label !== "contradict" && x.label !== "merge")
    .map((x) => `${x.label} ${fmt(x.precision)} / ${fmt(x.recall)}`)
    .join("; ");
  const target = name === "check";
  return [
    {
      metric: `pair set, ${name} half (${s.pairs} pairs): contradict precision / recall (n=${c.support})`,
      value: `${fmt(c.precision)} / ${fmt(c.recall)}`,
      target: target ? "≥ 0.95 / ≥ 0.85" : undefined,
    },
    {
      metric: `pair set, ${name} half: merge precision / recall (n=${m.support})`,
      value: `${fmt(m.precision)} / ${fmt(m.recall)}`,
      target: target ? "precision ≥ 0.98" : undefined,
    },
    { metric: `pair set, ${name} half: other labels, precision / recall`, value: rest },
  ];
}

/** The dedup_pairs benchmark (see module doc). */
export const dedupPairsBench: Benchmark = {
  name: "dedup_pairs",
  description:
    "meaning-true dedup: precision/recall per label on the labelled pair set (tune and frozen check half), false-contested share after memory_verify on the fixtures",
  async run(): Promise<BenchOutcome> {
    setLogLevel("warn");
    const { tune, check, threshold } = await pairScores();
    const labels = readLabels();
    const wrong = labels.filter((l) => l.label === "contested-wrong").length;
    const share = labels.length ? wrong / labels.length : null;
    const corpus = await verifiedFixtures();
    const contestedNow = corpus.atoms.filter((a) => a.status === "contested");
    const sampled = new Set(labels.map((l) => l.content.replace(/…$/u, "")));
    const catalogue = await measureCatalogue(() => pgliteServices());
    const unlabelled = contestedNow.filter((a) => !sampled.has(a.content.slice(0, 600))).length;
    const summary: SummaryRow[] = [
      ...pairRows("check", check),
      ...pairRows("tune", tune),
      {
        metric: `false contested, labelled sample of ${labels.length} atoms (fixtures after memory_verify)`,
        value: share === null ? null : `${(share * 100).toFixed(1)}% (${wrong} of ${labels.length})`,
        target: "≤ 1 %",
      },
      {
        metric: `contested now / atoms, fixtures after memory_verify (not in the labelled sample)`,
        value: `${contestedNow.length} / ${corpus.atoms.length} (${unlabelled})`,
      },
      {
        metric: `synthetic catalogue (${catalogue.documents} docs, ${catalogue.statement_atoms} statement atoms): wrongly contested / conflicts found`,
        value: `${(catalogue.false_contested_share * 100).toFixed(1)}% (${catalogue.contested_wrong}) / ${catalogue.contested_right} of ${catalogue.conflicting_atoms}`,
        target: "≤ 1 % / all",
      },
    ];
    const origin = (o: string) => PAIR_SET.filter((p) => p.origin === o).length;
    return {
      params: {
        pairs: PAIR_SET.length,
        origins: { fixtures: origin("fixtures"), suite: origin("suite"), written: origin("written") },
        languages: {
          ru: PAIR_SET.filter((p) => p.lang === "ru").length,
          en: PAIR_SET.filter((p) => p.lang === "en").length,
        },
        split: 'SHA-256 of "pegas-pairs-v1:" + a + "|" + b, first byte even = tune (tests/dedup/pair-set.ts)',
        embedder: "local lexical (LexicalHashEmbedder), its policy",
        threshold,
        contested_sample: "tests/dedup/contested-labels.jsonl (bench/sample-contested.ts)",
        catalogue:
          "bench/lib/catalogue.ts: makeCatalogue() defaults (40 docs × 20 lines, 8 % conflicts, 8 % repeats, seed 21)",
      },
      results: {
        check,
        tune,
        contested: {
          sample: labels.length,
          wrong,
          right: labels.filter((l) => l.label === "contested-right").length,
          share,
          contested_now: contestedNow.length,
          unlabelled_contested_now: unlabelled,
          atoms: corpus.atoms.length,
          verify_checks: corpus.checked,
          verdicts: corpus.verdicts,
          verify_ms: corpus.verify_ms,
        },
        catalogue,
      },
      summary,
    };
  },
};
