/**
 * CLI commands of the projections: `sync` (the outbox worker, once or following), `rebuild vector|graph|all`,
 * `reembed --model M`, and `graph` (graph reads: neighbours, a shortest path, counters).
 */
import type { Config } from "../config.ts";
import { reembed, type RebuildProgress, type RebuildTarget } from "../core/projections/rebuild.ts";
import { outboxWorkerOf, rebuildProjections } from "../worker/projections.ts";
import { UsageError, invalidInput } from "../errors.ts";
import { log } from "../log.ts";
import { makeEmbedderFor, makeVectorSink } from "../wiring/services.ts";
import type { Cli } from "./args.ts";
import { intOption, withServices } from "./commands.ts";
import { out, outJson } from "./output.ts";
import type { Direction, GraphEdge, Subgraph } from "../core/services.ts";

/** Progress on stderr, at most every 500 ms per projection and entity, and at the end of each. */
function progressPrinter(): (p: RebuildProgress) => void {
  const last = new Map<string, number>();
  return (p) => {
    const key = `${p.projection}/${p.entity}`;
    const now = Date.now();
    if (p.done < p.total && now - (last.get(key) ?? 0) < 500) return;
    last.set(key, now);
    process.stderr.write(`${p.projection}: ${p.entity} ${p.done}/${p.total}\n`);
  };
}

/**
 * `sync [--once] [--retry-dead]`: applies the outbox to the external projections — everything due, then exit
 * (`--once`), or following until SIGINT/SIGTERM; either way processed rows past `outbox_retention_hours` are deleted.
 * `--retry-dead` first makes dead letters pending again. Exit 1 when
 * rows remain failed or dead after `--once`.
 */
export async function runSync(config: Config, cli: Cli): Promise<number> {
  return withServices(config, async (s, signal) => {
    const revived = cli.values["retry-dead"] ? await s.outbox.retryDead() : 0;
    if (cli.values["retry-dead"]) log.info("dead letters made pending again", { rows: revived });
    if (!s.sinks.length)
      log.warn(
        "no external projection is configured (QDRANT_URL, MEMGRAPH_URL): nothing to apply; rows no projection reads are deleted, the others left to the processes whose projections read them",
      );
    if (cli.values.once) {
      const worker = outboxWorkerOf(s);
      const r = await worker.runOnce(signal);
      const pruned = await worker.pruneIfDue(signal); // retention of processed rows (outbox_retention_hours)
      const backlog = await s.outbox.backlog();
      const result = { revived, ...r, pruned, sinks: s.sinks.map((k) => k.name), backlog };
      if (cli.values.json) outJson(result);
      else
        out(
          `sync: ${r.applied} applied, ${r.failed} failed, ${r.dead} dead-lettered${revived ? `, ${revived} dead letters retried` : ""}; backlog ${backlog.pending} pending, ${backlog.dead} dead`,
        );
      return r.failed || backlog.dead ? 1 : 0;
    }
    log.info("outbox worker following", { sinks: s.sinks.map((k) => k.name) });
    await outboxWorkerOf(s).run(signal);
    return 0;
  }).catch((err) => {
    // Following ends by a signal: that is the normal way out.
    if ((err as { code?: string }).code === "CANCELLED" && !cli.values.once) return 0;
    throw err;
  });
}

const TARGETS = ["vector", "graph", "all"] as const;

/** `rebuild vector|graph|all`: drops and refills projections from the canonical tables, progress on stderr. */
export async function runRebuild(config: Config, cli: Cli): Promise<number> {
  const target = cli.positionals[0] as RebuildTarget | undefined;
  if (!target || !TARGETS.includes(target) || cli.positionals.length > 1) {
    throw invalidInput(`rebuild needs exactly one of ${TARGETS.join(", ")}, got '${cli.positionals.join(" ")}'`);
  }
  const recreate = Boolean(cli.values.recreate);
  const r = await withServices(config, (s, signal) =>
    rebuildProjections(s, target, progressPrinter(), { recreate, signal }),
  );
  if (cli.values.json) outJson(r);
  else {
    if (r.embedded) out(`embedded ${r.embedded} atom(s) that lacked a vector of the active model`);
    for (const p of r.projections)
      out(
        `rebuilt ${p.name} in ${p.took_ms} ms: holds ${JSON.stringify(p.held)}${Object.keys(p.canonical).length ? `, canonical ${JSON.stringify(p.canonical)}` : ""}`,
      );
    out(`outbox: ${r.outbox_drained} row(s) drained`);
    for (const n of r.notes) out(`note: ${n}`);
  }
  return 0;
}

/** `reembed --model M [--dim N]`: embeds every atom for model M and fills its own collection when Qdrant is set. */
export async function runReembed(config: Config, cli: Cli): Promise<number> {
  const model = cli.values.model as string | undefined;
  if (!model)
    throw invalidInput(
      "reembed needs --model M",
      "an Ollama model (with OLLAMA_HOST), or pegas-lexical-hash-v1-d<N> for the local embedder",
    );
  const dim = intOption(cli, "dim");
  const r = await withServices(config, async (s, signal) => {
    const embedder = await makeEmbedderFor(config, model, dim);
    // The configured collection holds the active model's vectors; another model gets its own derived collection.
    const sink = await makeVectorSink(
      config,
      embedder.model,
      embedder.dim,
      embedder.model === s.embedder.model ? config.qdrant_collection : undefined,
    );
    try {
      return await reembed(s, embedder, sink, progressPrinter(), { recreate: Boolean(cli.values.recreate), signal });
    } finally {
      await sink?.close();
    }
  });
  if (cli.values.json) outJson(r);
  else {
    out(
      `embedded ${r.embedded} atom(s) for ${r.model} (dim ${r.dim})${r.projection ? `; ${r.projection.name} holds ${JSON.stringify(r.projection.held)}` : ""}`,
    );
    out(
      r.model.startsWith("pegas-lexical")
        ? `to switch, set local_embed_dim = ${r.dim} (and leave ollama_host unset)`
        : `to switch, set embed_model = "${r.model}" (PEGAS_EMBED_MODEL) and embed_dim = ${r.dim} (PEGAS_EMBED_DIM)`,
    );
  }
  return 0;
}

const edgeText = (e: GraphEdge) =>
  `  ${e.src} -[${e.kind}${e.inferred ? ", inferred" : ""} ${e.confidence.toFixed(2)}]-> ${e.dst}`;

function formatSubgraph(g: Subgraph): string {
  const nodes = g.nodes.map(
    (n) =>
      `  ${"  ".repeat(n.distance)}${n.id} (${n.label}${n.props.type ? ` ${n.props.type}` : ""}${n.props.name ? ` ${n.props.name}` : ""})`,
  );
  return [
    `${g.nodes.length} node(s)${g.truncated ? " (truncated)" : ""}, ${g.edges.length} edge(s):`,
    ...nodes,
    ...g.edges.map(edgeText),
  ].join("\n");
}

/**
 * `graph <node> [--depth N] [--direction out|in|both] [--kind K]… [--limit N]`, `graph --path <from> <to>`,
 * `graph --counters`: graph reads (Memgraph when configured, else SQL).
 */
export async function runGraph(config: Config, cli: Cli): Promise<number> {
  const kinds = cli.values.kind as string[] | undefined;
  const direction = cli.values.direction as Direction | undefined;
  const modes = [cli.values.counters, cli.values.path].filter(Boolean).length;
  if (modes > 1 || (cli.values.counters && cli.positionals.length)) {
    throw new UsageError(
      "graph takes one of: a node id, --path <from> <to>, or --counters",
      "see `pegas-memory graph --help`",
    );
  }
  if (cli.values.path && cli.positionals.length !== 2)
    throw new UsageError(
      "graph --path needs exactly two node ids, e.g. atom:12 atom:40",
      "see `pegas-memory graph --help`",
    );
  if (!cli.values.path && !cli.values.counters && cli.positionals.length !== 1)
    throw new UsageError(
      "graph needs one node id (atom:<id>, symbol:<id>, doc:<id>, entity:<id>), --path or --counters",
      "see `pegas-memory graph --help`",
    );
  const text = await withServices(config, async (s): Promise<{ json: unknown; text: string; degraded?: string }> => {
    if (cli.values.counters) {
      const c = await s.graph.counters();
      return { json: c, text: JSON.stringify(c, null, 2), degraded: c.degraded };
    }
    if (cli.values.path) {
      const [from, to] = cli.positionals;
      if (!from || !to) throw invalidInput("graph --path needs two node ids, e.g. atom:12 atom:40");
      const p = await s.graph.shortestPath({ from, to, kinds, direction, maxDepth: intOption(cli, "depth") });
      const shown = p
        ? [`path of ${p.edges.length} edge(s):`, ...p.edges.map(edgeText)].join("\n")
        : "no path within the depth";
      return { json: p, text: shown, degraded: p?.degraded };
    }
    const node = cli.positionals[0];
    if (!node)
      throw invalidInput("graph needs a node id (atom:<id>, symbol:<id>, doc:<id>, entity:<id>), --path or --counters");
    const g = await s.graph.neighbours({
      node,
      kinds,
      direction,
      depth: intOption(cli, "depth"),
      limit: intOption(cli, "limit"),
    });
    return { json: g, text: formatSubgraph(g), degraded: g.degraded };
  });
  if (cli.values.json) outJson(text.json);
  else out(text.text);
  if (text.degraded) process.stderr.write(`warning: degraded: ${text.degraded}\n`);
  return 0;
}
