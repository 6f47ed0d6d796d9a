/**
 * memory_link and memory_forget: argument checks and the store calls. A link endpoint is an atom id (a number or
 * `atom:<id>`) or a code symbol (`symbol:<id>`); a relation kind is one token (`^[a-z][a-z0-9_]{0,63}$`, as the
 * schema's CHECK). memory_link's `remove` deletes a link again (which ones may go: CurationWrites.unlink).
 * Forgetting retracts (tombstones) atoms, a whole document's atoms or an entity's (see {@link ForgetArgs}); `undo`
 * restores them.
 */
import { invalidInput } from "../../errors.ts";
import type { ForgetOutcome, LinkApplied, LinkEndpoint, UnlinkApplied } from "../../ports/store/curation.ts";
import { embedRestored } from "../projections/backfill.ts";
import type { Services } from "../services.ts";
import { brief, type EntityBrief, entityCandidates, resolveEntityRef } from "./get-entity.ts";

/** A relation kind: one lower-case token. */
const KIND = /^[a-z][a-z0-9_]{0,63}$/;
/** Confidence of an agent's link when it gives none. */
export const DEFAULT_LINK_CONFIDENCE = 0.8;
/** Longest reason kept (characters). */
export const MAX_REASON = 1000;
/** Most atoms one memory_forget call names. */
export const MAX_FORGET_ATOMS = 1000;

/**
 * An endpoint from `12`, `"12"`, `"atom:12"` or `"symbol:34"`.
 * @throws PegasError INVALID_INPUT for anything else (documents, modules and names cannot be linked by the agent).
 */
export function parseEndpoint(v: unknown, what: string): LinkEndpoint {
  const hint = `${what} is an atom id (12 or atom:12) or a code symbol (symbol:34)`;
  if (typeof v === "number") {
    if (Number.isSafeInteger(v) && v >= 1) return { kind: "atom", id: v };
    throw invalidInput(`${what} must be a positive integer id, got ${v}`, hint);
  }
  if (typeof v === "string") {
    const m = /^(?:(atom|symbol):)?([1-9][0-9]{0,15})$/.exec(v.trim());
    if (m && Number.isSafeInteger(Number(m[2])))
      return { kind: (m[1] ?? "atom") as LinkEndpoint["kind"], id: Number(m[2]) };
  }
  throw invalidInput(`${what} '${String(v).slice(0, 80)}' is not a node the agent can link`, hint);
}

/** What memory_link takes. */
export interface LinkArgs {
  src: unknown;
  dst: unknown;
  kind: string;
  confidence?: number;
}

/** A link's endpoints and kind, checked; `self` false lets src = dst through (an inferred self-loop exists). */
function linkEnds(
  a: { src: unknown; dst: unknown; kind: unknown },
  self: boolean,
): { src: LinkEndpoint; dst: LinkEndpoint; kind: string } {
  const src = parseEndpoint(a.src, "src");
  const dst = parseEndpoint(a.dst, "dst");
  if (!self && src.kind === dst.kind && src.id === dst.id)
    throw invalidInput(`a link from ${src.kind}:${src.id} to itself says nothing`, "link two different nodes");
  const kind = typeof a.kind === "string" ? a.kind.trim() : "";
  if (!KIND.test(kind)) {
    throw invalidInput(
      `relation kind '${String(a.kind).slice(0, 80)}' is not one lower-case token`,
      "use e.g. supports, contradicts, depends_on, cause, reference, related, calls",
    );
  }
  return { src, dst, kind };
}

/**
 * Stores the agent's relation `src -kind-> dst`.
 * @throws PegasError INVALID_INPUT (endpoints, kind, confidence, a link to itself), NOT_FOUND, STORE_UNAVAILABLE.
 */
export async function linkNodes(
  s: Pick<Services, "curation">,
  a: LinkArgs,
): Promise<LinkApplied & { src: LinkEndpoint; dst: LinkEndpoint; kind: string }> {
  const { src, dst, kind } = linkEnds(a, false);
  const confidence = a.confidence ?? DEFAULT_LINK_CONFIDENCE;
  if (typeof confidence !== "number" || !(confidence >= 0 && confidence <= 1))
    throw invalidInput(`confidence must be in 0..1, got ${confidence}`);
  const applied = await s.curation.link({ src, dst, kind, confidence });
  return { ...applied, src, dst, kind };
}

/** What memory_link with `remove: true` takes: the link's endpoints and kind, as linkNodes parses them. */
export interface UnlinkArgs {
  src: unknown;
  dst: unknown;
  kind: string;
}

/**
 * Removes the link `src -kind-> dst` with its projection edge, and retracts what memory_infer derived from it unless
 * another justification holds it (CurationWrites.unlink says which links may go and why).
 * @returns the removed link (row id, table, source, confidence) with its endpoints, kind and the retraction counts.
 * @throws PegasError INVALID_INPUT (endpoints, kind; symbol → atom; an inferred link or one the code store made),
 *   NOT_FOUND (no such link; the hint names the reverse link or the kinds that exist), STORE_UNAVAILABLE.
 */
export async function unlinkNodes(
  s: Pick<Services, "curation">,
  a: UnlinkArgs,
): Promise<UnlinkApplied & { src: LinkEndpoint; dst: LinkEndpoint; kind: string }> {
  const { src, dst, kind } = linkEnds(a, true);
  const removed = await s.curation.unlink({ src, dst, kind });
  return { ...removed, src, dst, kind };
}

/**
 * What memory_forget takes: exactly one of `atom_id`, `atom_ids`, `doc_id`, `entity`. `entity` (`entity:<id>` or a
 * name, as memory_get takes it) forgets the entity "with its sources": every atom that mentions it (in its claim or
 * content, entities merged into it included) and every document all of whose atoms mention it; a document that also
 * says other things keeps them (its other atoms stay). A name several entities answer to retracts nothing and
 * answers with the candidates.
 */
export interface ForgetArgs {
  atom_id?: number;
  atom_ids?: number[];
  doc_id?: number;
  entity?: string;
  reason: string;
  undo?: boolean;
}

/** What forget did: the store's outcome; for an entity, the entity, or the candidates of an ambiguous name. */
export type ForgetResult = ForgetOutcome & {
  entity?: EntityBrief;
  candidates?: Array<EntityBrief & { atoms: number }>;
};

/**
 * Retracts (or with `undo` restores) atoms, a document's or an entity's atoms ({@link ForgetArgs}), in one
 * transaction, recording the reason. A restored atom without a
 * vector of the active model (forgotten before a model switch, or imported without embeddings) is embedded then
 * (embedRestored: a failure there is logged, not thrown).
 * @throws PegasError INVALID_INPUT (no or several targets, empty reason), NOT_FOUND (atom, document, entity or
 *   name), STORE_UNAVAILABLE.
 */
export async function forget(
  s: Pick<Services, "curation" | "embeddingStore" | "atomReads" | "embedder" | "entities">,
  a: ForgetArgs,
): Promise<ForgetResult> {
  const outcome = await forgetInStore(s, a);
  if (a.undo === true) await embedRestored(s, outcome);
  return outcome;
}

/** {@link forget}'s checks and store call. */
async function forgetInStore(s: Pick<Services, "curation" | "entities">, a: ForgetArgs): Promise<ForgetResult> {
  const targets = [a.atom_id, a.atom_ids, a.doc_id, a.entity].filter((t) => t !== undefined).length;
  if (targets !== 1)
    throw invalidInput(
      "give exactly one of atom_id, atom_ids, doc_id or entity",
      "atom ids come from memory_search; a doc_id from an atom's citation; an entity is entity:<id> or a name",
    );
  const reason = typeof a.reason === "string" ? a.reason.trim() : "";
  if (!reason)
    throw invalidInput(
      "a reason is required",
      "say why, e.g. 'the source was withdrawn'; it is kept in the atom's history",
    );
  if (reason.length > MAX_REASON) throw invalidInput(`the reason is ${reason.length} characters, over ${MAX_REASON}`);
  const undo = a.undo === true;
  const positive = (v: unknown, what: string): number => {
    if (typeof v === "number" && Number.isSafeInteger(v) && v >= 1) return v;
    throw invalidInput(`${what} must be a positive integer, got ${JSON.stringify(v)}`);
  };
  if (a.doc_id !== undefined) return s.curation.forget({ docId: positive(a.doc_id, "doc_id"), reason, undo });
  if (a.entity !== undefined) {
    const rows = await resolveEntityRef(s, String(a.entity));
    if (rows.length > 1) return { changes: [], unchanged: [], links: 0, candidates: await entityCandidates(s, rows) };
    return { ...(await s.curation.forget({ entityId: rows[0].id, reason, undo })), entity: brief(rows[0]) };
  }
  const ids =
    a.atom_id !== undefined
      ? [positive(a.atom_id, "atom_id")]
      : (a.atom_ids ?? []).map((v) => positive(v, "atom_ids[]"));
  if (!ids.length) throw invalidInput("atom_ids is empty");
  if (ids.length > MAX_FORGET_ATOMS)
    throw invalidInput(
      `atom_ids names ${ids.length} atoms, over ${MAX_FORGET_ATOMS} per call`,
      "split the list, or forget the whole document with doc_id",
    );
  return s.curation.forget({ atomIds: ids, reason, undo });
}
