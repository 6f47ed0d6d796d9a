/**
 * The model adapters chosen from the configuration (part of the wiring, see src/wiring/services.ts): the embedder (Ollama or
 * the local lexical one), the distiller, the verdict judges and the research-gap judge (Ollama when ollama_host and
 * llm_model are set, else heuristic).
 */
import type { Config } from "../config.ts";
import type { Services } from "../core/services.ts";
import { dedupPolicy } from "../domain/meaning/dedup.ts";
import { LexicalHashEmbedder } from "../adapters/embedded/lexical-embedder.ts";
import { PegasError } from "../errors.ts";
import type { Distiller } from "../ports/models/distiller.ts";
import type { Embedder } from "../ports/models/embedder.ts";
import type { VerdictJudge } from "../ports/models/verdict-judge.ts";

/** The configured embedder: Ollama when `ollama_host` is set, else the local lexical embedder (not readied). */
export async function makeEmbedder(config: Config): Promise<Embedder> {
  if (!config.ollama_host) return new LexicalHashEmbedder(config.local_embed_dim);
  return makeOllamaEmbedder(config, config.embed_model, config.embed_dim);
}

/** The active embedding model and dimension: the Ollama model (its configured dimension) or the local lexical one. */
export interface ActiveEmbedding {
  model: string;
  dim: number;
  kind: "ollama" | "lexical";
}

/** What {@link makeEmbedder} would pick, read from the configuration alone (nothing is loaded or called). */
export function activeEmbedding(config: Config): ActiveEmbedding {
  if (config.ollama_host) return { model: config.embed_model, dim: config.embed_dim, kind: "ollama" };
  const lexical = new LexicalHashEmbedder(config.local_embed_dim);
  return { model: lexical.model, dim: lexical.dim, kind: "lexical" };
}

const LEXICAL_MODEL = /^pegas-lexical-hash-v1-d(\d+)$/;

/**
 * An embedder for `model` other than the configured one (for `reembed`): the local lexical embedder for
 * `pegas-lexical-hash-v1-d<N>`, else the Ollama model (checked against `dim` when given), readied.
 * @throws PegasError INVALID_INPUT (an Ollama model without ollama_host), LLM_FAILED (unreachable, wrong dimension).
 */
export async function makeEmbedderFor(config: Config, model: string, dim?: number): Promise<Embedder> {
  const lexical = LEXICAL_MODEL.exec(model);
  let embedder: Embedder;
  if (lexical) {
    if (dim !== undefined && dim !== Number(lexical[1]))
      throw new PegasError("INVALID_INPUT", `model '${model}' has dimension ${lexical[1]}, not ${dim}`, {
        hint: "drop --dim, or name the model of that dimension",
      });
    embedder = new LexicalHashEmbedder(Number(lexical[1]));
  } else if (!config.ollama_host) {
    throw new PegasError("INVALID_INPUT", `model '${model}' needs Ollama, and ollama_host (OLLAMA_HOST) is not set`, {
      hint: "set OLLAMA_HOST, or give pegas-lexical-hash-v1-d<N> for the local embedder",
    });
  } else embedder = await makeOllamaEmbedder(config, model, dim);
  await embedder.ready();
  return embedder;
}

async function makeOllamaEmbedder(config: Config, model: string, dim?: number): Promise<Embedder> {
  const { OllamaEmbedder } = await import("../adapters/llm/ollama/embedder.ts");
  return new OllamaEmbedder({
    host: config.ollama_host as string,
    model,
    expectedDim: dim,
    keepAlive: config.ollama_keep_alive,
    concurrency: config.ollama_concurrency,
    batchSize: config.ollama_batch_size,
    timeoutMs: config.ollama_timeout_ms,
  });
}

/**
 * The configured distiller; `auto` picks Ollama when ollama_host and llm_model are set, else the heuristic one.
 * "mcp-sampling" gets the heuristic one here: the MCP server swaps in the client's model when the client can
 * sample (src/wiring/sampling.ts). @throws PegasError INVALID_INPUT for "ollama" without both keys.
 */
export async function makeDistiller(config: Config): Promise<Distiller> {
  const { heuristicDistiller } = await import("../adapters/distiller/heuristic/index.ts");
  const { distiller, ollama_host: host, llm_model: model } = config;
  if (distiller === "heuristic" || distiller === "mcp-sampling" || (distiller === "auto" && !(host && model))) {
    return heuristicDistiller;
  }
  if (!host || !model) {
    const missing = [host ? "" : "ollama_host (OLLAMA_HOST)", model ? "" : "llm_model (PEGAS_LLM_MODEL)"].filter(
      Boolean,
    );
    throw new PegasError(
      "INVALID_INPUT",
      `distiller "ollama" needs ${missing.join(" and ")}, which ${missing.length > 1 ? "are" : "is"} not set`,
      {
        hint: 'set them, or set distiller = "auto" or "heuristic" (PEGAS_DISTILLER)',
      },
    );
  }
  const { OllamaDistiller } = await import("../adapters/llm/ollama/distiller.ts");
  return new OllamaDistiller({
    host,
    model,
    keepAlive: config.ollama_keep_alive,
    concurrency: config.ollama_concurrency,
    timeoutMs: config.ollama_timeout_ms,
    numCtx: config.distill_num_ctx,
    numPredict: config.distill_num_predict,
  });
}

/**
 * The judges of memory_verify: Ollama when ollama_host and llm_model are set (num_ctx/num_predict as distillation),
 * else the heuristic one under the embedder's near-duplicate cosine; the heuristic one is also the fallback.
 */
export async function makeJudges(
  config: Config,
  embedder: Embedder,
): Promise<{ judge: VerdictJudge; fallbackJudge: VerdictJudge }> {
  const { HeuristicJudge } = await import("../adapters/judge/heuristic.ts");
  const fallbackJudge = new HeuristicJudge(dedupPolicy(embedder, config.near_dup_threshold));
  if (!config.ollama_host || !config.llm_model) return { judge: fallbackJudge, fallbackJudge };
  const { OllamaJudge } = await import("../adapters/llm/ollama/judge.ts");
  const judge = new OllamaJudge({
    host: config.ollama_host,
    model: config.llm_model,
    keepAlive: config.ollama_keep_alive,
    concurrency: config.ollama_concurrency,
    timeoutMs: config.ollama_timeout_ms,
    numCtx: config.distill_num_ctx,
    numPredict: config.distill_num_predict,
  });
  return { judge, fallbackJudge };
}

/** The research-gap answer judge: Ollama when ollama_host and llm_model are set, else none (the search rule decides). */
export async function makeGapJudge(config: Config): Promise<Pick<Services, "gapJudge">> {
  if (!config.ollama_host || !config.llm_model) return {};
  const { OllamaGapJudge } = await import("../adapters/llm/ollama/gap-judge.ts");
  return {
    gapJudge: new OllamaGapJudge({
      host: config.ollama_host,
      model: config.llm_model,
      keepAlive: config.ollama_keep_alive,
      concurrency: config.ollama_concurrency,
      timeoutMs: config.ollama_timeout_ms,
      numCtx: config.distill_num_ctx,
      numPredict: config.distill_num_predict,
    }),
  };
}
