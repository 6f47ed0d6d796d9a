/**
 * Dedup's pruning changes no decision. `mayRelate` (pair-class.ts) and `surelySeparate` (domain/meaning/dedup.ts)
 * may only say "separate" where the full decision says so: checked on every labelled pair (both orders), on book
 * sentences with edits that move them towards each rule (a negation, another number, a prefix, a word dropped, two
 * words swapped, the last word changed, a heading), and end to end: findDuplicates against the decision of every
 * candidate pair as it was made before the pruning, on a generated natural and a log-like text.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { heuristicDistiller } from "../../src/adapters/distiller/heuristic/index.ts";
import { LexicalHashEmbedder } from "../../src/adapters/embedded/lexical-embedder.ts";
import { chunkSections } from "../../src/core/documents/plan.ts";
import { distillChunks } from "../../src/core/documents/distill.ts";
import {
  batchCandidates,
  type DedupDraft,
  type DedupFinding,
  findDuplicates,
  MAX_RELATED,
  RELATED_MIN_COSINE,
} from "../../src/core/knowledge/dedup.ts";
import type { Services } from "../../src/core/services.ts";
import { decidePair, dedupPolicy, surelySeparate } from "../../src/domain/meaning/dedup.ts";
import { statementOf } from "../../src/domain/meaning/meaning.ts";
import { classifyStatements, mayRelate, surelyApart } from "../../src/domain/meaning/pair-class.ts";
import { sketchRest } from "../../src/domain/meaning/rest-sketch.ts";
import { mulberry32 } from "../support/prng.ts";
import { fixturePath } from "../support/shared.ts";
import { PAIR_SET } from "./pair-set.ts";
import { PAIRS } from "./pairs.ts";

const embedder = new LexicalHashEmbedder();
const policy = dedupPolicy(embedder);

/** Pairs where a bound (either) said "separate" and the full decision did not. */
function misses(pairs: Array<[string, string]>): {
  pruned: number;
  sketched: number;
  related: number;
  wrong: string[];
} {
  let [pruned, sketched, related] = [0, 0, 0];
  const wrong: string[] = [];
  for (const [a, b] of pairs) {
    const kind = classifyStatements(a, b, false).kind;
    if (kind !== "separate") related++;
    const apart = surelyApart(a, b);
    if (apart) sketched++;
    if (mayRelate(a, b) && !apart) continue;
    pruned++;
    if (kind !== "separate") wrong.push(`${kind}${apart ? " (sketch)" : ""}: ${a} | ${b}`);
  }
  return { pruned, sketched, related, wrong };
}

/** Texts whose rest sketch is not sure ⊆ rest ⊆ all, with what breaks it. */
function badSketches(texts: Iterable<string>): string[] {
  const bad: string[] = [];
  for (const t of texts) {
    const rest = new Set(statementOf(t).rest);
    const k = sketchRest(t, () => true);
    const notRest = k.sure.filter((x) => !rest.has(x));
    const notAll = [...rest].filter((x) => !k.all.has(x));
    if (notRest.length || notAll.length) bad.push(`${t} — sure, not rest: ${notRest}; rest, not all: ${notAll}`);
  }
  return bad;
}

function bookSentences(): string[] {
  const out: string[] = [];
  for (const rel of ["text/en_gutenberg_8868_botchan.txt", "text/ru_chekhov_palata_no6.txt"]) {
    const text = readFileSync(fixturePath(rel), "utf8").replace(/\s+/g, " ");
    const all = text.split(/(?<=[.!?…])\s+/u).filter((s) => s.length >= 30 && s.length <= 300);
    for (let i = 0; i < all.length; i += 7) out.push(all[i]);
  }
  return out;
}

/** Edits of a sentence towards each rule the bound must not miss. */
function edits(s: string, rand: () => number): string[] {
  const ws = s.split(" ");
  const k = 1 + Math.floor(rand() * Math.max(1, ws.length - 2));
  const swap = [...ws];
  [swap[k - 1], swap[k]] = [swap[k], swap[k - 1]];
  const ru = /[а-яё]/iu.test(s);
  return [
    [...ws.slice(0, k), ru ? "не" : "not", ...ws.slice(k)].join(" "),
    [...ws.slice(0, k), ru ? "не" : "un", ...ws.slice(k)].join(" ").replace(ru ? "не " : "un ", ru ? "не" : "un"),
    [...ws.slice(0, k), String(Math.floor(rand() * 100)), ...ws.slice(k)].join(" "),
    [...ws.slice(0, k), ...ws.slice(k + 1)].join(" "),
    swap.join(" "),
    [...ws.slice(0, -1), ru ? "Москва." : "Berlin."].join(" "),
    `Chapter ${k}. ${s}`,
    s.toLowerCase().replace(/[.!?…]$/u, ""),
    `${s} ${ws.slice(0, k).join(" ")}.`,
  ];
}

describe("the bound never misses a relation", () => {
  test("labelled pairs of the set and of the suite, both orders", () => {
    const pairs: Array<[string, string]> = [];
    for (const p of [...PAIR_SET, ...PAIRS]) pairs.push([p.a, p.b], [p.b, p.a]);
    expect(badSketches(pairs.flat())).toEqual([]);
    const r = misses(pairs);
    expect(r.wrong).toEqual([]);
    expect(r.sketched).toBeGreaterThan(20);
    expect(r.related).toBeGreaterThan(200);
    expect(r.pruned).toBeGreaterThan(50);
  });

  test("book sentences, their edits and random pairs", () => {
    const rand = mulberry32(21);
    const sentences = bookSentences();
    const pairs: Array<[string, string]> = [];
    for (const s of sentences) {
      for (const e of edits(s, rand)) pairs.push([s, e], [e, s]);
      pairs.push([s, sentences[Math.floor(rand() * sentences.length)]]);
    }
    expect(badSketches(pairs.flat())).toEqual([]);
    const r = misses(pairs);
    expect(r.wrong).toEqual([]);
    expect(r.sketched).toBeGreaterThan(300);
    expect(r.related).toBeGreaterThan(1000);
    expect(r.pruned).toBeGreaterThan(400);
  });

  test("surelySeparate agrees with decidePair at the lexical embedder's cosines", async () => {
    const pairs = PAIR_SET.map((p) => [p.a, p.b] as const);
    const vectors = await embedder.embedDocuments(pairs.flat());
    let sure = 0;
    pairs.forEach(([a, b], i) => {
      const [va, vb] = [vectors[2 * i], vectors[2 * i + 1]];
      let cosine = 0;
      for (let k = 0; k < va.length; k++) cosine += va[k] * vb[k];
      if (!surelySeparate(a, b, cosine, policy)) return;
      sure++;
      expect(decidePair(a, b, cosine, policy).kind).toBe("separate");
    });
    expect(sure).toBeGreaterThan(50);
  });
});

/** The findings as record() made them before the pruning: every candidate decided. */
function unpruned(drafts: DedupDraft[]): DedupFinding[] {
  return drafts.map((d, i) => {
    const f: DedupFinding = { links: [] };
    for (const { j, cosine } of batchCandidates(drafts, i, policy.threshold)) {
      const x = decidePair(drafts[j].content, d.content, cosine, policy);
      if (x.outcome === "merge") {
        if (!f.merge || cosine > f.merge.cosine) f.merge = { draftIndex: j, cosine, reason: x.reason };
      } else if (x.outcome === "contradiction") {
        f.links.push({ draftIndex: j, cosine, reason: x.reason, kind: "contradicts" });
      } else if (
        (x.kind === "corroborate" ||
          x.kind === "supersede" ||
          cosine >= Math.max(policy.threshold, RELATED_MIN_COSINE)) &&
        f.links.filter((l) => l.kind === "related").length < MAX_RELATED
      ) {
        f.links.push({ draftIndex: j, cosine, reason: x.reason, kind: "related" });
      }
    }
    return f;
  });
}

async function draftsOf(text: string, chunkChars: number): Promise<DedupDraft[]> {
  const doc = { kind: "text" as const, mediaType: "text/plain", title: null, metadata: {}, warnings: [] };
  const chunks = chunkSections({ ...doc, sections: [{ text, locator: {} }] }, chunkChars);
  const distilled = await distillChunks(heuristicDistiller, chunks, { title: "t" });
  const vectors = await embedder.embedDocuments(distilled.drafts.map((d) => d.draft.searchText));
  return distilled.drafts.map((d, i) => ({ ...d.draft, vector: vectors[i] }));
}

/** Services of an empty store: dedup decides within the document only. */
const emptyStore = {
  config: { near_dup_threshold: undefined },
  embedder,
  searchReads: { analyzeMany: async (ts: string[]) => ts.map(() => []) },
  projection: { lexical: () => [] },
  atomWrites: { dedupCandidates: async () => [] },
  vectorIndex: { search: async () => [] },
} as unknown as Pick<Services, "atomWrites" | "config" | "embedder" | "projection" | "searchReads" | "vectorIndex">;

describe("findDuplicates decides as without the pruning", () => {
  const rand = mulberry32(7);
  const sentences = bookSentences();
  // Book sentences, a fifth of them followed later by an edit of themselves (restated, negated, renumbered…).
  const picked: string[] = [];
  for (let i = 0; i < 400; i++) {
    const s = sentences[Math.floor(rand() * sentences.length)];
    picked.push(rand() < 0.2 && picked.length ? edits(picked[Math.floor(rand() * picked.length)], rand)[i % 9] : s);
  }
  const natural = picked.join("\n\n");
  const words = ["INFO", "WARN", "api", "db", "request", "failed", "handled", "status", "ok", "error", "cache", "hit"];
  const log = Array.from(
    { length: 900 },
    () =>
      `${words[Math.floor(rand() * 2)]} ${Array.from({ length: 5 }, () => words[2 + Math.floor(rand() * 10)]).join(" ")} in ${Math.floor(rand() * 100)} ms.`,
  ).join("\n");
  for (const [name, text, chunkChars] of [
    ["natural, a sentence per passage", natural, 200],
    ["natural, long passages", natural, 1200],
    ["log-like", log, 1200],
  ] as const) {
    test(name, async () => {
      const drafts = await draftsOf(text, chunkChars);
      expect(badSketches(drafts.map((d) => d.content))).toEqual([]);
      const got = await findDuplicates(emptyStore, drafts);
      const want = unpruned(drafts);
      expect(got).toEqual(want);
      expect(want.some((f) => f.links.length > 0)).toBe(true);
    });
  }
});
