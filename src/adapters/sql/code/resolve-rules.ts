/**
 * Which symbol a dependency target names, when that is unambiguous — pure rules over what one resolution pass has
 * fetched. In order, the first rule that finds anything decides (several different candidates: unresolved):
 * 1. imports: the specifier names exactly one file of the repository → its module symbol;
 * 2. same file: `self.m()` / `this.m()` → the enclosing class's `m`; `f()` → the enclosing class's member (languages
 *    with an implicit `this`), then the file's top-level `f`; `Cls.m()` → `Cls.m`;
 * 3. an import binding: `f` bound by `from m import f` → `f` in m's file(s); `mod.f()` with `import mod` → `f` there;
 *    then a nested function of the file named `f`;
 * 4. same directory (languages where a package is a directory: Go, Java, C#, C, C++, Rust, Ruby): the one top-level
 *    `f` of a sibling file.
 * Several definitions with one qualified name in one file (overloads, conditional definitions) resolve to the first.
 * An edge's source named but not defined in its file (Rust `impl Area for Circle` with Circle in another file) is
 * found by the same rules as a target named so at top level, types only (`sourceSteps`).
 */
import type { ImportBinding } from "../../../ports/models/symbol-extractor.ts";
import { dirOf, type ModuleIndex } from "./module-index.ts";

/** A candidate symbol. */
export interface ResolveSymbol {
  id: number;
  path: string;
  name: string;
  qualifiedName: string;
  kind: string;
  lineStart: number;
}

/**
 * An edge with what the rules read. `srcQualifiedName` null: the source is the file's module. `srcName`: a source
 * named but not defined in the file (Rust `impl Area for Vec`), still to be found (see {@link sourceSteps}).
 * `resolved`: the target is resolved already (only the source is looked for).
 */
export interface ResolveEdge {
  id: number;
  kind: string;
  target: string;
  receiver: string | null;
  path: string;
  language: string;
  srcQualifiedName: string | null;
  srcName?: string | null;
  resolved?: boolean;
}

/** Kinds a source named outside its definition can be (the type an `impl … for` block belongs to). */
export const TYPE_KINDS: ReadonlySet<string> = new Set(["class", "struct", "enum", "interface", "type"]);

/**
 * The lookups that may find an edge's source type named but not defined in its file, as for a target named
 * `srcName` at the file's top level (same file, import binding, sibling file of the package directory); only
 * {@link TYPE_KINDS} count (pass them to {@link decide}). Empty when the source needs no lookup.
 */
export function sourceSteps(e: ResolveEdge, imports: ImportBinding[], modules: ModuleIndex): ResolveStep[] {
  if (!e.srcName) return [];
  return planSteps(
    { ...e, kind: "inherits", target: e.srcName, receiver: null, srcQualifiedName: null },
    imports,
    modules,
  );
}

/** One lookup of a rule: by qualified name in files, by short name in a file, or by top-level name in a directory. */
export type ResolveStep =
  | { where: "module"; paths: string[]; confidence: number }
  | { where: "qn"; paths: string[]; qn: string; confidence: number }
  | { where: "name"; path: string; name: string; confidence: number }
  | { where: "dir"; dir: string; exclude: string; qn: string; confidence: number };

/** What the pass fetched, answering the steps. */
export interface ResolveLookup {
  moduleSymbol(path: string): number | undefined;
  byQn(path: string, qn: string): ResolveSymbol[];
  byName(path: string, name: string): ResolveSymbol[];
  inDir(dir: string, qn: string): ResolveSymbol[];
}

const SELF = new Set(["self", "this", "cls", "@", "Self", "me"]);
/** Languages where a bare call inside a method may name a member of its class. */
const IMPLICIT_THIS = new Set(["java", "c_sharp", "cpp", "ruby"]);
const PACKAGE_IS_DIR = new Set(["go", "java", "c_sharp", "c", "cpp", "rust", "ruby"]);

/** Splits `a.b.c` / `a::b::c` / `a->b` into receiver `a.b` and name `c` when no receiver was given. */
function splitTarget(target: string, receiver: string | null): { recv: string | null; name: string } {
  const t = target.trim();
  if (receiver !== null && receiver !== "")
    return {
      recv: constructed(receiver.trim()),
      name:
        t
          .split(/::|\.|->/)
          .filter(Boolean)
          .at(-1) ?? t,
    };
  const parts = t.split(/::|\.|->/).filter(Boolean);
  if (parts.length <= 1) return { recv: null, name: parts[0] ?? t };
  return { recv: parts.slice(0, -1).join("."), name: parts.at(-1)! };
}

/** A receiver that constructs an object (`Cls(…)`, `new Cls(…)`, `cls(…)`) stands for its class: `Cls`. */
function constructed(receiver: string): string {
  const m = /^(?:new\s+)?([\p{L}_$][\p{L}\p{N}_$.]*)\s*\(/u.exec(receiver);
  return m ? m[1] : receiver;
}

/** The enclosing class path of a source symbol (`A.b` → `A`), or null at top level. */
function classOf(qn: string | null): string | null {
  if (!qn) return null;
  const i = qn.lastIndexOf(".");
  return i < 0 ? null : qn.slice(0, i);
}

function bindingSteps(
  e: ResolveEdge,
  recv: string | null,
  name: string,
  imports: ImportBinding[],
  modules: ModuleIndex,
): ResolveStep[] {
  const head = recv === null ? name : recv.split(".")[0];
  const rest = recv === null ? [] : recv.split(".").slice(1);
  const steps: ResolveStep[] = [];
  for (const b of imports.filter((x) => x.local === head)) {
    const files = modules.resolve(b.module, e.path, e.language);
    const qn = recv === null ? (b.name ?? name) : [...(b.name ? [b.name] : []), ...rest, name].join(".");
    if (files.length && (recv !== null || b.name !== null))
      steps.push({ where: "qn", paths: files, qn, confidence: 0.95 });
    // `from pkg import mod` then `mod.f()`: the binding names a submodule.
    if (recv !== null && b.name !== null) {
      const sep = e.language === "rust" ? "::" : e.language === "python" && !b.module.includes("/") ? "." : "/";
      const sub = modules.resolve(`${b.module.replace(/\/+$/, "")}${sep}${b.name}`, e.path, e.language);
      if (sub.length) steps.push({ where: "qn", paths: sub, qn: [...rest, name].join("."), confidence: 0.9 });
    }
  }
  return steps;
}

/** The lookups that may resolve an edge, strongest first. */
export function planSteps(e: ResolveEdge, imports: ImportBinding[], modules: ModuleIndex): ResolveStep[] {
  if (e.kind === "imports") {
    const files = modules.resolve(e.target, e.path, e.language);
    return files.length ? [{ where: "module", paths: files, confidence: 1 }] : [];
  }
  const { recv, name } = splitTarget(e.target, e.receiver);
  if (!name) return [];
  const cls = classOf(e.srcQualifiedName);
  const steps: ResolveStep[] = [];
  if (recv === null || SELF.has(recv)) {
    if (recv !== null || IMPLICIT_THIS.has(e.language)) {
      // Innermost enclosing scope first: a method of a nested class, or a function nested in a method.
      for (let c = cls; c; c = classOf(c))
        steps.push({ where: "qn", paths: [e.path], qn: `${c}.${name}`, confidence: 1 });
    }
    if (recv === null) steps.push({ where: "qn", paths: [e.path], qn: name, confidence: 1 });
  } else {
    steps.push({ where: "qn", paths: [e.path], qn: `${recv}.${name}`, confidence: 1 });
  }
  if (recv === null || !SELF.has(recv)) steps.push(...bindingSteps(e, recv, name, imports, modules));
  // A nested function (`outer.inner`) called by its bare name; methods never are (that is rule 2's class member).
  if (recv === null) steps.push({ where: "name", path: e.path, name, confidence: 0.9 });
  if (recv === null && PACKAGE_IS_DIR.has(e.language))
    steps.push({ where: "dir", dir: dirOf(e.path), exclude: e.path, qn: name, confidence: 0.8 });
  return steps;
}

/** Candidates of one step, modules excluded unless it is an import. */
function candidates(step: ResolveStep, lookup: ResolveLookup): ResolveSymbol[] {
  switch (step.where) {
    case "qn":
      return step.paths.flatMap((p) => lookup.byQn(p, step.qn)).filter((s) => s.kind !== "module");
    case "name":
      return lookup.byName(step.path, step.name).filter((s) => s.kind === "function");
    case "dir":
      return lookup.inDir(step.dir, step.qn).filter((s) => s.path !== step.exclude && s.kind !== "module");
    default:
      return [];
  }
}

/**
 * Runs the steps in order: the first with candidates decides. Returns the symbol and the edge's confidence, or null
 * (nothing found, or different definitions: ambiguous).
 */
export function decide(
  steps: ResolveStep[],
  lookup: ResolveLookup,
  kinds?: ReadonlySet<string>,
): { symbolId: number; confidence: number } | null {
  for (const step of steps) {
    if (step.where === "module") {
      if (step.paths.length !== 1) return null;
      const id = lookup.moduleSymbol(step.paths[0]);
      return id === undefined ? null : { symbolId: id, confidence: step.confidence };
    }
    const found = candidates(step, lookup).filter((s) => !kinds || kinds.has(s.kind));
    if (!found.length) continue;
    const first = found.reduce((a, b) => (b.path < a.path || (b.path === a.path && b.lineStart < a.lineStart) ? b : a));
    const same = found.every((s) => s.path === first.path && s.qualifiedName === first.qualifiedName);
    if (!same) return null;
    return { symbolId: first.id, confidence: found.length > 1 ? Math.min(step.confidence, 0.7) : step.confidence };
  }
  return null;
}

/** What a plan needs fetched: qualified names per file, and top-level names per directory. */
export function stepNeeds(
  steps: ResolveStep[],
  qnByPath: Map<string, Set<string>>,
  qnByDir: Map<string, Set<string>>,
): void {
  const add = (m: Map<string, Set<string>>, k: string, v: string) => {
    const set = m.get(k);
    if (set) set.add(v);
    else m.set(k, new Set([v]));
  };
  for (const s of steps) {
    if (s.where === "qn") for (const p of s.paths) add(qnByPath, p, s.qn);
    else if (s.where === "dir") add(qnByDir, s.dir, s.qn);
  }
}
