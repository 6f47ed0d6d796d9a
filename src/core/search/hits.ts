/** Hydrating a page of ranked atom ids into search hits (content cut, citations attached); shared by every search. */
import type { AtomStatus, AtomType } from "../../domain/atom.ts";
import { truncateCodePoints } from "../../domain/text.ts";
import type { CitationView } from "../../ports/store/atom-reads.ts";
import type { Services } from "../services.ts";

/** One hit: the atom (content cut to {@link HIT_CONTENT_CHARS}), its fused score, its rank in each leg, citations. */
export interface SearchHit {
  atom_id: number;
  type: AtomType;
  status: AtomStatus;
  claim: string;
  content: string;
  content_truncated: boolean;
  confidence: number;
  lang: string;
  doc_id: number | null;
  score: number;
  ranks: { lexical?: number; vector?: number; dated?: number };
  citations: CitationView[];
  citation_count: number;
}

/** Longest content returned per hit (code points). */
export const HIT_CONTENT_CHARS = 1500;
/** Citations returned per hit. */
export const HIT_CITATIONS = 5;

/** A ranked atom: its id, score and ranks per leg. */
export interface RankedId {
  id: number;
  score: number;
  ranks: SearchHit["ranks"];
}

/** The hits of `page`, in its order; atoms gone or retracted since they were ranked are left out. */
export async function hydrateHits(services: Pick<Services, "atomReads">, page: RankedId[]): Promise<SearchHit[]> {
  const atoms = await services.atomReads.atomsByIds(
    page.map((f) => f.id),
    HIT_CITATIONS,
  );
  const byId = new Map(atoms.map((a) => [a.id, a]));
  return page.flatMap((f) => {
    const a = byId.get(f.id);
    if (!a || a.status === "retracted") return [];
    const content = truncateCodePoints(a.content, HIT_CONTENT_CHARS);
    return [
      {
        atom_id: a.id,
        type: a.type,
        status: a.status,
        claim: a.claim,
        content,
        content_truncated: content !== a.content,
        confidence: a.confidence,
        lang: a.lang,
        doc_id: a.doc_id,
        score: Number(f.score.toFixed(6)),
        ranks: f.ranks,
        citations: a.citations,
        citation_count: a.citation_count,
      },
    ];
  });
}
