/**
 * LoCoMo probe for tuning (not a benchmark): stores of the development split built once under a directory and
 * reopened (a store is built only when its directory is missing: delete them after a change to what is stored),
 * then every question searched with `search()` at k 50 (memory_search's ranking; recall@10 reads the first 10)
 * and, unless `--no-context`, `getContext()` at 1,000 tokens; per question the evidence ranks (-1 = not in the 50),
 * the first 10 turn ids and the context hits, written as JSON for comparing variants.
 * Usage: bun bench/locomo-probe.ts <stores dir> <out.json> [--no-context] [--convs 0,2]
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { getContext } from "../src/core/context/context.ts";
import { search } from "../src/core/search/search.ts";
import { setLogLevel } from "../src/log.ts";
import { pgliteServices } from "./lib/env.ts";
import { LOCOMO_CATEGORIES, loadLocomo, locomoUris, storeTurns, turnUri } from "./lib/locomo.ts";
import { inProcessClient } from "./lib/mcp-inproc.ts";

setLogLevel("warn");
const [dir, out] = process.argv.slice(2);
const noContext = process.argv.includes("--no-context");
const ci = process.argv.indexOf("--convs");
const pick = ci > 0 ? process.argv[ci + 1].split(",").map(Number) : null;
const convs = loadLocomo();
const rows: unknown[] = [];
for (const [i, conv] of convs.entries()) {
  if (pick && !pick.includes(i)) continue;
  const dataDir = join(dir, conv.sampleId);
  const fresh = !existsSync(dataDir);
  const { services, dispose } = await pgliteServices(dataDir);
  if (fresh) {
    const client = await inProcessClient(services);
    await storeTurns(client, conv);
    await client.close();
  }
  for (const q of conv.questions) {
    const r = await search(services, { query: q.question, k: 50, log_miss: false });
    const uris = r.hits.map((h) => locomoUris(h.citations.map((c) => c.uri).join(" "))[0] ?? "");
    const ranks = q.evidence.map((d) => uris.indexOf(turnUri(conv.sampleId, d)));
    let ctx: number[] | null = null;
    if (!noContext) {
      const c = await getContext(services, { question: q.question, budget_tokens: 1000 });
      const cu = new Set(locomoUris(c.markdown));
      ctx = q.evidence.map((d) => (cu.has(turnUri(conv.sampleId, d)) ? 1 : 0));
    }
    rows.push({
      conv: conv.sampleId,
      cat: LOCOMO_CATEGORIES[q.category],
      q: q.question,
      ev: q.evidence,
      ranks,
      top: uris.slice(0, 10).map((u) => u.split("/").pop()),
      ctx,
    });
  }
  await dispose();
  process.stderr.write(`${conv.sampleId} done\n`);
}
await Bun.write(out, JSON.stringify(rows));
