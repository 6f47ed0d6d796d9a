/**
 * Which texts of an atom mentions are taken from, and which extracted mentions are fit to store: the content (the
 * whole statement, so the extractor sees every word's context), and the claim too when the content does not contain
 * it (a distiller's paraphrase); a mention whose span does not give its surface, or with an empty key, a kind outside
 * the vocabulary or a confidence outside (0, 1], is dropped rather than failing the write. Pure.
 */
import { ENTITY_KINDS, type EntityMention } from "./types.ts";

/** The texts of an atom: its id, claim, content and language. */
export interface AtomTexts {
  id: number;
  claim: string;
  content: string;
  lang: string;
}

/** Mentions found in one text of one atom (`field` says which), ready for EntityStore.writeMentions. */
export interface FieldMentions {
  atomId: number;
  field: "claim" | "content";
  mentions: EntityMention[];
}

/** An extractor: `(text, lang) → mentions with UTF-16 spans into text`. */
export type MentionExtractor = (text: string, lang: string) => EntityMention[];

const KINDS: ReadonlySet<string> = new Set(ENTITY_KINDS);

/** True when `m` is a well-formed mention of `text` (see the module comment). */
export function fitMention(text: string, m: EntityMention): boolean {
  return (
    Number.isInteger(m.start) &&
    Number.isInteger(m.end) &&
    m.start >= 0 &&
    m.end > m.start &&
    text.slice(m.start, m.end) === m.surface &&
    typeof m.key === "string" &&
    m.key.trim() !== "" &&
    typeof m.name === "string" &&
    m.name.trim() !== "" &&
    KINDS.has(m.kind) &&
    m.confidence > 0 &&
    m.confidence <= 1
  );
}

/** The mentions of an atom's texts by `extract`, per field, fields with none left out. */
export function atomMentions(atom: AtomTexts, extract: MentionExtractor): FieldMentions[] {
  const fields: Array<["claim" | "content", string]> = [];
  if (atom.content.trim()) fields.push(["content", atom.content]);
  if (atom.claim.trim() && !atom.content.includes(atom.claim)) fields.push(["claim", atom.claim]);
  const out: FieldMentions[] = [];
  for (const [field, text] of fields) {
    const mentions = extract(text, atom.lang).filter((m) => fitMention(text, m));
    if (mentions.length) out.push({ atomId: atom.id, field, mentions });
  }
  return out;
}
