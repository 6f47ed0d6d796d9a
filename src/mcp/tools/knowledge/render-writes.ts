/**
 * Text content (tool.ts `render`) of the knowledge tools that change memory or report on it: memory_link,
 * memory_forget, memory_store, memory_ingest, memory_stats, memory_unmerge; and the concise structured content of
 * memory_forget and memory_ingest, whose whole results list every change and every document.
 */
import { INGEST_COUNT_KEYS } from "../../../core/documents/tally.ts";
import { countsText, lines, moreLine, oneLine } from "../../render.ts";
import { entityName } from "./render-entity.ts";

type Out = { [key: string]: any };

/** memory_link's text: the link asserted or removed, with what removing it did to inferred edges. */
export function renderLink(out: Out): string {
  const edge = `${out.src} -${out.kind}-> ${out.dst}`;
  const meta = `link ${out.link_id}, source ${out.source}, confidence ${Number(out.confidence).toFixed(2)}`;
  if (out.removed) {
    const inferred =
      out.inferred_retracted || out.inferred_rederived
        ? ` Inferred edges that depended on it: ${out.inferred_retracted ?? 0} retracted, ${out.inferred_rederived ?? 0} held by another justification.`
        : "";
    return `Removed ${edge} (${meta}).${inferred}`;
  }
  return out.created ? `Linked ${edge} (${meta}).` : `Already linked ${edge} (${meta}); kept one link.`;
}

/** Changes listed in memory_forget's concise content (its text groups them by status). */
const FORGET_LISTED = 100;

/** memory_forget's concise content: the changes without the reason, actor and time every one of them shares. */
export function conciseForget(out: Out): Out {
  return {
    ...out,
    changes: (out.changes as Out[])
      .slice(0, FORGET_LISTED)
      .map((c) => ({ change_id: c.change_id, atom_id: c.atom_id, from: c.from, to: c.to })),
    unchanged: (out.unchanged as number[]).slice(0, FORGET_LISTED),
  };
}

/** `ids` as "12, 13, 14" cut at `max` with "… (+n)". */
function idList(ids: readonly number[], max = 50): string {
  const shown = ids.slice(0, max).join(", ");
  return ids.length > max ? `${shown}, … (+${ids.length - max})` : shown;
}

/**
 * memory_forget's text: how many atoms changed, grouped by from → to, and what was left as it was; for an entity, which
 * one and the documents that went with it; for an ambiguous name, the candidates (nothing changed).
 */
export function renderForget(out: Out): string {
  if (out.candidates) {
    const list = (out.candidates as Out[]).map((c) => `- ${entityName(c)} — named in ${c.atoms} atom(s)`);
    return lines([
      `Nothing retracted: ${list.length} entities answer to this name; call memory_forget with entity:<id>:`,
      ...list,
    ]);
  }
  const groups = new Map<string, number[]>();
  for (const c of out.changes as Out[]) {
    const key = `${c.from} → ${c.to}`;
    groups.set(key, [...(groups.get(key) ?? []), c.atom_id]);
  }
  const verb = out.undo ? "Restored" : "Retracted";
  const doc = out.document_atoms !== undefined ? ` (the document has ${out.document_atoms} atoms)` : "";
  const listed = (out.changes as Out[]).length;
  return lines([
    `${verb} ${out.changed} atom(s)${doc}; ${out.links} link(s) ${out.undo ? "restored to" : "withdrawn from"} the graph and indexes.`,
    ...[...groups].map(([k, ids]) => `- ${k}: atoms ${idList(ids)}`),
    listed < out.changed ? `(${out.changed - listed} more changes not listed)` : "",
    out.unchanged.length ? `Unchanged: atoms ${idList(out.unchanged)}.` : "",
    out.gaps_reopened?.length ? `Research gaps open again: ${idList(out.gaps_reopened)}.` : "",
    out.entity ? `Entity: ${entityName(out.entity)}.` : "",
    out.documents?.length
      ? `Documents ${out.undo ? "restored" : "retracted"} (all their atoms name it): ${idList(out.documents)}.`
      : "",
    out.undo ? "" : "memory_forget with undo: true and the same target restores them.",
  ]);
}

/** memory_store's text: the atom, what happened to it (new, existing, merged) and what it contradicts. */
export function renderStore(out: Out): string {
  const head = out.merge
    ? `Merged into atom ${out.near_duplicate_of?.atom_id ?? "?"} as a near-duplicate (merge ${out.merge.merge_id}: memory_unmerge undoes it); the absorbed atom is ${out.merge.absorbed_atom_id}.`
    : out.created
      ? `Stored atom ${out.atom_id}.`
      : `Atom ${out.atom_id} already holds this (same type and content).`;
  return lines([
    head,
    out.citation_added ? `Citation added${out.doc_id ? ` (document ${out.doc_id})` : ""}.` : "",
    out.links_added ? `${out.links_added} link(s) added.` : "",
    ...((out.supersedes as Out[] | undefined) ?? []).map(
      (s) =>
        `Supersedes atom ${s.atom_id} (${oneLine(s.reason, 120)}): it is now superseded; memory_verify revert_change_id ${s.change_id} undoes it.`,
    ),
    out.superseded_by
      ? `Superseded at once by atom ${(out.superseded_by as Out).atom_id} (${oneLine(String((out.superseded_by as Out).reason), 120)}); revert_change_id ${(out.superseded_by as Out).change_id} undoes it.`
      : "",
    ...(out.contradicts as Out[]).map(
      (c) => `Contradicts atom ${c.atom_id} (${oneLine(c.reason, 120)}): memory_verify settles it.`,
    ),
    ...(out.warnings as string[]).map((w) => `Warning: ${oneLine(w, 300)}`),
  ]);
}

/** Documents, errors and skipped entries listed in memory_ingest's concise content and text. */
export const INGEST_LISTED = 20;

/** "40 chunks; atoms: 100 new, 15 existing, 5 merged, 2 contradicting; …" (zero counts left out). */
function countsLine(c: Out): string {
  const atoms = [
    [c.atoms_created, "new"],
    [c.atoms_existing, "existing"],
    [c.atoms_near_duplicate, "merged"],
    [c.atoms_contradicting, "contradicting"],
    [c.atoms_superseded, "superseded"],
    [c.atoms_staled, "staled"],
    [c.atoms_revived, "revived"],
  ]
    .filter(([n]) => n)
    .map(([n, w]) => `${n} ${w}`);
  return [
    `${c.chunks} chunk(s)`,
    atoms.length ? `atoms: ${atoms.join(", ")}` : "no new atoms",
    c.citations_added ? `${c.citations_added} citation(s)` : "",
    c.links_added ? `${c.links_added} link(s)` : "",
    c.chunks_quarantined ? `${c.chunks_quarantined} chunk(s) quarantined (distill --retry)` : "",
  ]
    .filter(Boolean)
    .join("; ");
}

/** memory_ingest's concise content: totals, and the first documents, errors and skips without per-document counts. */
export function conciseIngest(out: Out): Out {
  const totals = Object.fromEntries(INGEST_COUNT_KEYS.map((k) => [k, out[k]]));
  return {
    doc_id: out.doc_id,
    uri: out.uri,
    version: out.version,
    unchanged: out.unchanged,
    ...totals,
    warnings: (out.warnings as string[]).slice(0, INGEST_LISTED),
    documents: (out.documents as Out[]).slice(0, INGEST_LISTED).map((d) => ({
      doc_id: d.doc_id,
      uri: d.uri,
      kind: d.kind,
      title: d.title,
      version: d.version,
      stored: d.stored,
      unchanged: d.unchanged,
      atoms_created: d.atoms_created,
    })),
    documents_total: out.documents_total,
    errors: (out.errors as Out[]).slice(0, INGEST_LISTED),
    errors_total: out.errors.length,
    skipped: (out.skipped as Out[]).slice(0, INGEST_LISTED),
    skipped_total: out.skipped.length,
    took_ms: out.took_ms,
    ...(out.job ? { job: out.job } : {}),
  };
}

/** memory_ingest's text: one line per document (the first 20), the totals, failures and what to do next. */
export function renderIngest(out: Out): string {
  const job = out.job as Out | undefined;
  if (job) {
    const follow = `memory_ingest {job: "${job.id}"}`;
    if (job.state === "running")
      return `Job ${job.id} running since ${job.started_at}: ${job.progress}${job.total ? ` of ${job.total}` : ""} (${oneLine(job.message, 200)}). Call ${follow} again for its state and, once done, its result.`;
    if (job.state === "failed")
      return `Job ${job.id} failed: ${job.error.code}: ${oneLine(job.error.message, 300)} (stored files stay; the same ingest resumes).`;
    return `Job ${job.id} done at ${job.finished_at}.\n${renderIngest({ ...out, job: undefined })}`;
  }
  const docs = out.documents as Out[];
  const detailed = 'response_format "detailed" lists them (up to 100) with per-document counts and merges';
  const docLine = (d: Out) => {
    const name = d.title ? `«${oneLine(d.title, 80)}» ` : "";
    const state = !d.stored ? "not stored (no text; see warnings)" : d.unchanged ? "unchanged" : countsLine(d);
    return `- doc ${d.doc_id ?? "—"} ${name}(${d.uri}) v${d.version}: ${state}${d.snippet ? "; the snippet was stored" : ""}`;
  };
  const single = docs.length === 1 && out.documents_total === 1;
  return lines([
    single
      ? `Ingested ${docLine(docs[0]).slice(2)}`
      : `Ingested ${out.documents_total} document(s): ${countsLine(out)}.`,
    ...(single ? [] : docs.slice(0, INGEST_LISTED).map(docLine)),
    single ? "" : moreLine("documents", Math.min(docs.length, INGEST_LISTED), out.documents_total, detailed),
    ...(out.errors as Out[])
      .slice(0, INGEST_LISTED)
      .map((e) => `Failed: ${e.source}: ${e.code}: ${oneLine(e.message, 200)}`),
    moreLine("failures", Math.min(out.errors.length, INGEST_LISTED), out.errors.length, detailed),
    out.skipped.length
      ? `Skipped ${out.skipped.length}: ${(out.skipped as Out[])
          .slice(0, INGEST_LISTED)
          .map((s) => `${s.source} (${s.reason})`)
          .join(", ")}${out.skipped.length > INGEST_LISTED ? ", …" : ""}`
      : "",
    ...(out.warnings as string[]).slice(0, INGEST_LISTED).map((w) => `Warning: ${oneLine(w, 300)}`),
    out.atoms_contradicting ? "Contradicting atoms are linked `contradicts`: memory_verify settles them." : "",
  ]);
}

/** memory_stats's text: the counters as short lines. */
export function renderStats(out: Out): string {
  const p = out.projections ?? {};
  const ext = ((p.external ?? []) as Out[]).map((e) => {
    const drift = Object.entries(e.drift ?? {}).filter(([, n]) => n !== 0);
    return `- ${e.name}: ${e.error ? `error: ${oneLine(e.error, 200)}` : `drift ${drift.length ? countsText(Object.fromEntries(drift) as Record<string, number>) : "none"}`}, lag ${e.lag_s}s`;
  });
  const age = out.outbox.oldest_pending_age_s;
  return lines([
    `Atoms ${out.atoms.total}: by type ${countsText(out.atoms.by_type)}; by status ${countsText(out.atoms.by_status)}.`,
    `Documents ${out.documents.total}: ${countsText(out.documents.by_kind)}. Chunks ${out.chunks}, citations ${out.citations}, links ${out.links}, merges ${out.merges}.`,
    `Code: ${out.symbols} symbols, ${out.dependencies} dependencies. Traces ${out.traces}.`,
    `Research: ${out.open_gaps} open gaps, ${out.suggested_gaps} suggested (memory_list_gaps), ${out.search_misses} search misses.`,
    out.urls_due ? `URL documents due for a re-check: ${out.urls_due} (memory_refresh).` : "",
    out.quarantined_chunks ? `Quarantined chunks: ${out.quarantined_chunks} (pegas-memory distill --retry).` : "",
    `Embedder ${out.embedder.model} (${out.embedder.kind}, ${out.embedder.dim} dims); embeddings ${countsText(out.embeddings)}.`,
    `Outbox: ${out.outbox.pending} pending${age != null ? ` (oldest ${age}s)` : ""}, ${out.outbox.dead} dead.`,
    p.lexical
      ? `Lexical index: ${p.lexical.atoms_indexed} atoms, ${p.lexical.lag_atoms} behind. Vector index (${p.vector.backend}): ${p.vector.vectors} vectors, ${p.vector.lag_vectors} behind.`
      : "",
    ...ext,
    `Store ${out.store.backend} at ${out.store.location}, schema ${out.schema_version}.`,
  ]);
}

/** memory_unmerge's text. */
export function renderUnmerge(out: Out): string {
  return `Merge ${out.merge_id} undone: atom ${out.absorbed_atom_id} is a separate candidate again (atom ${out.kept_atom_id} kept).`;
}
