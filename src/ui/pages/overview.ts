/**
 * Overview page: what memory_stats reports, for people — atoms by type and status, documents by kind, open gaps,
 * outbox backlog, projection lag and drift, the embedding model.
 */
import { html } from "hono/html";
import type { StatsResult } from "../../core/projections/stats.ts";
import { type Html, type PageContext, counts, layout } from "../html.ts";

const drift = (d: Record<string, number> | null): Html =>
  d === null
    ? html`unknown`
    : html`${
        Object.entries(d)
          .map(([k, v]) => `${k} ${v > 0 ? "+" : ""}${v}`)
          .join(", ") || "none"
      }`;

function projections(s: StatsResult): Html {
  const p = s.projections;
  return html`<div class="scroll"><table><caption>Projections</caption>
<thead><tr><th scope="col">Projection</th><th scope="col">Holds</th><th scope="col">Behind</th></tr></thead><tbody>
<tr><th scope="row">Lexical (in process)</th><td>${p.lexical.atoms_indexed} atoms</td><td>${p.lexical.lag_atoms} atoms</td></tr>
<tr><th scope="row">Vectors: ${p.vector.backend} (${p.vector.model})</th><td>${p.vector.vectors} vectors</td><td>${p.vector.lag_vectors} vectors</td></tr>
${p.external.map(
  (
    e,
  ) => html`<tr><th scope="row">${e.name}</th><td>${e.error ? html`<span class="error">${e.error}</span>` : drift(e.held)}</td>
<td>lag ${e.lag_s} s; drift ${drift(e.drift)}</td></tr>`,
)}
</tbody></table></div>`;
}

/** The overview's body over a stats result. */
export function overviewPage(ctx: PageContext, s: StatsResult): Html {
  const body = html`<div class="grid">
<section aria-labelledby="h-atoms"><h2 id="h-atoms">Atoms: ${s.atoms.total}</h2>
<h3>By type</h3>${counts(s.atoms.by_type)}<h3>By status</h3>${counts(s.atoms.by_status)}</section>
<section aria-labelledby="h-docs"><h2 id="h-docs">Documents: ${s.documents.total}</h2>${counts(s.documents.by_kind)}
<dl class="counts"><div><dt>URL documents due for a re-check</dt><dd>${s.urls_due}</dd></div></dl>
<p><a href="${ctx.base}/documents">All documents</a></p></section>
<section aria-labelledby="h-gaps"><h2 id="h-gaps">Research gaps</h2>
<dl class="counts"><div><dt>open</dt><dd>${s.open_gaps}</dd></div><div><dt>suggested from missed searches</dt><dd>${s.suggested_gaps}</dd></div></dl>
<p><a href="${ctx.base}/gaps">Gaps</a></p></section>
<section aria-labelledby="h-store"><h2 id="h-store">Store</h2><dl class="counts">
<div><dt>backend</dt><dd>${s.store.backend}</dd></div>
<div><dt>embedding model</dt><dd>${s.embedder.model} (${s.embedder.dim} dims, ${s.embedder.kind})</dd></div>
<div><dt>outbox backlog</dt><dd>${s.outbox.pending} pending, ${s.outbox.dead} dead${s.outbox.oldest_pending_age_s !== null ? `, oldest ${s.outbox.oldest_pending_age_s} s` : ""}</dd></div>
<div><dt>links</dt><dd>${s.links}</dd></div><div><dt>citations</dt><dd>${s.citations}</dd></div>
<div><dt>code symbols</dt><dd>${s.symbols}</dd></div><div><dt>quarantined chunks</dt><dd>${s.quarantined_chunks}</dd></div>
<div><dt>schema version</dt><dd>${s.schema_version}</dd></div></dl></section>
</div>${projections(s)}`;
  return layout(ctx, "Overview", "", body);
}
