/**
 * Dependency edges and import bindings of one parse tree, from the spec's `imports`, `calls` and `inherits`
 * queries. The source of an edge is the innermost enclosing symbol (by qualified name) or the module. Edges are
 * deduplicated on (kind, source, target, receiver), keeping the first line.
 */
import type { Node, QueryMatch } from "web-tree-sitter";
import type { ExtractedDependency, ImportBinding } from "../../ports/models/symbol-extractor.ts";
import type { DefinitionIndex } from "./definitions.ts";
import type { ImportMatch, LanguageSpec } from "./languages/spec.ts";
import { collapse, excerpt, MAX_RECEIVER, textOf, unquote } from "./text.ts";

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
    const dep: ExtractedDependency = {
      kind,
      from: source ? { symbol: source } : { module: true },
      target,
      line: at.startPosition.row + 1,
    };
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

/** The matches of a spec's edge patterns, by part. */
export interface EdgeMatches {
  imports: readonly QueryMatch[];
  calls: readonly QueryMatch[];
  inherits: readonly QueryMatch[];
}

/** Turns edge-pattern matches over `source` into deduplicated edges (sorted by line) and bindings. */
export function collectEdges(matches: EdgeMatches, defs: DefinitionIndex, spec: LanguageSpec, source: string): EdgeSet {
  const out = new Collector(defs);
  for (const m of matches.imports) importMatch(m, spec, source, out);
  for (const m of matches.calls) callMatch(m, spec, source, out);
  for (const m of matches.inherits) inheritsMatch(m, defs, source, out);
  out.dependencies.sort((a, b) => a.line - b.line);
  return out;
}

function text(node: Node | undefined, source: string): string | null {
  return node ? textOf(node, source) : null;
}

function captureMap(match: QueryMatch): Map<string, Node> {
  const map = new Map<string, Node>();
  for (const c of match.captures) if (!map.has(c.name)) map.set(c.name, c.node);
  return map;
}

function importMatch(match: QueryMatch, spec: LanguageSpec, source: string, out: Collector): void {
  const c = captureMap(match);
  const moduleNode = c.get("import.module");
  if (!moduleNode) return;
  const written = unquote(textOf(moduleNode, source));
  // A path relative to the file's directory (Ruby `require_relative "b"`) is written `./b`, as JS writes it.
  const module =
    match.setProperties?.["import.relative"] !== undefined && !/^[./]/.test(written) ? `./${written}` : written;
  out.edge("imports", c.get("import") ?? moduleNode, module);
  const named = match.setProperties?.["import.name"];
  const found: ImportMatch = {
    module,
    name: text(c.get("import.name"), source) ?? named ?? null,
    alias: text(c.get("import.alias"), source),
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
  const local = m.module
    .split(/[/.]/)
    .filter((s) => s !== "")
    .pop();
  return local ? { local, module: m.module, name: null } : null;
}

function callMatch(match: QueryMatch, spec: LanguageSpec, source: string, out: Collector): void {
  // The most frequent match of all: its captures are read without building a map.
  let callee: Node | undefined;
  let receiverNode: Node | undefined;
  let call: Node | undefined;
  for (const c of match.captures) {
    if (c.name === "callee") callee ??= c.node;
    else if (c.name === "receiver") receiverNode ??= c.node;
    else if (c.name === "call") call ??= c.node;
  }
  if (!callee) return;
  const target = textOf(callee, source);
  if (spec.ignoredCalls?.has(target)) return;
  const receiver = receiverNode
    ? excerpt(source, receiverNode.startIndex, receiverNode.endIndex, MAX_RECEIVER)
    : undefined;
  out.edge("calls", call ?? callee, target, receiver);
}

function inheritsMatch(match: QueryMatch, defs: DefinitionIndex, source: string, out: Collector): void {
  const c = captureMap(match);
  const base = c.get("base");
  if (!base) return;
  const child = c.get("child");
  let from: string | undefined;
  if (child) {
    const outer = defs.enclosing(child);
    // The child may be the name of the definition that encloses it: then that definition is the source.
    const name = textOf(child, source);
    if (outer && outer.name === name) from = outer.qualifiedName;
    else from = outer ? `${outer.qualifiedName}.${name}` : name;
  }
  out.edge("inherits", base, collapse(textOf(base, source)), undefined, from);
}
