/**
 * Dependency edges and import bindings of one parse tree, from the spec's `imports`, `calls` and `inherits`
 * queries. The source of an edge is the innermost enclosing symbol (by qualified name) or the module. Edges are
 * deduplicated on (kind, source, target, receiver), keeping the first line.
 */
import type { Node, Query, QueryMatch } from "web-tree-sitter";
import type { ExtractedDependency, ImportBinding } from "../../ports/symbol-extractor.ts";
import type { DefinitionIndex } from "./definitions.ts";
import type { ImportMatch, LanguageSpec } from "./languages/spec.ts";
import { cap, collapse, MAX_RECEIVER, unquote } from "./text.ts";

/** Edges and bindings collected from one file. */
export interface EdgeSet {
  dependencies: ExtractedDependency[];
  imports: ImportBinding[];
}

/** Accumulates deduplicated edges and bindings. */
class Collector implements EdgeSet {
  readonly dependencies: ExtractedDependency[] = [];
  readonly imports: ImportBinding[] = [];
  private readonly seenEdges = new Set<string>();
  private readonly seenBindings = new Set<string>();

  constructor(private readonly defs: DefinitionIndex) {}

  edge(kind: ExtractedDependency["kind"], at: Node, target: string, receiver?: string, from?: string): void {
    const source = from ?? this.defs.enclosing(at)?.qualifiedName;
    const key = `${kind}\u0000${source ?? ""}\u0000${target}\u0000${receiver ?? ""}`;
    if (target === "" || this.seenEdges.has(key)) return;
    this.seenEdges.add(key);
    const dep: ExtractedDependency = { kind, from: source ? { symbol: source } : { module: true }, target, line: at.startPosition.row + 1 };
    if (receiver !== undefined) dep.receiver = receiver;
    this.dependencies.push(dep);
  }

  binding(b: ImportBinding): void {
    const key = `${b.local}\u0000${b.module}\u0000${b.name ?? ""}`;
    if (b.local === "" || this.seenBindings.has(key)) return;
    this.seenBindings.add(key);
    this.imports.push(b);
  }
}

/** Runs the edge queries of a language over `root`. */
export function collectEdges(
  queries: { imports: Query | null; calls: Query | null; inherits: Query | null },
  root: Node,
  defs: DefinitionIndex,
  spec: LanguageSpec,
): EdgeSet {
  const out = new Collector(defs);
  if (queries.imports) for (const m of queries.imports.matches(root)) importMatch(m, spec, out);
  if (queries.calls) for (const m of queries.calls.matches(root)) callMatch(m, spec, out);
  if (queries.inherits) for (const m of queries.inherits.matches(root)) inheritsMatch(m, defs, out);
  out.dependencies.sort((a, b) => a.line - b.line);
  return out;
}

function captureMap(match: QueryMatch): Map<string, Node> {
  const map = new Map<string, Node>();
  for (const c of match.captures) if (!map.has(c.name)) map.set(c.name, c.node);
  return map;
}

function importMatch(match: QueryMatch, spec: LanguageSpec, out: Collector): void {
  const c = captureMap(match);
  const moduleNode = c.get("import.module");
  if (!moduleNode) return;
  const module = unquote(moduleNode.text);
  out.edge("imports", c.get("import") ?? moduleNode, module);
  const named = match.setProperties?.["import.name"];
  const found: ImportMatch = {
    module,
    name: c.get("import.name")?.text ?? named ?? null,
    alias: c.get("import.alias")?.text ?? null,
    whole: c.has("import.whole"),
  };
  const binding = spec.importBinding ? spec.importBinding(found) : defaultBinding(found, spec);
  if (binding) out.binding(binding);
}

/** The documented default rule: name/alias bind that name; `@import.whole` binds the module; else nothing. */
function defaultBinding(m: ImportMatch, spec: LanguageSpec): ImportBinding | null {
  if (m.name !== null || m.alias !== null) return { local: m.alias ?? m.name ?? "", module: m.module, name: m.name };
  if (!m.whole) return null;
  if (spec.wholeModuleBinding) return spec.wholeModuleBinding(m.module);
  const local = m.module.split(/[/.]/).filter((s) => s !== "").pop();
  return local ? { local, module: m.module, name: null } : null;
}

function callMatch(match: QueryMatch, spec: LanguageSpec, out: Collector): void {
  const c = captureMap(match);
  const callee = c.get("callee");
  if (!callee) return;
  const target = callee.text;
  if (spec.ignoredCalls?.has(target)) return;
  const receiverNode = c.get("receiver");
  const receiver = receiverNode ? cap(collapse(receiverNode.text), MAX_RECEIVER) : undefined;
  out.edge("calls", c.get("call") ?? callee, target, receiver);
}

function inheritsMatch(match: QueryMatch, defs: DefinitionIndex, out: Collector): void {
  const c = captureMap(match);
  const base = c.get("base");
  if (!base) return;
  const child = c.get("child");
  let from: string | undefined;
  if (child) {
    const outer = defs.enclosing(child);
    // The child may be the name of the definition that encloses it: then that definition is the source.
    if (outer && outer.name === child.text) from = outer.qualifiedName;
    else from = outer ? `${outer.qualifiedName}.${child.text}` : child.text;
  }
  out.edge("inherits", base, collapse(base.text), undefined, from);
}
