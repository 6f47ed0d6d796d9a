// The admin page's client script (an ES module, served from <base>/assets/client.js). Progressive: every page works
// without it; it adds the "/" shortcut to the search box and draws the graph view with cytoscape (embedded, loaded
// only on that page). Inferred edges are dashed and orange; edge labels show, at a readable size, on the edges pointed
// at (or those of the node pointed at) and on a selected edge; a click or Enter on a node moves to it.

document.addEventListener("keydown", (ev) => {
  const t = ev.target;
  const typing = t instanceof HTMLElement && (t.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName));
  if (ev.key === "/" && !typing && !ev.ctrlKey && !ev.metaKey && !ev.altKey) {
    const box = document.getElementById("quick-q");
    if (box) {
      ev.preventDefault();
      box.focus();
    }
  }
});

const STYLE = [
  {
    selector: "node",
    style: {
      label: "data(label)",
      "font-size": 11,
      "text-wrap": "wrap",
      "text-max-width": 160,
      "background-color": "#3b6ea8",
      color: "#1d232b",
      width: 18,
      height: 18,
    },
  },
  { selector: "node[kind = 'CodeSymbol']", style: { shape: "round-rectangle", "background-color": "#5a8f3c" } },
  { selector: "node[kind = 'Document']", style: { shape: "rectangle", "background-color": "#8a6d3b" } },
  {
    selector: "node[root = 1]",
    style: { "border-width": 4, "border-color": "#d9822b", width: 26, height: 26, "font-weight": "bold" },
  },
  {
    selector: "edge",
    style: {
      width: 2,
      "line-color": "#7a8794",
      "target-arrow-color": "#7a8794",
      "target-arrow-shape": "triangle",
      "curve-style": "bezier",
      "text-rotation": "autorotate",
      color: "#4a5561",
    },
  },
  {
    selector: "edge[inferred = 1]",
    style: { "line-style": "dashed", "line-color": "#d9822b", "target-arrow-color": "#d9822b", color: "#a35a12" },
  },
  // Edge labels only where the reader points (all of them overlap in a dense drawing); their size is set per zoom.
  {
    selector: "edge.show-label",
    style: {
      label: "data(label)",
      "text-background-color": "#fff",
      "text-background-opacity": 0.9,
      "text-background-padding": 2,
    },
  },
  { selector: "edge:selected", style: { width: 3 } },
];
/** Screen size (px) of an edge label whatever the zoom. */
const LABEL_PX = 13;

/** Shows or hides the labels of `edges` (a selected edge keeps its label), sized to read LABEL_PX on screen. */
function edgeLabels(cy, edges, on) {
  const hide = edges.filter((e) => !e.selected());
  if (on) edges.addClass("show-label").style("font-size", LABEL_PX / cy.zoom());
  else hide.removeClass("show-label");
}

async function drawGraph() {
  const box = document.getElementById("graph");
  const data = document.getElementById("graph-data");
  if (!box || !data) return;
  const elements = JSON.parse(data.textContent || "[]");
  const base = new URL(".", import.meta.url).pathname; // <base>/assets/
  const { default: cytoscape } = await import(`${base}cytoscape.mjs`);
  const cy = cytoscape({
    container: box,
    elements,
    style: STYLE,
    // A few nodes read best on a circle; more need a force-directed layout to keep edges apart.
    layout:
      elements.filter((e) => !e.data.source).length <= 8
        ? { name: "circle", padding: 60, animate: false }
        : { name: "cose", animate: false, randomize: false, nodeRepulsion: () => 90000, idealEdgeLength: () => 120 },
  });
  cy.on("mouseover", "edge", (ev) => edgeLabels(cy, ev.target, true));
  cy.on("mouseout", "edge", (ev) => edgeLabels(cy, ev.target, false));
  cy.on("mouseover", "node", (ev) => edgeLabels(cy, ev.target.connectedEdges(), true));
  cy.on("mouseout", "node", (ev) => edgeLabels(cy, ev.target.connectedEdges(), false));
  cy.on("select", "edge", (ev) => edgeLabels(cy, ev.target, true));
  cy.on("unselect", "edge", (ev) => edgeLabels(cy, ev.target, false));
  cy.on("zoom", () => cy.edges(".show-label").style("font-size", LABEL_PX / cy.zoom()));
  cy.on("tap", "node", (ev) => {
    const href = ev.target.data("href");
    if (href && !ev.target.data("root")) window.location.assign(href);
  });
  box.dataset.ready = String(cy.nodes().length);
  window.pegasGraph = cy; // for the browser tests: positions of nodes to click
}

drawGraph().catch((err) => {
  const box = document.getElementById("graph");
  if (box) box.textContent = `The drawing failed (${err?.message}); the lists below show the same graph.`;
});
