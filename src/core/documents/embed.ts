/**
 * Embedding a document's distilled drafts in batches (ingest-document.ts, ingest-parts.ts), quarantining the chunks whose
 * texts the embedder refuses instead of failing the whole document.
 */
import type { ProgressSpan } from "../../domain/progress.ts";
import { yieldToEventLoop } from "../../domain/yield.ts";
import { PegasError } from "../../errors.ts";
import { processedText } from "../../platform/gc.ts";
import type { Services } from "../services.ts";
import { type DistilledChunks, quarantineChunks } from "./distill.ts";

const EMBED_BATCH = 64;

function checkAborted(signal?: AbortSignal): void {
  if (signal?.aborted) throw new PegasError("CANCELLED", "ingest cancelled; nothing of this document was stored");
}

/**
 * Embeds the drafts in batches. A batch the embedder refuses (LLM_FAILED: a NaN or zero vector, an input over the
 * context length) is embedded text by text, and the chunks whose texts still fail are quarantined with their atoms
 * instead of failing the whole document. @throws PegasError CANCELLED, or LLM_FAILED when every text fails (the
 * embedder itself is down).
 */
export async function embedAll(
  services: Pick<Services, "distiller" | "embedder">,
  distilled: DistilledChunks,
  opts: { signal?: AbortSignal },
  progress: ProgressSpan,
): Promise<Float32Array[]> {
  const texts = distilled.drafts.map((d) => d.draft.searchText);
  const out: Array<Float32Array | undefined> = [];
  const failed = new Map<number, { reason: string; detail: string }>();
  for (let i = 0; i < texts.length; i += EMBED_BATCH) {
    await yieldToEventLoop(); // the local embedder is synchronous: let signals and cancellation in
    checkAborted(opts.signal);
    const batch = texts.slice(i, i + EMBED_BATCH);
    for (const t of batch) processedText(t.length);
    try {
      out.push(...(await services.embedder.embedDocuments(batch, opts.signal)));
    } catch (err) {
      if (!(err instanceof PegasError) || err.code !== "LLM_FAILED") throw err;
      for (const [j, text] of batch.entries()) {
        const one = await services.embedder.embedDocuments([text], opts.signal).catch((e: unknown) => {
          if (!(e instanceof PegasError) || e.code !== "LLM_FAILED") throw e;
          failed.set(distilled.drafts[i + j].chunkOrd, { reason: "embedding", detail: e.message.slice(0, 500) });
          return [undefined];
        });
        out.push(one[0]);
      }
    }
    const done = Math.min(i + EMBED_BATCH, texts.length);
    progress.at(done, texts.length, `embed: ${done} of ${texts.length} atoms`);
  }
  if (failed.size && failed.size === new Set(distilled.drafts.map((d) => d.chunkOrd)).size) {
    throw new PegasError(
      "LLM_FAILED",
      `no atom of this document could be embedded: ${[...failed.values()][0].detail}`,
      { hint: "check the embedding model; nothing was stored" },
    );
  }
  const keep = distilled.drafts.map((d) => !failed.has(d.chunkOrd));
  quarantineChunks(distilled, failed, services.distiller.name);
  return out.filter((_, i) => keep[i]) as Float32Array[];
}
