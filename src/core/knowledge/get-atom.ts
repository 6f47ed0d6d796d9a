/**
 * memory_get: one atom whole — claim, content, status, confidence, every citation (up to {@link MAX_CITATIONS}),
 * its status history (newest first), its links out and in with the other atom's claim, its links to code symbols,
 * the merge that absorbed it if one did, its confidence computed with its reasons (core/knowledge/confidence.ts), and
 * the measurements its claim states (pm_atom_quantity, docs/quantities.md).
 * Retracted and stale atoms are shown too (this is the audit view).
 */
import { PegasError } from "../../errors.ts";
import type { AtomLinks, AtomView } from "../../ports/store/atom-reads.ts";
import type { StatusChangeRecord } from "../../ports/store/verification.ts";
import type { QuantityRow } from "../../ports/store/quantities.ts";
import type { Services } from "../services.ts";
import type { ExplainedConfidence } from "../../domain/confidence/model.ts";
import { explainedConfidences } from "./confidence.ts";

/** Citations returned with the atom. */
export const MAX_CITATIONS = 100;
/** Status changes returned. */
export const MAX_HISTORY = 50;
/** Default and largest number of links returned per list (out, in, symbols). */
export const DEFAULT_LINKS = 10;
export const MAX_LINKS = 500;

/** An atom with its history and links. */
export interface AtomDetail {
  atom: AtomView;
  history: StatusChangeRecord[];
  links: AtomLinks;
  /** Its confidence computed from its reasons (domain/confidence/model.ts). */
  confidence: ExplainedConfidence;
  /** The measurements its claim states, in claim order (values in their canonical unit); empty when none. */
  quantities: QuantityRow[];
}

/**
 * Reads atom `atomId` whole.
 * @param maxLinks links per list, 1..{@link MAX_LINKS} (default {@link DEFAULT_LINKS}).
 * @param linksOffset links skipped in each list, for the next page (default 0).
 * @throws PegasError INVALID_INPUT (bad id, limit or offset), NOT_FOUND (no such atom), STORE_UNAVAILABLE.
 */
export async function getAtom(
  s: Pick<Services, "atomReads" | "verification" | "confidence" | "quantities">,
  atomId: number,
  maxLinks = DEFAULT_LINKS,
  linksOffset = 0,
): Promise<AtomDetail> {
  if (!Number.isInteger(atomId) || atomId < 1)
    throw new PegasError("INVALID_INPUT", `atom_id must be a positive integer, got ${JSON.stringify(atomId)}`);
  if (!Number.isInteger(maxLinks) || maxLinks < 1 || maxLinks > MAX_LINKS) {
    throw new PegasError(
      "INVALID_INPUT",
      `max_links must be an integer in 1..${MAX_LINKS}, got ${JSON.stringify(maxLinks)}`,
    );
  }
  if (!Number.isSafeInteger(linksOffset) || linksOffset < 0) {
    throw new PegasError(
      "INVALID_INPUT",
      `links_offset must be a non-negative integer, got ${JSON.stringify(linksOffset)}`,
    );
  }
  const [atom] = await s.atomReads.atomsByIds([atomId], MAX_CITATIONS);
  if (!atom) throw new PegasError("NOT_FOUND", `no atom '${atomId}'`, { hint: "call memory_search to list atom ids" });
  const [history, links, explained, quantities] = await Promise.all([
    s.verification.statusHistory(atomId, MAX_HISTORY),
    s.atomReads.atomLinks(atomId, maxLinks, linksOffset),
    explainedConfidences(s, [atomId]),
    s.quantities.quantitiesOfAtoms([atomId]),
  ]);
  const confidence = explained.get(atomId) ?? { value: atom.confidence, reasons: [] };
  return { atom, history, links, confidence, quantities };
}
