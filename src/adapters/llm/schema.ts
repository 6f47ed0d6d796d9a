/**
 * The answer a language model gives for one chunk, as a zod schema (which validates the answer) and as the JSON
 * Schema made from it by `z.toJSONSchema` (which Ollama's `format` turns into a grammar, and which the prompt shows
 * to models that have no grammar, such as an MCP client's).
 */
import { z } from "zod";
import { ATOM_TYPES } from "../../domain/atom.ts";
import { ENTITY_KINDS } from "../../domain/entities/types.ts";

/** Most atoms one answer may hold (the heuristic distiller keeps as many per chunk). */
export const MAX_LLM_ATOMS = 64;
/** Most links from one atom. */
export const MAX_LLM_LINKS = 8;

/** A relation kind: one lower-case token, as in the data model (inference, cause, reference, depends_on…). */
export const LINK_KIND = /^[a-z][a-z0-9_]*$/;

/** One link of an answer: `to` is the index of another atom of the same answer. */
export const AnswerLinkSchema = z.object({
  to: z
    .number()
    .int()
    .min(0)
    .max(MAX_LLM_ATOMS - 1)
    .describe("index of the related atom in this answer's atoms"),
  kind: z
    .string()
    .regex(LINK_KIND)
    .max(40)
    .describe("relation kind: inference, cause, reference, contradicts, depends_on, defines…"),
});

/** One atom of an answer. */
export const AnswerAtomSchema = z.object({
  type: z.enum(ATOM_TYPES),
  claim: z.string().describe("the knowledge as one self-contained statement, in the chunk's language"),
  content: z.string().describe("the atom's body: the definition, the table with its header, the code, the rule…"),
  confidence: z.number().min(0).max(1).describe("how surely the chunk states this, 0..1"),
  quote: z.string().describe("a span copied verbatim from the chunk that supports the atom"),
  // A model without a grammar (MCP sampling) may leave out an empty list.
  links: z.array(AnswerLinkSchema).max(MAX_LLM_LINKS).default([]),
});

/** Most entities one answer may name. */
export const MAX_LLM_ENTITIES = 64;

/** One entity the chunk names (issue 22): checked one by one (entities.ts), so a bad one costs only itself. */
export const AnswerEntitySchema = z.object({
  kind: z.enum(ENTITY_KINDS),
  name: z.string().min(1).max(200).describe("canonical name: nominative, as complete as the chunk gives it"),
  quote: z.string().min(1).max(200).describe("the name exactly as written in the chunk"),
});

/** The entity list as the model is asked for it (the JSON Schema shows this; the answer check is lenient). */
const EntityListSchema = z.array(AnswerEntitySchema).max(MAX_LLM_ENTITIES);

/**
 * The whole answer for one chunk. `entities` is not checked here: an answer whose entity list is broken keeps its
 * atoms, and the chunk falls back to the heuristic extractor's mentions (entities.ts).
 */
export const DistillAnswerSchema = z.object({
  atoms: z.array(AnswerAtomSchema).max(MAX_LLM_ATOMS),
  entities: z.unknown().optional(),
});

/** A validated answer (unknown keys stripped). */
export type DistillAnswer = z.output<typeof DistillAnswerSchema>;

/**
 * JSON Schema (draft 2020-12) of the answer as asked for, for Ollama's `format` (a grammar: the model writes the
 * entity list, each kind from the vocabulary) and for prompts: {@link DistillAnswerSchema} with `entities` required.
 */
export const DISTILL_ANSWER_JSON_SCHEMA: Record<string, unknown> = z.toJSONSchema(
  DistillAnswerSchema.extend({ entities: EntityListSchema }),
);
