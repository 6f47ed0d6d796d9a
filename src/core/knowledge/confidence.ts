/**
 * Confidence with its reasons at read time (issue 24 item 3): the stored facts of atoms (ConfidenceReads) through the
 * model of domain/confidence/model.ts. memory_get, the admin page's atom view and memory_get_context read it.
 */
import { type ExplainedConfidence, explainConfidence } from "../../domain/confidence/model.ts";
import type { Services } from "../services.ts";

/**
 * The explained confidence of each atom of `ids` that exists (at most 1000), keyed by id.
 * @throws PegasError STORE_UNAVAILABLE.
 */
export async function explainedConfidences(
  s: Pick<Services, "confidence">,
  ids: readonly number[],
  now = new Date(),
): Promise<Map<number, ExplainedConfidence>> {
  const facts = await s.confidence.confidenceFacts(ids, now);
  return new Map([...facts].map(([id, f]) => [id, explainConfidence(f)]));
}
