/**
 * Text content (tool.ts `render`) and concise structured content of the code tools: memory_store_code,
 * memory_search_code and memory_code_graph. Symbols are lines `symbol:12 HTMLParser.feed · method · path:120`.
 */
import { countsText, lines, moreLine, oneLine } from "../../render.ts";

type Out = { [key: string]: any };

/** Noted files, errors and warnings listed by default in memory_store_code's answer. */
export const STORE_CODE_LISTED = 20;

/** memory_store_code's concise content: the counts and the first noted files and errors. */
export function conciseStoreCode(out: Out): Out {
  return {
    ...out,
    noted: (out.noted as Out[]).slice(0, STORE_CODE_LISTED),
    errors: (out.errors as Out[]).slice(0, STORE_CODE_LISTED),
    warnings: (out.warnings as string[]).slice(0, STORE_CODE_LISTED),
  };
}

/** memory_store_code's text: what was walked, parsed and stored, the files worth a look, the failures. */
export function renderStoreCode(out: Out): string {
  const f = out.files;
  const d = out.dependencies;
  const noted = (out.noted as Out[]).slice(0, STORE_CODE_LISTED);
  const errors = (out.errors as Out[]).slice(0, STORE_CODE_LISTED);
  const dirs = countsText(out.directories_skipped);
  return lines([
    `Stored repo ${out.repo} (document ${out.doc_id}, root ${out.root}).`,
    `Files: ${f.seen} seen, ${f.parsed} parsed, ${f.unchanged} unchanged, ${f.failed} failed, ${f.removed} removed; skipped ${countsText(f.skipped)}${dirs === "none" ? "" : `; directories skipped ${dirs}`}.`,
    `${out.symbols} symbols and ${d.stored} dependencies stored from the files parsed now; the repository has ${d.resolved} resolved and ${d.unresolved} unresolved dependencies (${d.resolved_now} resolved now).`,
    `Code atoms: ${out.atoms.created} new, ${out.atoms.existing} existing, ${out.atoms.staled} staled.${out.syntax_error_files ? ` ${out.syntax_error_files} file(s) with syntax errors.` : ""}`,
    noted.length ? "Worth a look:" : "",
    ...noted.map((n) => `- ${n.path}: ${oneLine(n.reason, 160)}`),
    moreLine("noted files", noted.length, out.noted_total, "narrow with include or exclude"),
    errors.length ? "Failed:" : "",
    ...errors.map((e) => `- ${e.path}: ${e.code}: ${oneLine(e.message, 200)}`),
    moreLine("failures", errors.length, out.errors_total, "narrow with include or exclude"),
    ...(out.warnings as string[]).slice(0, STORE_CODE_LISTED).map((w) => `Warning: ${oneLine(w, 300)}`),
    "Next: memory_search_code finds symbols; memory_code_graph shows a symbol's or file's dependencies.",
  ]);
}

/** A symbol as one line: `symbol:12 HTMLParser.feed · method · src/a.py:120`. */
export function symbolLine(s: Out, withRepo = false): string {
  return `${s.symbol_id} ${s.qualified_name} · ${s.kind} · ${withRepo ? `${s.repo} ` : ""}${s.path}:${s.line}`;
}

/** memory_search_code's concise content: hits without scores and end lines. */
export function conciseSearchCode(out: Out): Out {
  return {
    query: out.query,
    hits: (out.hits as Out[]).map(({ score, line_end, ...h }) => {
      void score;
      void line_end;
      return h;
    }),
  };
}

/** memory_search_code's text: one numbered hit per symbol with its signature and docstring excerpt. */
export function renderSearchCode(out: Out): string {
  const hits = out.hits as Out[];
  if (hits.length === 0)
    return `No symbol matches “${oneLine(out.query, 200)}”: try fewer or other words, or a qualified name.`;
  const repos = new Set(hits.map((h) => h.repo));
  const oneRepo = repos.size === 1;
  const fuzzy = hits.some((h) => h.match === "trigram") ? " (some by spelling similarity only)" : "";
  return lines([
    `${hits.length} symbol(s) for “${oneLine(out.query, 200)}”${oneRepo ? ` in ${hits[0].repo}` : ""}${fuzzy}:`,
    ...hits.map((h, i) =>
      lines([
        `${i + 1}. ${symbolLine(h, !oneRepo)} (${h.language})`,
        h.signature ? `   ${oneLine(h.signature, 200)}` : "",
        h.docstring ? `   ${oneLine(h.docstring, 200)}` : "",
      ]),
    ),
    "memory_code_graph with symbol:<id> shows what a symbol uses and what uses it.",
  ]);
}

/** Module imports and external imports listed by default in memory_code_graph's overview. */
export const CODE_GRAPH_LISTED = 40;
/** Nodes of a symbol's subgraph by default (the tool's `limit`). */
export const CODE_GRAPH_NODES = 40;
/** Nodes and edges listed by default: a file's own dependencies come beside the `limit` nodes. */
const NODES_SHOWN = 50;
const EDGES_SHOWN = 50;

/** The nodes and edges shown by default: nearest nodes first (a file's own dependencies last), edges among them. */
function shown(out: Out): { nodes: Out[]; edges: Out[] } {
  const nodes = [...(out.nodes as Out[])].sort((a, b) => (a.distance ?? 99) - (b.distance ?? 99)).slice(0, NODES_SHOWN);
  const ids = new Set(nodes.map((n) => n.id));
  const edges = (out.edges as Out[]).filter((e) => ids.has(e.src) && ids.has(e.dst)).slice(0, EDGES_SHOWN);
  return { nodes, edges };
}

const nodeLocation = (n: Out) => (n.symbol ? `${n.symbol.path}:${n.symbol.line}` : undefined);

/** memory_code_graph's concise content: nodes as id, label, name, distance and location; edges without internals. */
export function conciseCodeGraph(out: Out): Out {
  const trimSymbol = (s: Out | null | undefined) =>
    s
      ? {
          symbol_id: s.symbol_id,
          qualified_name: s.qualified_name,
          kind: s.kind,
          path: s.path,
          line: s.line,
          ...(s.signature ? { signature: oneLine(s.signature, 200) } : {}),
        }
      : undefined;
  const base: Out = { repo: out.repo, ...(out.root ? { root: trimSymbol(out.root) } : {}) };
  if (out.overloads) base.overloads = out.overloads;
  if (out.degraded) base.degraded = out.degraded;
  if (out.summary) {
    const s = out.summary;
    return {
      ...base,
      summary: {
        ...s,
        mostDependedOn: (s.mostDependedOn as Out[]).map((m) => ({
          symbol: trimSymbol(m.symbol),
          dependents: m.dependents,
        })),
        moduleImports: (s.moduleImports as Out[]).slice(0, CODE_GRAPH_LISTED),
        moduleImports_total: s.moduleImports.length,
        externalImports: (s.externalImports as Out[]).slice(0, CODE_GRAPH_LISTED),
        externalImports_total: s.externalImports.length,
      },
    };
  }
  const { nodes, edges } = shown(out);
  return {
    ...base,
    nodes: nodes.map((n) => ({
      id: n.id,
      label: n.label,
      ...(n.name != null ? { name: oneLine(n.name, 160) } : {}),
      ...(n.distance != null ? { distance: n.distance } : {}),
      ...(n.symbol ? { kind: n.symbol.kind, location: nodeLocation(n) } : {}),
    })),
    edges: edges.map((e) => ({
      src: e.src,
      dst: e.dst,
      kind: e.kind,
      ...(e.line != null ? { line: e.line } : {}),
      ...(e.inferred ? { inferred: true } : {}),
    })),
    truncated: out.truncated || nodes.length < out.nodes.length || edges.length < out.edges.length,
    ...(nodes.length < out.nodes.length ? { nodes_total: out.nodes.length } : {}),
    ...(edges.length < out.edges.length ? { edges_total: out.edges.length } : {}),
  };
}

/** memory_code_graph's text: the root, nodes by distance, edges by name with their line, or the overview. */
export function renderCodeGraph(out: Out, args: { limit?: number; depth?: number; direction?: string }): string {
  if (out.summary) return renderOverview(out);
  const { nodes, edges } = shown(out);
  const names = new Map((out.nodes as Out[]).map((n) => [n.id, n.name ?? n.id]));
  const nodeLine = (n: Out) =>
    n.symbol
      ? `- ${symbolLine(n.symbol)}${n.distance != null ? ` [${n.distance}]` : ""}`
      : `- ${n.id} · ${n.label}${n.name && !n.id.endsWith(n.name) ? ` — ${oneLine(n.name, 160)}` : ""}${n.distance != null ? ` [${n.distance}]` : ""}`;
  const edgeLine = (e: Out) =>
    `- ${names.get(e.src) ?? e.src} -${e.kind}-> ${names.get(e.dst) ?? e.dst}${e.line != null ? ` (line ${e.line})` : ""}${e.inferred ? " (inferred)" : ""}`;
  const r = out.root;
  return lines([
    `Graph around ${symbolLine(r)} in ${out.repo}, depth ${args.depth ?? 1}, ${args.direction ?? "both"} ways${out.overloads ? `; ${out.overloads} overloads` : ""}${out.degraded ? ` (degraded: ${out.degraded})` : ""}:`,
    `Nodes (${nodes.length}${nodes.length < out.nodes.length ? ` of ${out.nodes.length}` : ""}; [n] = hops from the root, none = the file's own dependencies):`,
    ...nodes.map(nodeLine),
    `Edges (${edges.length}${edges.length < out.edges.length ? ` of ${out.edges.length}` : ""}):`,
    ...edges.map(edgeLine),
    out.truncated
      ? `The walk stopped at ${args.limit ?? CODE_GRAPH_NODES} nodes${out.file?.truncated ? " (the file's dependencies at 300)" : ""}: narrow with kinds or direction, or raise limit.`
      : "",
    nodes.length < out.nodes.length || edges.length < out.edges.length
      ? 'Not all listed: narrow with kinds, direction or a symbol inside the file, or response_format "detailed" lists all.'
      : "",
  ]);
}

function renderOverview(out: Out): string {
  const s = out.summary;
  const deps = Object.entries(s.dependencies as Record<string, Out>)
    .map(([k, v]) => `${k} ${v.resolved} resolved / ${v.unresolved} unresolved`)
    .join("; ");
  const imports = (s.moduleImports as Out[]).slice(0, CODE_GRAPH_LISTED);
  const external = (s.externalImports as Out[]).slice(0, CODE_GRAPH_LISTED);
  return lines([
    `Repository ${out.repo}: ${s.files.total} files (${s.files.parsed} parsed, ${s.files.failed} failed, ${s.files.skipped} skipped); ${s.symbols.total} symbols: ${countsText(s.symbols.byKind)}; languages ${countsText(s.symbols.byLanguage)}.`,
    `Dependencies: ${deps || "none"}.`,
    s.mostDependedOn.length ? "Most depended on:" : "",
    ...(s.mostDependedOn as Out[]).map((m) => `- ${symbolLine(m.symbol)}: ${m.dependents} dependents`),
    imports.length ? `Module imports (${s.moduleImports.length}):` : "",
    ...imports.map((m) => `- ${m.from} → ${m.to}`),
    moreLine("module imports", imports.length, s.moduleImports.length, 'response_format "detailed" lists up to 500'),
    external.length
      ? `External imports: ${external.map((x) => `${x.name} (${x.importers})`).join(", ")}${s.externalImports.length > external.length ? `, … ${s.externalImports.length - external.length} more` : ""}`
      : "",
    "memory_code_graph with symbol (symbol:<id>, a qualified name or a file path) shows one symbol's or file's graph.",
  ]);
}
