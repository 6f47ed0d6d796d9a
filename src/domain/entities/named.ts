/**
 * Entities a language model named in a chunk → the mentions of one text (an atom's claim or content), in the same
 * mention model as the heuristic extractor (types.ts): a span, the canonical name, its key, a kind, a confidence.
 * Two ways a named entity is found in a text: (1) its verbatim quote, as a whole word run (not inside a longer word);
 * (2) a mention the heuristic extractor finds whose key is the key of the entity's name or quote, so that another
 * inflected form («Андрею Ефимычу» beside the quoted «Андрей Ефимыч») counts too; both carry the model's kind and
 * name. Longer spans win over overlapping shorter ones. What the model did not name is not a mention: its list
 * replaces the heuristic's for the chunk (the caller falls back to the heuristic when the model gave no valid
 * entity). Pure.
 */
import type { MentionExtractor } from "./atom-mentions.ts";
import { extractMentions } from "./mentions.ts";
import { nameKey } from "./names.ts";
import type { EntityMention, NamedEntity } from "./types.ts";

/** Confidence of a mention of an entity a model named (the heuristic gives 0.65–0.95 by its cues). */
export const NAMED_MENTION_CONFIDENCE = 0.85;

const WORD = /[\p{L}\p{N}]/u;

/** UTF-16 starts of `quote` in `text` where it stands as whole words (no letter or digit just before or after). */
function wholeOccurrences(text: string, quote: string): number[] {
  const out: number[] = [];
  for (let at = text.indexOf(quote); at >= 0; at = text.indexOf(quote, at + 1)) {
    const before = at > 0 ? text[at - 1] : "";
    const after = text[at + quote.length] ?? "";
    if (!WORD.test(before) && !WORD.test(after)) out.push(at);
  }
  return out;
}

/** Keeps the longest of overlapping mentions (then the earliest), ordered by start. */
function withoutOverlaps(found: EntityMention[]): EntityMention[] {
  const kept: EntityMention[] = [];
  for (const m of [...found].sort((a, b) => b.end - b.start - (a.end - a.start) || a.start - b.start))
    if (!kept.some((k) => m.start < k.end && k.start < m.end)) kept.push(m);
  return kept.sort((a, b) => a.start - b.start);
}

/**
 * An extractor over the entities a model named (see the module comment); entities with a blank name or quote are
 * skipped. `(text, lang) → mentions` with UTF-16 spans into `text`.
 */
export function namedEntityExtractor(entities: readonly NamedEntity[]): MentionExtractor {
  const usable = entities
    .map((e) => ({ ...e, name: e.name.trim(), quote: e.quote.trim() }))
    .filter((e) => e.name && e.quote && nameKey(e.name));
  const byKey = new Map<string, NamedEntity>();
  for (const e of usable) {
    if (!byKey.has(nameKey(e.name))) byKey.set(nameKey(e.name), e);
    if (!byKey.has(nameKey(e.quote))) byKey.set(nameKey(e.quote), e);
  }
  const mention = (e: NamedEntity, start: number, surface: string): EntityMention => ({
    start,
    end: start + surface.length,
    surface,
    name: e.name,
    key: nameKey(e.name),
    kind: e.kind,
    confidence: NAMED_MENTION_CONFIDENCE,
  });
  return (text, lang) => {
    const found: EntityMention[] = [];
    for (const e of usable) for (const at of wholeOccurrences(text, e.quote)) found.push(mention(e, at, e.quote));
    for (const m of extractMentions(text, lang)) {
      const e = byKey.get(m.key) ?? byKey.get(nameKey(m.surface));
      if (e) found.push(mention(e, m.start, m.surface));
    }
    return withoutOverlaps(found);
  };
}
