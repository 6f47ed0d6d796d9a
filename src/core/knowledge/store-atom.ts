/**
 * memory_store: one typed atom from the agent, through the same dedup, links and outbox as ingest. Exact duplicates
 * (same type and folded content) resolve to the existing atom; a near-duplicate of the same meaning is merged into
 * it (recorded and undoable: the agent's atom stays as a stale row); a stored atom with the same claim negated or
 * with another number/date is kept apart and linked `contradicts` (memory_verify settles it). New atoms are
 * `candidate`s in memory_verify's queue.
 */
import { ATOM_TYPES, type AtomType } from "../../domain/atom.ts";
import { sanitizeText } from "../../domain/text.ts";
import { PegasError, invalidInput } from "../../errors.ts";
import { draftAtom } from "./atoms.ts";
import { atomTimeOf, checkObservedAt } from "./atom-time.ts";
import type { PlannedLink } from "../../ports/store/atom-writes.ts";
import type { Services } from "../services.ts";
import type { SupersessionFound } from "./supersession.ts";

/** Input of memory_store (DESIGN.md argument names). */
export interface StoreInput {
  type: AtomType;
  claim: string;
  content?: string;
  confidence?: number;
  source_uri?: string;
  quote?: string;
  /** When the source said it: ISO 8601 date or date-time (a message's time); absent: unknown. */
  observed_at?: string;
  /** Relations from the new atom to stored atoms, asserted by the agent. */
  links?: Array<{ atom_id: number; kind: string; confidence?: number }>;
}

/** Outcome: the atom id, whether it is new, what it duplicates, and what was changed in the input. */
export interface StoreResult {
  /** The atom holding the knowledge: the new atom, the exact duplicate, or the near-duplicate it was merged into. */
  atom_id: number;
  created: boolean;
  near_duplicate_of: { atom_id: number; cosine: number } | null;
  /** The merge (undo with `pegas-memory unmerge <merge_id>`) and the agent's absorbed, stale atom. */
  merge: { merge_id: number; absorbed_atom_id: number } | null;
  /** Stored atoms this one contradicts (same claim, negated or another number/date): both await memory_verify. */
  contradicts: Array<{ atom_id: number; cosine: number; reason: string }>;
  /** Older atoms this one superseded (now `superseded`; memory_verify revert_change_id undoes one). */
  supersedes?: SupersessionFound[];
  /** A stored atom that superseded this one at once (this one told of an older time). */
  superseded_by?: SupersessionFound | null;
  links_added: number;
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
    throw invalidInput(
      `${what} is ${text.length} characters; the limit is ${max}`,
      what === "claim" ? "put long text in `content`, or use memory_ingest" : "use memory_ingest for long text",
    );
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
  // A citation must point at evidence a reader can open, not at code.
  if (["javascript:", "data:", "vbscript:", "blob:", "about:"].includes(u.protocol)) {
    throw invalidInput(
      `source_uri with scheme '${u.protocol}' cannot be evidence`,
      "cite an http(s), file, doi or urn URI",
    );
  }
  // The URI is stored and shown in every citation: it must not carry a password.
  if (u.username || u.password)
    throw invalidInput("source_uri must not contain credentials (user:password@)", "cite the URI without them");
  return u.href;
}

/** Most links one store may assert. */
export const MAX_LINKS = 50;

const LINK_KIND = /^[a-z][a-z0-9_]{0,63}$/;

async function checkLinks(services: Pick<Services, "atomReads">, links: StoreInput["links"]): Promise<PlannedLink[]> {
  if (!links?.length) return [];
  if (links.length > MAX_LINKS) throw invalidInput(`${links.length} links; at most ${MAX_LINKS} per store`);
  for (const l of links) {
    if (!LINK_KIND.test(l.kind))
      throw invalidInput(
        `link kind '${l.kind}' is not a single lower-case token`,
        "use e.g. reference, cause, depends_on, contradicts",
      );
    if (l.confidence !== undefined && !(l.confidence >= 0 && l.confidence <= 1))
      throw invalidInput(`link confidence must be between 0 and 1, got ${l.confidence}`);
  }
  const ids = [...new Set(links.map((l) => l.atom_id))];
  const found = new Set((await services.atomReads.atomsByIds(ids, 0)).map((a) => a.id));
  const missing = ids.filter((i) => !found.has(i));
  if (missing.length)
    throw new PegasError("NOT_FOUND", `no atom ${missing.slice(0, 5).join(", ")} to link to`, {
      hint: "call memory_search to find atom ids",
    });
  return links.map((l) => ({ atomId: l.atom_id, kind: l.kind, confidence: l.confidence ?? 0.8, source: "agent" }));
}

/** Stores one atom. @throws PegasError INVALID_INPUT, NOT_FOUND (a link target), LLM_FAILED, STORE_UNAVAILABLE. */
export async function storeAtom(
  services: Pick<
    Services,
    "atomReads" | "atomWrites" | "config" | "embedder" | "projection" | "searchReads" | "supersession" | "vectorIndex"
  >,
  input: StoreInput,
  signal?: AbortSignal,
): Promise<StoreResult> {
  if (!ATOM_TYPES.includes(input.type))
    throw invalidInput(`unknown atom type '${input.type}'`, `use one of ${ATOM_TYPES.join(", ")}`);
  const warnings: string[] = [];
  const claim = clean(input.claim ?? "", "claim", MAX_CLAIM_CHARS, warnings);
  if (!claim) throw invalidInput("claim is empty", "state the knowledge in one sentence");
  const content =
    input.content === undefined ? claim : clean(input.content, "content", MAX_CONTENT_CHARS, warnings) || claim;
  const confidence = input.confidence ?? 0.5;
  if (!(confidence >= 0 && confidence <= 1))
    throw invalidInput(`confidence must be between 0 and 1, got ${confidence}`);
  const sourceUri = input.source_uri === undefined ? undefined : checkUri(input.source_uri);
  const quote = input.quote === undefined ? undefined : clean(input.quote, "quote", MAX_CONTENT_CHARS, warnings);
  if (quote && !sourceUri) warnings.push("quote ignored: it needs source_uri");
  const observedAt = checkObservedAt(input.observed_at);
  const agentLinks = await checkLinks(services, input.links);

  const draft = draftAtom({ type: input.type, claim, content, confidence, metadata: { source: "agent" } });
  const [vector] = await services.embedder.embedDocuments([draft.searchText], signal);
  await services.projection.sync();
  const atom = { ...draft, vector, time: atomTimeOf(content, observedAt, new Date()) };
  const [f] = await (await import("./dedup.ts")).findDuplicates(services, [atom], signal);
  const merge =
    f.merge?.atomId !== undefined
      ? { atomId: f.merge.atomId, cosine: f.merge.cosine, reason: f.merge.reason }
      : undefined;
  const dedupLinks: PlannedLink[] = f.links.map((l) => ({
    atomId: l.atomId,
    kind: l.kind,
    confidence: Math.max(0, Math.min(1, l.cosine)),
    source: "dedup",
  }));
  const res = await services.atomWrites.storeAtom({
    atom,
    model: services.embedder.model,
    sourceUri,
    quote: sourceUri ? quote : undefined,
    mergeInto: merge,
    links: [...agentLinks, ...dedupLinks],
  });
  // A new statement may replace an older one on the same subject and property (or be replaced by it).
  const replaced =
    res.created && !res.merge
      ? await (await import("./supersession.ts")).supersedeFor(services, res.atomId, content)
      : null;
  return {
    atom_id: res.atomId,
    created: res.created,
    supersedes: replaced?.supersedes ?? [],
    superseded_by: replaced?.superseded_by ?? null,
    near_duplicate_of: res.merge && merge ? { atom_id: merge.atomId, cosine: Number(merge.cosine.toFixed(4)) } : null,
    merge: res.merge ? { merge_id: res.merge.mergeId, absorbed_atom_id: res.merge.absorbedAtomId } : null,
    contradicts: f.links
      .filter((l) => l.kind === "contradicts")
      .map((l) => ({ atom_id: l.atomId!, cosine: Number(l.cosine.toFixed(4)), reason: l.reason })),
    links_added: res.linksAdded,
    citation_added: res.citationAdded,
    doc_id: res.docId,
    warnings,
  };
}
