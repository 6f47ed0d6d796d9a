/**
 * BEIR-layout retrieval sets (corpus.jsonl, queries.jsonl, qrels/test.tsv) and nDCG@k as BEIR and pytrec_eval
 * compute it: gains from the qrels, log2 discount, ideal DCG from the qrels sorted by gain.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { SHARED } from "./env.ts";

/** Parses a JSON-lines file. */
export function readJsonl(path: string): Array<Record<string, any>> {
  return readFileSync(path, "utf8")
    .split("\n")
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l));
}

/** A retrieval set: corpus entries, test queries that have judgments, and the judgments (query → doc → gain). */
export interface BeirSet {
  name: string;
  corpus: Array<{ id: string; title: string; text: string }>;
  queries: Array<{ id: string; text: string }>;
  /** Queries without test judgments (used for warm-up). */
  otherQueries: Array<{ id: string; text: string }>;
  qrels: Map<string, Map<string, number>>;
}

/** Loads ../shared/bench/<name> (BEIR layout); keeps only the queries that have test judgments. */
export function loadBeir(name: string): BeirSet {
  const dir = join(SHARED, "bench", name);
  const qrels = new Map<string, Map<string, number>>();
  for (const line of readFileSync(join(dir, "qrels/test.tsv"), "utf8").split("\n").slice(1)) {
    const [q, d, s] = line.trim().split("\t");
    if (!q || !d) continue;
    if (!qrels.has(q)) qrels.set(q, new Map());
    qrels.get(q)!.set(d, Number(s));
  }
  const corpus = readJsonl(join(dir, "corpus.jsonl")).map((d) => ({
    id: String(d._id),
    title: String(d.title ?? ""),
    text: String(d.text ?? ""),
  }));
  const all = readJsonl(join(dir, "queries.jsonl")).map((q) => ({ id: String(q._id), text: String(q.text) }));
  return {
    name,
    corpus,
    qrels,
    queries: all.filter((q) => qrels.has(q.id)),
    otherQueries: all.filter((q) => !qrels.has(q.id)),
  };
}

/** nDCG@k of a ranked list of document ids against one query's judgments (0 when it has no positive gain). */
export function ndcgAt(ranked: string[], judged: Map<string, number>, k = 10): number {
  let dcg = 0;
  ranked.slice(0, k).forEach((id, i) => {
    dcg += (judged.get(id) ?? 0) / Math.log2(i + 2);
  });
  const ideal = [...judged.values()]
    .filter((g) => g > 0)
    .sort((a, b) => b - a)
    .slice(0, k);
  const idcg = ideal.reduce((s, g, i) => s + g / Math.log2(i + 2), 0);
  return idcg > 0 ? dcg / idcg : 0;
}
