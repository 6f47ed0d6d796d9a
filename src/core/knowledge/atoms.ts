/** Building atoms from text: hashing identity, claim, language, the text full-text search indexes. */
import type { AtomType } from "../../domain/atom.ts";
import { sha256Hex } from "../../domain/hash.ts";
import { detectLang, foldForHash } from "../../domain/text.ts";
import type { AtomInput } from "../../ports/store/atom-writes.ts";

/** Identity of an atom: SHA-256 of its type and folded content (NFKC, lower case, ё→е, collapsed spaces). */
export function atomContentHash(type: AtomType, content: string): string {
  return sha256Hex(`${type}\u0000${foldForHash(content)}`);
}

/** An atom without its vector yet. */
export type AtomDraft = Omit<AtomInput, "vector">;

/** The text that is indexed and embedded for an atom: the content, prefixed by the claim when it lacks it. */
export function atomSearchText(claim: string, content: string): string {
  return content.includes(claim) ? content : `${claim}\n${content}`;
}

/** Makes an atom draft; the indexed text repeats the claim only when the content does not contain it. */
export function draftAtom(a: {
  type: AtomType;
  claim: string;
  content: string;
  confidence: number;
  metadata?: Record<string, unknown>;
}): AtomDraft {
  const searchText = atomSearchText(a.claim, a.content);
  return {
    type: a.type,
    claim: a.claim,
    content: a.content,
    searchText,
    contentHash: atomContentHash(a.type, a.content),
    confidence: a.confidence,
    lang: detectLang(searchText),
    metadata: a.metadata ?? {},
  };
}
