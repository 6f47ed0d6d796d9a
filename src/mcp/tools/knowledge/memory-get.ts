/** memory_get tool: one atom whole, with its history, citations and links. */
import { z } from "zod";
import { DEFAULT_LINKS, getAtom, MAX_CITATIONS, MAX_HISTORY, MAX_LINKS } from "../../../core/knowledge/get-atom.ts";
import { atomStatus, atomType, citation, id, responseFormat, statusHistoryEntry } from "../../schemas.ts";
import type { ToolDef } from "../../tool.ts";
import { conciseGet, renderGet } from "./render-get.ts";
import { getEntity } from "../../../core/knowledge/get-entity.ts";
import { invalidInput } from "../../../errors.ts";
import { reasonLine } from "../../../domain/confidence/model.ts";
import { conciseEntity, ENTITY_TOKENS, entityOutput, loadEntityCounter, renderEntity } from "./render-entity.ts";
import { quantitiesOutput, quantityOut } from "./render-quantities.ts";

const linkBase = {
  link_id: id,
  kind: z.string().describe("relation kind: contradicts, supports, related, depends_on, defines, …"),
  confidence: z.number().optional(),
  source: z.string().optional().describe("who asserted it: extraction, verification, agent, inference"),
  inferred: z.boolean().optional().describe("derived by memory_infer"),
  created_at: z.string().optional(),
};
const atomLink = z.object({
  ...linkBase,
  atom_id: id.describe("the atom at the other end"),
  claim: z.string().describe("its claim (at most 300 characters)"),
  type: z.string(),
  status: z.string(),
});
const symbolLink = z.object({
  ...linkBase,
  symbol_id: id,
  repo: z.string(),
  path: z.string(),
  line: z.number().int().describe("first line of the symbol (1-based)"),
  qualified_name: z.string(),
  symbol_kind: z.string(),
});

/** memory_get's arguments. */
interface GetArgs {
  atom_id?: number;
  entity?: string;
  max_tokens?: number;
  max_links?: number;
  links_offset?: number;
}

/** Read one atom whole, or an entity's profile. */
export const memoryGet: ToolDef = {
  name: "memory_get",
  title: "Read an atom or an entity",
  description: "Read one atom whole (citations, history, links), or an entity's cited profile (entity:<id> or name).",
  details:
    "Read one atom (an id from memory_search, memory_store or a link) whole: claim, full content, type, status, " +
    `confidence with its reasons (each a signed weight: sources, verification, contradictions, supersession, age), language, its citations (document, locator, quote; at most ${MAX_CITATIONS}), its status history ` +
    `(newest first, at most ${MAX_HISTORY}: who changed it, why, on what evidence), its links out and in with the ` +
    "other atom's claim and status, its links to code symbols (path:line), the merge that absorbed it if one " +
    "did, and the measurements its claim states (`quantities`: value or range in the canonical unit, as written, " +
    'what was measured and under which conditions; a "Quantities:" line in the text, docs/quantities.md). ' +
    "Retracted and stale atoms are shown too, marked by their status. " +
    'With `entity` (entity:<id>, or a name in any case: «Андрея Ефимыча», "Kiyo") instead: the entity\'s kind, ' +
    "name and aliases, the statements that describe it best (introductions and definitions first, each with its " +
    "numbered sources), and the entities named beside it most often, within max_tokens; a name several entities " +
    "answer to lists them as candidates. Read-only.",
  fieldDetails: {
    atom_id: "the atom to read",
    entity: "entity:<id> or a person's, place's, work's … name",
    max_tokens: `entity profile size cap in o200k tokens; default ${ENTITY_TOKENS.default}`,
    max_links: `links per list (out, in, symbols); default ${DEFAULT_LINKS}`,
  },
  inputSchema: {
    atom_id: id.optional(),
    entity: z.string().min(1).max(300).optional(),
    max_tokens: z.number().int().min(ENTITY_TOKENS.min).max(ENTITY_TOKENS.max).optional(),
    max_links: z.number().int().min(1).max(MAX_LINKS).optional(),
    links_offset: z.number().int().min(0).optional().describe("for the next page"),
    response_format: responseFormat,
  },
  outputSchema: {
    atom_id: id.optional(),
    type: atomType.optional(),
    status: atomStatus.optional(),
    claim: z.string().optional(),
    content: z.string().optional(),
    confidence: z.number().optional().describe("computed from its reasons"),
    confidence_reasons: z.array(z.string()).optional().describe("signed weight (logit) and reason, largest first"),
    lang: z.string().optional(),
    doc_id: id.optional().describe("the document the atom was distilled from (absent for atoms stored by the agent)"),
    created_at: z.string().optional(),
    citations: z.array(citation).optional(),
    citation_count: z.number().int().optional(),
    status_history: z.array(statusHistoryEntry).optional(),
    links_out: z.array(atomLink).optional().describe("this atom → another, newest first"),
    links_out_total: z.number().int().optional(),
    links_in: z.array(atomLink).optional().describe("another atom → this one, newest first"),
    links_in_total: z.number().int().optional(),
    symbols: z.array(symbolLink).optional().describe("links to code symbols (e.g. the symbol a code atom `defines`)"),
    symbols_total: z.number().int().optional(),
    observed_at: z.string().optional().describe("when its source said it (ISO 8601 UTC)"),
    event: z
      .object({ start: z.string(), end: z.string(), granularity: z.string() })
      .optional()
      .describe("when what it says happened: [start, end) UTC, known to `granularity`"),
    superseded_by: z.array(id).optional().describe("live atoms that superseded this one"),
    supersedes: z.array(id).optional().describe("atoms this one superseded"),
    merged_into: z
      .object({ merge_id: id, atom_id: id })
      .optional()
      .describe("the merge that absorbed this atom (undo with memory_unmerge)"),
    quantities: quantitiesOutput,
    ...entityOutput,
  },
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  run: async (services, args) => {
    const { atom_id, max_links, links_offset, entity } = args as GetArgs;
    if ((atom_id === undefined) === (entity === undefined))
      throw invalidInput(
        "give either atom_id or entity",
        "atom_id reads an atom; entity (entity:<id> or a name) a profile",
      );
    if (entity !== undefined) {
      await loadEntityCounter();
      const found = await getEntity(services, entity);
      return "profile" in found ? { entity: found.profile } : { candidates: found.candidates };
    }
    const { atom, history, links, confidence, quantities } = await getAtom(
      services,
      atom_id as number,
      max_links,
      links_offset,
    );
    const { toVerifyChange } = await import("../../../core/verify/verify.ts"); // loaded on use, as memory_verify does
    return {
      atom_id: atom.id,
      type: atom.type,
      status: atom.status,
      claim: atom.claim,
      content: atom.content,
      confidence: confidence.value,
      confidence_reasons: confidence.reasons.map(reasonLine),
      lang: atom.lang,
      ...(atom.doc_id !== null ? { doc_id: atom.doc_id } : {}),
      created_at: atom.created_at,
      ...(atom.time?.observedAt ? { observed_at: atom.time.observedAt } : {}),
      ...(atom.time?.event ? { event: atom.time.event } : {}),
      ...(links.supersededBy.length ? { superseded_by: links.supersededBy } : {}),
      ...(links.supersedes.length ? { supersedes: links.supersedes } : {}),
      ...(quantities.length ? { quantities: quantities.map(quantityOut) } : {}),
      citations: atom.citations,
      citation_count: atom.citation_count,
      status_history: history.map((r) => ({
        ...toVerifyChange(r),
        actor: r.actor,
        ...(r.reverts !== null ? { reverts: r.reverts } : {}),
        ...(r.reverted_at !== null ? { reverted_at: r.reverted_at } : {}),
        created_at: r.created_at,
      })),
      links_out: links.out,
      links_out_total: links.outTotal,
      links_in: links.in,
      links_in_total: links.inTotal,
      symbols: links.symbols,
      symbols_total: links.symbolsTotal,
      ...(links.mergedInto
        ? { merged_into: { merge_id: links.mergedInto.mergeId, atom_id: links.mergedInto.atomId } }
        : {}),
    };
  },
  render: (out, args) => (out.entity || out.candidates ? renderEntity(out, args) : renderGet(out, args)),
  concise: (out, args) => (out.entity || out.candidates ? conciseEntity(out, args) : conciseGet(out)),
};
