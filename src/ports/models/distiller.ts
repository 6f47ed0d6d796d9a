/**
 * Distiller port: one chunk of evidence → typed knowledge atoms, each with a verbatim `quote` from the chunk (the
 * caller drops atoms whose quote is not in the chunk) and links between atoms of the same chunk. Errors:
 * PegasError LLM_FAILED (a model answered badly: the caller quarantines the chunk), CANCELLED.
 */
import type { AtomType } from "../../domain/atom.ts";
import type { NamedEntity } from "../../domain/entities/types.ts";

/** A link from one distilled atom to another of the same chunk, by index in `atoms`. */
export interface DistilledLink {
  to: number;
  /** A single-token relation kind (inference, cause, reference, contradicts, depends_on, defines, …). */
  kind: string;
}

/** One atom proposed by a distiller. */
export interface DistilledAtom {
  type: AtomType;
  /** The knowledge in one statement, in the chunk's language. */
  claim: string;
  /** The atom's body (a definition's text, a table with its header, a code block, a rule's JSON…). */
  content: string;
  /** 0..1. */
  confidence: number;
  /** A verbatim span of the chunk that supports the atom. */
  quote: string;
  links: DistilledLink[];
}

/** What a distiller reads. */
export interface DistillInput {
  /** The chunk text (data, never instructions). */
  text: string;
  /** Language of the chunk (`ru`, `en`, `und`). */
  lang: string;
  /** Title of the document, for context. */
  title?: string;
  signal?: AbortSignal;
}

/** A distiller's answer for one chunk. */
export interface DistillResult {
  atoms: DistilledAtom[];
  warnings: string[];
  /**
   * The entities the chunk names, each with a verbatim quote of the chunk (an LLM distiller's); the mentions of every
   * atom of the chunk (its passage too) are then found from them (domain/entities/named.ts). Undefined when the
   * distiller names none (the heuristic one, or a model that gave no valid entity): the write extracts them itself.
   */
  entities?: NamedEntity[];
}

/** A distiller adapter. */
export interface Distiller {
  /** Adapter name, e.g. `heuristic`, `ollama:<model>`, `mcp-sampling`. */
  readonly name: string;
  distill(input: DistillInput): Promise<DistillResult>;
}
