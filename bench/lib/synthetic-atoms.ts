/**
 * Atoms made of real text for the latency benchmark: the sentences of the SciFact corpus (a title counts as a
 * sentence), then adjacent-sentence pairs, then adjacent triples until the target count, all distinct by atom
 * identity, shuffled with a fixed seed; bulk-loaded through the store's `commitIngest`, ~1000 atoms per plan
 * (one document per plan), so that loading 100k atoms takes minutes, not the hours of 100k ingests.
 */
import { join } from "node:path";
import { atomContentHash, draftAtom } from "../../src/core/knowledge/atoms.ts";
import type { Services } from "../../src/core/services.ts";
import { sha256Hex } from "../../src/domain/hash.ts";
import { firstSentence } from "../../src/domain/text.ts";
import type { IngestPlan } from "../../src/ports/store/ingest.ts";
import { readJsonl } from "./beir.ts";
import { SHARED } from "./env.ts";
import { mulberry32 } from "../../tests/support/prng.ts";

/** Atoms per commitIngest plan. */
export const PLAN_ATOMS = 1000;

/** The atom texts and how many of each kind were taken. */
export interface AtomTexts {
  texts: string[];
  kinds: { sentences: number; pairs: number; triples: number };
}

const rng = mulberry32;

/** Builds `target` distinct atom texts from ../shared/bench/scifact/corpus.jsonl (see module doc). */
export function buildAtomTexts(target: number, seed = 42): AtomTexts {
  const seg = new Intl.Segmenter("en", { granularity: "sentence" });
  const docs = readJsonl(join(SHARED, "bench/scifact/corpus.jsonl")).map((d) =>
    [String(d.title ?? ""), ...[...seg.segment(String(d.text ?? ""))].map((s) => s.segment)]
      .map((s) => s.trim())
      .filter((s) => s.length >= 10),
  );
  const seen = new Set<string>();
  const texts: string[] = [];
  const kinds = { sentences: 0, pairs: 0, triples: 0 };
  const take = (text: string, kind: keyof typeof kinds) => {
    if (texts.length >= target) return;
    const h = atomContentHash("text", text);
    if (seen.has(h)) return;
    seen.add(h);
    texts.push(text);
    kinds[kind]++;
  };
  for (const ss of docs) for (const s of ss) take(s, "sentences");
  for (const ss of docs) for (let i = 0; i + 1 < ss.length; i++) take(`${ss[i]} ${ss[i + 1]}`, "pairs");
  for (const ss of docs) for (let i = 0; i + 2 < ss.length; i++) take(`${ss[i]} ${ss[i + 1]} ${ss[i + 2]}`, "triples");
  const rand = rng(seed);
  for (let i = texts.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [texts[i], texts[j]] = [texts[j], texts[i]];
  }
  return { texts, kinds };
}

/** Names the synthetic documents of a bulk load: `uri` prefix (`<uri>:<docNo>`) and title prefix. */
export interface PlanSource {
  uri: string;
  title: string;
}

const SCIFACT_SOURCE: PlanSource = { uri: "bench:scifact-sentences", title: "SciFact sentences" };

/**
 * One plan: a synthetic document (`<source.uri>:<docNo>`) whose atoms (type text, claim = first sentence, vectors
 * from the services' embedder) each cite their char range in the concatenation of `texts`.
 */
export async function planOf(
  services: Services,
  texts: string[],
  docNo: number,
  source: PlanSource = SCIFACT_SOURCE,
): Promise<IngestPlan> {
  const drafts = texts.map((t) => draftAtom({ type: "text", claim: firstSentence(t), content: t, confidence: 0.5 }));
  const vectors = await services.embedder.embedDocuments(drafts.map((d) => d.searchText));
  const body = texts.join("\n");
  let at = 0;
  const atoms = drafts.map((d, i) => {
    const locator = { char_start: at, char_end: at + texts[i].length };
    at += texts[i].length + 1;
    return { atom: { ...d, vector: vectors[i] }, citation: { locator, quote: d.claim } };
  });
  return {
    document: {
      kind: "text",
      uri: `${source.uri}:${docNo}`,
      title: `${source.title}, part ${docNo}`,
      contentHash: sha256Hex(body),
      byteSize: Buffer.byteLength(body),
      authority: 0.5,
      metadata: { bench: true },
    },
    chunks: [],
    atoms,
    model: services.embedder.model,
  };
}

/**
 * Commits `texts[from, to)` in plans of {@link PLAN_ATOMS}; returns the atoms created and the ms spent embedding
 * and committing. @throws when a plan creates fewer atoms than it holds (the texts must be distinct and new).
 */
export async function loadAtoms(
  services: Services,
  texts: string[],
  from: number,
  to: number,
): Promise<{ created: number; ms: number }> {
  const t0 = performance.now();
  let created = 0;
  for (let i = from; i < to; i += PLAN_ATOMS) {
    const part = texts.slice(i, Math.min(i + PLAN_ATOMS, to));
    const commit = await services.ingestWrites.commitIngest(await planOf(services, part, i / PLAN_ATOMS));
    if (commit.atomsCreated !== part.length)
      throw new Error(`plan ${i / PLAN_ATOMS} created ${commit.atomsCreated} of ${part.length} atoms`);
    created += commit.atomsCreated;
  }
  return { created, ms: performance.now() - t0 };
}
