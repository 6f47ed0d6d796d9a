/**
 * The pure planning steps of a document ingest (ingest-document.ts): sections cut into located chunks, and distilled
 * drafts turned into the atoms of the ingest plan with their vectors, citations, links and dedup merges.
 */
import { chunkText } from "../../domain/chunk.ts";
import { sha256Hex } from "../../domain/hash.ts";
import type { Locator } from "../../domain/locator.ts";
import { detectLang } from "../../domain/text.ts";
import type { ParsedDocument } from "../../ports/models/parser.ts";
import type { PlannedAtom, PlannedLink } from "../../ports/store/atom-writes.ts";
import type { ChunkInput } from "../../ports/store/ingest.ts";
import type { DedupFinding } from "../knowledge/dedup.ts";
import type { ChunkDraft } from "./distill.ts";

/** Chunks every section; ords run across sections, locators are the section's plus the range within it. */
export function chunkSections(parsed: ParsedDocument, target: number): ChunkInput[] {
  const out: ChunkInput[] = [];
  for (const section of parsed.sections) {
    for (const c of chunkText(section.text, { target, lang: detectLang(section.text) })) {
      const locator: Locator = {
        ...section.locator,
        char_start: c.charStart,
        char_end: c.charEnd,
        line_start: c.lineStart,
        line_end: c.lineEnd,
      };
      out.push({ ord: out.length, text: c.text, contentHash: sha256Hex(c.text), locator });
    }
  }
  return out;
}

/**
 * The plan's atoms: drafts with their vectors (and their search vectors' text when computed, `searchTsvs[i]`),
 * citations, intra-chunk links, dedup merges and links, and the entities their distiller named (the write finds the
 * atoms' mentions from them).
 */
export function planAtoms(
  drafts: ChunkDraft[],
  vectors: Float32Array[],
  findings: DedupFinding[],
  searchTsvs?: string[],
): PlannedAtom[] {
  return drafts.map((d, i) => {
    const f = findings[i];
    const dedupLinks: PlannedLink[] = f.links.map((l) => ({
      atomId: l.atomId,
      planned: l.draftIndex,
      kind: l.kind,
      confidence: Math.max(0, Math.min(1, l.cosine)),
      source: "dedup",
    }));
    return {
      atom: searchTsvs
        ? { ...d.draft, vector: vectors[i], searchTsv: searchTsvs[i] }
        : { ...d.draft, vector: vectors[i] },
      citation: { chunkOrd: d.chunkOrd, locator: d.locator, quote: d.quote },
      mergeInto: f.merge
        ? { atomId: f.merge.atomId, planned: f.merge.draftIndex, cosine: f.merge.cosine, reason: f.merge.reason }
        : undefined,
      links: [...d.links, ...dedupLinks],
      ...(d.entities ? { entities: d.entities } : {}),
    };
  });
}
