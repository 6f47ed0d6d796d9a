/**
 * who_is (issue 22, items 2 and 4): "who/what is X" questions over the shared fixtures, asked through the MCP tools
 * in process as a client would, on a fresh embedded store (PGlite, no model). The labelled set is
 * tests/entities/who-is.jsonl (its check half frozen by hash before any tuning). Every fixture a question names is
 * ingested with `memory_ingest {path}` (the whole html and pdf folders and both books, so other documents compete);
 * an atom answers a question when its claim or content holds the question's quote (tests/entities/who-is-set.ts
 * `foldQuote`). Per question: `memory_search {query, k: 10}` → is its first hit an answering atom (and the rank of
 * the first one within 10); `memory_get_context {question, budget_tokens: 1000}` → is the first atom its text names one. Shares per
 * half and language; questions whose quote no atom holds (a chunk edge cut it) are counted as misses and listed.
 */
import { realpathSync } from "node:fs";
import { join } from "node:path";
import type { Services } from "../../src/core/services.ts";
import { setLogLevel } from "../../src/log.ts";
import { createServices } from "../../src/wiring/services.ts";
import { foldQuote, loadWhoIsSet, type WhoIsQuestion } from "../../tests/entities/who-is-set.ts";
import { benchConfig, removeDir, SHARED, tempDir } from "../lib/env.ts";
import { type InProcessClient, inProcessClient } from "../lib/mcp-inproc.ts";
import type { Benchmark, BenchOutcome, SummaryRow } from "../lib/report.ts";
import { round } from "../lib/stats.ts";

const K = 10;
const BUDGET = 1000;
/** What is ingested: every fixture the set names lives under these (the EPUBs are not asked about). */
const INGEST = ["html", "pdf", "text/ru_chekhov_palata_no6.txt", "text/en_gutenberg_8868_botchan.txt"];

/** One question's outcome. */
interface Asked {
  id: string;
  half: "tune" | "check";
  lang: string;
  answerable: boolean;
  searchFirst: boolean;
  /** 1-based rank of the first answering hit within k, or 0. */
  searchRank: number;
  contextFirst: boolean;
  contextHas: boolean;
}

/** Every atom's folded claim + content, by id (a fresh store numbers atoms from 1). */
async function atomTexts(services: Services): Promise<Map<number, string>> {
  const out = new Map<number, string>();
  for (let from = 1; ; from += 500) {
    const ids = Array.from({ length: 500 }, (_, i) => from + i);
    const views = await services.atomReads.atomsByIds(ids, 0);
    if (views.length === 0) break;
    for (const v of views) out.set(v.id, foldQuote(`${v.claim}\n${v.content}`));
  }
  return out;
}

function ids(list: unknown): number[] {
  return Array.isArray(list) ? list.map((h) => Number((h as { atom_id: number }).atom_id)) : [];
}

async function ask(client: InProcessClient, q: WhoIsQuestion, texts: Map<number, string>): Promise<Asked> {
  const quote = foldQuote(q.answer);
  const answers = new Set([...texts].filter(([, t]) => t.includes(quote)).map(([id]) => id));
  const s = await client.call("memory_search", { query: q.question, k: K });
  const hits = ids(s.structured?.hits);
  const c = await client.call("memory_get_context", { question: q.question, budget_tokens: BUDGET });
  // The concise structured content carries no items: the text the model reads names each atom as "(atom N)".
  const items = [...c.text.matchAll(/\(atom (\d+)[,)]/gu)].map((m) => Number(m[1]));
  const rank = hits.findIndex((h) => answers.has(h)) + 1;
  return {
    id: q.id,
    half: q.half,
    lang: q.lang,
    answerable: answers.size > 0,
    searchFirst: hits.length > 0 && answers.has(hits[0]),
    searchRank: rank,
    contextFirst: items.length > 0 && answers.has(items[0]),
    contextHas: items.some((i) => answers.has(i)),
  };
}

function shares(asked: Asked[]) {
  const pct = (f: (a: Asked) => boolean) => (asked.length ? round((100 * asked.filter(f).length) / asked.length) : 0);
  const mrr = asked.reduce((s, a) => s + (a.searchRank ? 1 / a.searchRank : 0), 0) / Math.max(1, asked.length);
  return {
    questions: asked.length,
    search_first: pct((a) => a.searchFirst),
    search_in_top_10: pct((a) => a.searchRank > 0),
    search_mrr_at_10: round(mrr, 3),
    context_first: pct((a) => a.contextFirst),
    context_has: pct((a) => a.contextHas),
  };
}

/** Ingests the fixtures into a fresh store and asks every question; the store is removed afterwards. */
async function runAll(): Promise<{ asked: Asked[]; ingestCpuS: number; askCpuMs: number; atoms: number }> {
  const dir = tempDir("who-is");
  const services = await createServices(
    benchConfig({ data_dir: join(dir, "db"), ingest_roots: [realpathSync(join(SHARED, "fixtures"))] }),
  );
  const client = await inProcessClient(services);
  try {
    const cpu0 = process.cpuUsage();
    for (const rel of INGEST) await client.call("memory_ingest", { path: realpathSync(join(SHARED, "fixtures", rel)) });
    const cpu = process.cpuUsage(cpu0);
    const texts = await atomTexts(services);
    const asked: Asked[] = [];
    const ask0 = process.cpuUsage();
    for (const q of loadWhoIsSet()) asked.push(await ask(client, q, texts));
    const askCpu = process.cpuUsage(ask0);
    return {
      asked,
      ingestCpuS: round((cpu.user + cpu.system) / 1e6),
      askCpuMs: round((askCpu.user + askCpu.system) / 1e3 / Math.max(1, asked.length)),
      atoms: texts.size,
    };
  } finally {
    await client.close();
    await services.close(0);
    removeDir(dir);
  }
}

/** The who-is benchmark (see module doc). */
export const whoIsBench: Benchmark = {
  name: "who_is",
  description: "who/what-is-X questions over the fixtures: is the introducing atom first (MCP, no model)",
  async run(): Promise<BenchOutcome> {
    setLogLevel("warn");
    const { asked, ingestCpuS, askCpuMs, atoms } = await runAll();
    const by = (f: (a: Asked) => boolean) => shares(asked.filter(f));
    const check = by((a) => a.half === "check");
    const tune = by((a) => a.half === "tune");
    const summary: SummaryRow[] = [
      {
        metric: `who-is check half (${check.questions} q): introducing atom first, memory_get_context / memory_search`,
        value: `${check.context_first} / ${check.search_first}`,
        unit: "%",
        target: "≥ 80",
      },
      {
        metric: `who-is tune half (${tune.questions} q): introducing atom first, memory_get_context / memory_search`,
        value: `${tune.context_first} / ${tune.search_first}`,
        unit: "%",
      },
    ];
    return {
      params: {
        set: "tests/entities/who-is.jsonl (check half frozen by bench/lib/split.ts before tuning)",
        ingest: INGEST,
        search: { k: K },
        context: { budget_tokens: BUDGET },
        hit: "the first hit / item is an atom whose folded claim + content holds the folded answer quote",
        cpu: "process CPU time (user + sys) of one memory_search plus one memory_get_context call, mean",
      },
      results: {
        atoms,
        ingest_cpu_s: ingestCpuS,
        cpu_ms_per_question: askCpuMs,
        all: shares(asked),
        check,
        tune,
        by_lang: { ru: by((a) => a.lang === "ru"), en: by((a) => a.lang === "en") },
        unanswerable: asked.filter((a) => !a.answerable).map((a) => a.id),
        misses: {
          context: asked.filter((a) => !a.contextFirst).map((a) => a.id),
          search: asked.filter((a) => !a.searchFirst).map((a) => a.id),
        },
      },
      summary,
    };
  },
};
