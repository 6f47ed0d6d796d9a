/**
 * Graph page: the neighbourhood of an atom or code symbol (GraphStore.neighbours, as memory_query_graph) drawn by
 * cytoscape in the client script, with inferred edges dashed (edge labels shown on hover or selection, at a readable
 * size whatever the zoom), and a click on a node moving there. The same nodes and edges are listed as links and a
 * table, for the keyboard and for reading without the drawing.
 */
import { html } from "hono/html";
import { type Html, type PageContext, jsonForScript, layout, statusBadge } from "../html.ts";
import type { Subgraph } from "../../core/services.ts";

/** A node's label for people: an atom's claim, a symbol's name, a document's uri, a module's name. */
export type NodeLabels = Map<string, string>;

/** `s` cut to `n` characters, with "…" when it was longer. */
const clip = (s: string, n: number): string => (s.length > n ? `${s.slice(0, n)}…` : s);

const href = (ctx: PageContext, id: string) => `${ctx.base}/graph?node=${encodeURIComponent(id)}`;

/** The drawing's data: cytoscape elements (`inferred` edges flagged, `href` of each node, the root marked). */
function elements(ctx: PageContext, g: Subgraph, labels: NodeLabels): unknown[] {
  return [
    ...g.nodes.map((n) => ({
      data: {
        id: n.id,
        label: clip(labels.get(n.id) ?? n.id, 60),
        kind: n.label,
        root: n.id === g.root ? 1 : 0,
        href: href(ctx, n.id),
      },
    })),
    ...g.edges.map((e) => ({
      data: {
        id: e.key,
        source: e.src,
        target: e.dst,
        label: e.inferred ? `${e.kind} (inferred)` : e.kind,
        inferred: e.inferred ? 1 : 0,
      },
    })),
  ];
}

function form(ctx: PageContext, node: string, depth: number): Html {
  return html`<form class="search" action="${ctx.base}/graph" method="get"><p><label for="node">Node</label>
<input id="node" name="node" value="${node}" placeholder="atom:12, symbol:34 or an atom id" required size="24">
<label for="depth">Depth</label> <select id="depth" name="depth">${[1, 2, 3].map((d) => html`<option${d === depth ? html` selected` : ""}>${d}</option>`)}</select>
<button type="submit">Show</button></p></form>`;
}

/** The graph page; `g` null when no node was asked for yet. */
export function graphPage(ctx: PageContext, node: string, depth: number, g: Subgraph | null, labels: NodeLabels): Html {
  if (g === null)
    return layout(
      ctx,
      "Graph",
      "/graph",
      html`${form(ctx, node, depth)}<p class="muted">Name a node, or open the graph from an atom's page.</p>`,
    );
  const label = (id: string) => labels.get(id) ?? id;
  const nodeLink = (id: string) => html`<a href="${href(ctx, id)}">${label(id)}</a>`;
  const body = html`${form(ctx, node, depth)}
${g.degraded ? html`<p class="warn">${g.degraded}</p>` : ""}
<p class="legend"><span class="edge-extracted">── extracted edge</span> <span class="edge-inferred">- - inferred edge (memory_infer)</span>
· point at a node or edge to read the relations · click a node to move to it${g.truncated ? html` · <strong>cut at ${g.nodes.length} nodes</strong>` : ""}</p>
<div id="graph" class="graph" role="img" aria-label="Drawing of the neighbourhood of ${label(g.root)}"></div>
<script type="application/json" id="graph-data">${jsonForScript(elements(ctx, g, labels))}</script>
<div class="grid stack"><section aria-labelledby="h-nodes"><h2 id="h-nodes">Nodes (${g.nodes.length})</h2><ul class="links">
${g.nodes.map(
  (n) => html`<li data-node="${n.id}">${n.id === g.root ? html`<strong>${label(n.id)}</strong>` : nodeLink(n.id)}
<span class="muted">${n.id}, ${n.distance} hop(s)</span>${typeof n.props.status === "string" ? html` ${statusBadge(n.props.status)}` : ""}
${n.label === "Atom" ? html` <a href="${ctx.base}/atom/${n.props.atom_id}">atom page</a>` : ""}</li>`,
)}</ul></section>
<section aria-labelledby="h-edges"><h2 id="h-edges">Edges (${g.edges.length})</h2>
${
  g.edges.length
    ? html`<div class="scroll"><table><thead><tr><th scope="col">From</th><th scope="col">Relation</th><th scope="col">To</th><th scope="col">Origin</th></tr></thead><tbody>
${g.edges.map(
  (
    e,
  ) => html`<tr class="${e.inferred ? "inferred" : "extracted"}"><td>${nodeLink(e.src)}</td><td>${e.kind} <span class="muted">${e.confidence.toFixed(2)}</span></td>
<td>${nodeLink(e.dst)}</td><td>${e.inferred ? html`<span class="badge-inferred">inferred</span>` : e.source}</td></tr>`,
)}</tbody></table></div>`
    : html`<p class="muted">no edges</p>`
}
</section></div>`;
  return layout(ctx, `Graph around ${clip(label(g.root), 80)}`, "/graph", body);
}
