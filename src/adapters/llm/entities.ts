/**
 * The entity list of a model's answer (issue 22), checked entity by entity: an entity that fails its schema (an
 * unknown kind, a blank or overlong name or quote), whose quote is not in the chunk, or that repeats another is
 * dropped with a warning. A list that is missing, empty, not a list, or left with no valid entity gives `undefined`:
 * the chunk's mentions then come from the heuristic extractor, as they do for the heuristic distiller. A broken list
 * never costs the chunk its atoms.
 */
import { nameKey } from "../../domain/entities/names.ts";
import type { NamedEntity } from "../../domain/entities/types.ts";
import { describeIssues } from "./parse.ts";
import { AnswerEntitySchema, MAX_LLM_ENTITIES } from "./schema.ts";

/** The valid entities of `raw` (the answer's `entities`) for the chunk `text`, or undefined (see the module doc). */
export function checkEntities(raw: unknown, text: string, warnings: string[]): NamedEntity[] | undefined {
  if (raw === undefined || raw === null) return undefined;
  if (!Array.isArray(raw)) {
    warnings.push("entities: not a list; the chunk's names are found by the heuristic extractor");
    return undefined;
  }
  if (raw.length > MAX_LLM_ENTITIES)
    warnings.push(`entities: ${raw.length} named, only the first ${MAX_LLM_ENTITIES} kept`);
  const out: NamedEntity[] = [];
  const seen = new Set<string>();
  for (const [i, item] of raw.slice(0, MAX_LLM_ENTITIES).entries()) {
    const parsed = AnswerEntitySchema.safeParse(item);
    if (!parsed.success) {
      warnings.push(`entity ${i} dropped: ${describeIssues(parsed.error)}`);
      continue;
    }
    const e = { kind: parsed.data.kind, name: parsed.data.name.trim(), quote: parsed.data.quote.trim() };
    if (!e.name || !e.quote || !nameKey(e.name)) {
      warnings.push(`entity ${i} dropped: a blank name or quote`);
    } else if (!text.includes(e.quote)) {
      warnings.push(`entity ${i} dropped: its quote "${e.quote.slice(0, 60)}" is not in the chunk`);
    } else if (!seen.has(`${e.kind}\u0000${nameKey(e.name)}\u0000${e.quote}`)) {
      seen.add(`${e.kind}\u0000${nameKey(e.name)}\u0000${e.quote}`);
      out.push(e);
    }
  }
  if (!out.length && raw.length)
    warnings.push("entities: none valid; the chunk's names are found by the heuristic extractor");
  return out.length ? out : undefined;
}
