/**
 * memory_store: one typed atom from the agent. Exact duplicates (same type and folded content) resolve to the
 * existing atom; a near-duplicate of the same meaning gains the new citation instead of a new atom.
 */
import { ATOM_TYPES, type AtomType } from "../domain/atom.ts";
import { sanitizeText } from "../domain/text.ts";
import { invalidInput } from "../errors.ts";
import { draftAtom } from "./atoms.ts";
import { findNearDuplicates } from "./near-dup.ts";
import type { Services } from "./services.ts";

/** Input of memory_store (DESIGN.md argument names). */
export interface StoreInput {
  type: AtomType;
  claim: string;
  content?: string;
  confidence?: number;
  source_uri?: string;
  quote?: string;
}

/** Outcome: the atom id, whether it is new, what it duplicates, and what was changed in the input. */
export interface StoreResult {
  atom_id: number;
  created: boolean;
  near_duplicate_of: { atom_id: number; cosine: number } | null;
  citation_added: boolean;
  doc_id: number | null;
  warnings: string[];
}

/** Longest claim (code units): a claim is one statement; long text goes to `content` or memory_ingest. */
export const MAX_CLAIM_CHARS = 2000;
/** Longest content (code units). */
export const MAX_CONTENT_CHARS = 200_000;

function clean(value: string, what: string, max: number, warnings: string[]): string {
  const s = sanitizeText(value, what);
  warnings.push(...s.warnings);
  const text = s.text.trim();
  if (text.length > max) {
    throw invalidInput(`${what} is ${text.length} characters; the limit is ${max}`, what === "claim" ? "put long text in `content`, or use memory_ingest" : "use memory_ingest for long text");
  }
  return text;
}

function checkUri(uri: string): string {
  let u: URL;
  try {
    u = new URL(uri);
  } catch {
    throw invalidInput(`source_uri '${uri.slice(0, 200)}' is not an absolute URI`, "use e.g. https://… or file:///…");
  }
  // The URI is stored and shown in every citation: it must not carry a password.
  if (u.username || u.password) throw invalidInput("source_uri must not contain credentials (user:password@)", "cite the URI without them");
  return u.href;
}

/** Stores one atom. @throws PegasError INVALID_INPUT, LLM_FAILED, STORE_UNAVAILABLE. */
export async function storeAtom(services: Services, input: StoreInput, signal?: AbortSignal): Promise<StoreResult> {
  if (!ATOM_TYPES.includes(input.type)) throw invalidInput(`unknown atom type '${input.type}'`, `use one of ${ATOM_TYPES.join(", ")}`);
  const warnings: string[] = [];
  const claim = clean(input.claim ?? "", "claim", MAX_CLAIM_CHARS, warnings);
  if (!claim) throw invalidInput("claim is empty", "state the knowledge in one sentence");
  const content = input.content === undefined ? claim : clean(input.content, "content", MAX_CONTENT_CHARS, warnings) || claim;
  const confidence = input.confidence ?? 0.5;
  if (!(confidence >= 0 && confidence <= 1)) throw invalidInput(`confidence must be between 0 and 1, got ${confidence}`);
  const sourceUri = input.source_uri === undefined ? undefined : checkUri(input.source_uri);
  const quote = input.quote === undefined ? undefined : clean(input.quote, "quote", MAX_CONTENT_CHARS, warnings);
  if (quote && !sourceUri) warnings.push("quote ignored: it needs source_uri");

  const draft = draftAtom({ type: input.type, claim, content, confidence });
  const [vector] = await services.embedder.embedDocuments([draft.searchText], signal);
  await services.projection.sync();
  const atom = { ...draft, vector };
  const [dup] = await findNearDuplicates(services, [atom], signal);
  const res = await services.store.storeAtom({ atom, model: services.embedder.model, sourceUri, quote: sourceUri ? quote : undefined, duplicateOf: dup?.atomId });
  return {
    atom_id: res.atomId,
    created: res.created,
    near_duplicate_of: dup?.atomId !== undefined ? { atom_id: dup.atomId, cosine: Number(dup.cosine.toFixed(4)) } : null,
    citation_added: res.citationAdded,
    doc_id: res.docId,
    warnings,
  };
}
