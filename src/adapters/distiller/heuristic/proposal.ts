/** The distiller's working form of an atom: its quote as an offset span into the chunk, so the quote is verbatim. */
import type { AtomType } from "../../../domain/atom.ts";
import { truncateCodePoints } from "../../../domain/text.ts";
import { collapse, type Span } from "./blocks/blocks.ts";

/** Longest claim, in code points; claims are one statement, the content carries the rest. */
export const MAX_CLAIM = 300;

/** An atom before links: `start`/`end` locate its quote in the chunk (UTF-16 offsets, end exclusive). */
export interface Proposal extends Span {
  type: AtomType;
  claim: string;
  content: string;
  confidence: number;
  /** A definition's term (links point other atoms that use it at the definition). */
  term?: string;
  /** Set on a sentence ending in ":" that introduces the block after it. */
  introduces?: boolean;
}

/** A proposal with the claim collapsed and cut to {@link MAX_CLAIM} code points. */
export function proposal(p: Proposal): Proposal {
  return { ...p, claim: truncateCodePoints(collapse(p.claim), MAX_CLAIM) };
}
