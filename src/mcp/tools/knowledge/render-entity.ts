/**
 * memory_get of an entity, for a model: the profile (kind, name, aliases, key statements with numbered citations,
 * the entities named beside it, what was left out and how to get it) or the candidates of an ambiguous name, within
 * `max_tokens` o200k tokens (statements dropped from the end until the text fits); and the output shapes.
 */
import { z } from "zod";
import { tokenCounter } from "../../../core/context/context.ts";
import type { EntityProfile } from "../../../core/knowledge/get-entity.ts";
import { lines, locatorText, oneLine, refs, Sources } from "../../render.ts";
import { citation, id } from "../../schemas.ts";

/** Answer size of an entity profile, in o200k tokens. */
export const ENTITY_TOKENS = { min: 200, max: 8000, default: 1200 } as const;
/** Characters of one statement's sentence. */
const SENTENCE_CHARS = 320;

/** The output fields naming one entity (memory_get's profile and candidates, memory_forget's entity). */
export const entityBrief = {
  entity_id: id,
  kind: z.string().describe("person, organisation, place, project, work, software, concept"),
  name: z.string(),
  aliases: z.array(z.string()),
};

/** Output fields memory_get adds for an entity. */
export const entityOutput = {
  entity: z
    .object({
      ...entityBrief,
      atoms: z.number().int().describe("atoms that name it"),
      mentions_cut: z.boolean().optional(),
      statements: z.array(
        z.object({
          atom_id: id,
          type: z.string(),
          status: z.string(),
          sentence: z.string().describe("the atom's sentence that describes the entity best"),
          citations: z.array(citation).optional(),
          cited: z.array(z.number().int()).optional().describe("concise: numbers of its sources"),
        }),
      ),
      statements_total: z.number().int(),
      related: z.array(z.object({ ...entityBrief, shared_atoms: z.number().int() })),
    })
    .optional()
    .describe("the profile, when the entity was named"),
  candidates: z
    .array(z.object({ ...entityBrief, atoms: z.number().int() }))
    .optional()
    .describe("when a name answers to several entities: call memory_get with entity:<id>"),
  sources: z
    .array(z.object({ n: z.number().int(), title: z.string().optional(), uri: z.string(), locator: z.string() }))
    .optional(),
};

type Counter = (text: string) => number;
let count: Counter | null = null;

/** Loads the token counter once; call before rendering a profile so that it is cut exactly. */
export async function loadEntityCounter(): Promise<void> {
  count ??= await tokenCounter();
}

type Out = { [key: string]: any };

/** "entity:7 · person · Андрей Ефимыч (also Рагин)": one entity on one line. */
export const entityName = (e: Out): string =>
  `entity:${e.entity_id} · ${e.kind} · ${e.name}${e.aliases?.length ? ` (also ${e.aliases.join(", ")})` : ""}`;

/** The profile's text with its first `n` statements and first `r` related entities. */
function profileText(p: EntityProfile, n: number, r = p.related.length): string {
  const sources = new Sources();
  const shown = p.statements.slice(0, n).map((st) => {
    const nums = st.citations.slice(0, 2).map((c) => sources.ref(c));
    return `- atom ${st.atom_id} · ${st.type}${st.status === "candidate" ? "" : ` · ${st.status}`}: ${oneLine(st.sentence, SENTENCE_CHARS)} ${refs(nums)}`.trimEnd();
  });
  const left = p.statements_total - shown.length;
  const related = p.related.slice(0, r).map((e) => `- ${entityName(e)} — named together in ${e.shared_atoms} atom(s)`);
  return lines(
    [
      `${entityName(p)} — named in ${p.atoms}${p.mentions_cut ? "+" : ""} atom(s)`,
      shown.length ? lines(["What the sources say about it (introductions first):", ...shown]) : "",
      left > 0 ? `(${left} more statement(s): raise max_tokens (up to 8000), or memory_search "${p.name}")` : "",
      related.length ? lines(["Named beside it most often:", ...related]) : "",
      related.length ? "memory_query_graph {node: entity:<id>, depth: 2} walks these relations." : "",
      sources.block(),
    ],
    true,
  );
}

/** How many statements, then related entities, fit `max` tokens (statements go first, down to one). */
function fitting(p: EntityProfile, max: number): { n: number; r: number } {
  const counter: Counter = count ?? ((t) => Math.ceil(t.length / 2)); // a safe overestimate until loaded
  let n = p.statements.length;
  let r = p.related.length;
  while (n > 1 && counter(profileText(p, n, r)) > max) n--;
  while (r > 0 && counter(profileText(p, n, r)) > max) r--;
  return { n, r };
}

/** memory_get's text for an entity: the profile within `max_tokens`, or the candidates. */
export function renderEntity(out: Out, args: { max_tokens?: number }): string {
  if (out.candidates) {
    const list = (out.candidates as Out[]).map((c) => `- ${entityName(c)} — named in ${c.atoms} atom(s)`);
    return lines([`${list.length} entities answer to this name; call memory_get with entity:<id> for one:`, ...list]);
  }
  const p = out.entity as EntityProfile;
  const { n, r } = fitting(p, args.max_tokens ?? ENTITY_TOKENS.default);
  return profileText(p, n, r);
}

/** memory_get's concise structured content for an entity: what the text shows, sources numbered as there. */
export function conciseEntity(out: Out, args: { max_tokens?: number }): Out {
  if (out.candidates) return { candidates: out.candidates };
  const p = out.entity as EntityProfile;
  const sources = new Sources();
  const listed: Out[] = [];
  const { n, r } = fitting(p, args.max_tokens ?? ENTITY_TOKENS.default);
  const statements = p.statements.slice(0, n).map((st) => {
    const cited = st.citations.slice(0, 2).map((c) => {
      const n = sources.ref(c);
      if (n > listed.length)
        listed.push({ n, title: c.title ?? undefined, uri: c.uri, locator: locatorText(c.locator) });
      return n;
    });
    return {
      atom_id: st.atom_id,
      type: st.type,
      status: st.status,
      sentence: oneLine(st.sentence, SENTENCE_CHARS),
      cited,
    };
  });
  return { entity: { ...p, statements, related: p.related.slice(0, r) }, sources: listed };
}
