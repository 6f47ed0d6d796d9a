/**
 * TypeScript and TSX specs on real-shaped modules (snippets/typescript/queue.ts.txt, snippets/tsx/TodoList.tsx.txt;
 * stored as .txt so that the project's typecheck does not compile them): every symbol, edge and binding, exactly.
 */
import { describe, expect, test } from "bun:test";
import { treeSitterExtractor } from "../../src/adapters/tree-sitter/extractor.ts";
import { edge, snippet, sym } from "./support.ts";

const extractor = treeSitterExtractor();

const tsFile = await extractor.extract("src/jobs/queue.ts", snippet("typescript/queue.ts.txt"), "typescript");
const tsxFile = await extractor.extract("web/TodoList.tsx", snippet("tsx/TodoList.tsx.txt"), "tsx");

describe("typescript snippet", () => {
  const file = tsFile;
  test("language, module, no syntax errors", () => {
    expect(extractor.languageOf("src/jobs/queue.ts")).toBe("typescript");
    expect(extractor.languageOf("types/index.d.mts")).toBe("typescript");
    expect(file.module).toBe("src/jobs/queue");
    expect(file.syntaxErrors).toBe(0);
  });

  test("symbols: interface (with method signatures), type, enum, abstract class, fields holding functions", () => {
    expect(file.symbols).toEqual([
      sym("MAX_ATTEMPTS", "constant", [8, 8], "export const MAX_ATTEMPTS = 5", "How often a failed job is retried."),
      sym("Job", "interface", [11, 15], "export interface Job<T> extends Serializable", "A unit of work."),
      sym("Job.run", "method", [14, 14], "run(signal: AbortSignal): Promise<void>"),
      sym("JobId", "type", [17, 17], "export type JobId = string"),
      sym("Priority", "enum", [19, 22], "export enum Priority"),
      sym(
        "Queue",
        "class",
        [27, 49],
        "export abstract class Queue<T> extends EventEmitter implements Iterable<Job<T>>, Disposable",
        "A FIFO queue of jobs with bounded concurrency.",
      ),
      sym(
        "Queue.constructor",
        "method",
        [30, 32],
        "constructor(private readonly log: Logger, readonly concurrency = 1)",
      ),
      sym("Queue.persist", "method", [34, 34], "abstract persist(job: Job<T>): Promise<void>"),
      sym(
        "Queue.push",
        "method",
        [37, 44],
        "async push(job: Job<T>): Promise<JobId>",
        "Adds a job and starts it when a slot is free.",
      ),
      sym("Queue.onDrain", "method", [46, 48], "onDrain = (): void"),
      sym("createQueue", "function", [51, 53], "export function createQueue<T>(log: Logger): Queue<T>"),
    ]);
  });

  test("edges: imports (incl. `import x = require`, re-exports), calls, extends and implements", () => {
    expect(file.dependencies).toEqual([
      edge("imports", null, "node:events", 1),
      edge("imports", null, "./log.ts", 2),
      edge("imports", null, "./metrics.ts", 3),
      edge("imports", null, "node:assert", 4),
      edge("imports", null, "./state.ts", 5),
      edge("inherits", "Job", "Serializable", 11),
      edge("inherits", "Queue", "EventEmitter", 27),
      edge("inherits", "Queue", "Iterable", 27),
      edge("inherits", "Queue", "Disposable", 27),
      edge("calls", "Queue.push", "assert", 38),
      edge("calls", "Queue.push", "push", 39, "this.jobs"),
      edge("calls", "Queue.push", "persist", 40, "this"),
      edge("calls", "Queue.push", "counter", 41, "metrics"),
      edge("calls", "Queue.push", "inc", 41, 'metrics.counter("queue.push")'),
      edge("calls", "Queue.push", "emit", 42, "this"),
      edge("calls", "Queue.onDrain", "info", 47, "this.log"),
      edge("calls", "createQueue", "MemoryQueue", 52),
    ]);
  });

  test("import bindings", () => {
    expect(file.imports).toEqual([
      { local: "EventEmitter", module: "node:events", name: "EventEmitter" },
      { local: "Logger", module: "./log.ts", name: "Logger" },
      { local: "metrics", module: "./metrics.ts", name: null },
      { local: "assert", module: "node:assert", name: null },
    ]);
  });

  test("namespaces, declare, overloads, index modules", async () => {
    const src = [
      "declare function parse(text: string): Node;",
      "export namespace Geometry {",
      "  export interface Shape { area(): number }",
      "  export class Circle implements Shape { area() { return Math.PI; } }",
      "}",
    ].join("\n");
    const f = await extractor.extract("src/geo/index.ts", src, "typescript");
    expect(f.module).toBe("src/geo");
    expect(f.symbols.map((s) => [s.qualifiedName, s.kind, s.signature])).toEqual([
      ["parse", "function", "declare function parse(text: string): Node"],
      ["Geometry", "module", "export namespace Geometry"],
      ["Geometry.Shape", "interface", "export interface Shape"],
      ["Geometry.Shape.area", "method", "area(): number"],
      ["Geometry.Circle", "class", "export class Circle implements Shape"],
      ["Geometry.Circle.area", "method", "area()"],
    ]);
    expect(f.dependencies).toEqual([edge("inherits", "Geometry.Circle", "Shape", 4)]);
  });
});

describe("tsx snippet", () => {
  const file = tsxFile;
  test("language, module, no syntax errors", () => {
    expect(extractor.languageOf("web/TodoList.tsx")).toBe("tsx");
    expect(file.module).toBe("web/TodoList");
    expect(file.syntaxErrors).toBe(0);
  });

  test("symbols: components, props interface, class component", () => {
    expect(file.symbols).toEqual([
      sym("TodoListProps", "interface", [6, 9], "export interface TodoListProps", "Props of {@link TodoList}."),
      sym("Todo", "type", [11, 11], "type Todo = { id: number; text: string; done: boolean }"),
      sym(
        "TodoItem",
        "constant",
        [14, 16],
        "const TodoItem = React.memo(function TodoItem({ todo }: { todo: Todo })",
        "One row; memoized because lists can be long.",
      ),
      sym(
        "TodoList",
        "function",
        [21, 33],
        "export function TodoList({ title, footer }: TodoListProps)",
        "The list of the user's todos, loaded on mount.",
      ),
      sym(
        "ErrorBoundary",
        "class",
        [35, 45],
        "export class ErrorBoundary extends React.Component<{ children: ReactNode }>",
      ),
      sym("ErrorBoundary.getDerivedStateFromError", "method", [38, 40], "static getDerivedStateFromError()"),
      sym("ErrorBoundary.render", "method", [42, 44], "render()"),
    ]);
  });

  test("edges: hooks and JSX component uses are calls; extends React.Component", () => {
    expect(file.dependencies).toEqual([
      edge("imports", null, "react", 1),
      edge("imports", null, "../api/todos", 2),
      edge("imports", null, "./TodoList.module.css", 3),
      edge("calls", "TodoItem", "memo", 14, "React"),
      edge("calls", "TodoList", "useState", 22),
      edge("calls", "TodoList", "useEffect", 23, "React"),
      edge("calls", "TodoList", "fetchTodos", 24),
      edge("calls", "TodoList", "then", 24, "fetchTodos()"),
      edge("calls", "TodoList", "map", 29, "todos"),
      edge("calls", "TodoList", "TodoItem", 29),
      edge("inherits", "ErrorBoundary", "React.Component", 35),
    ]);
  });

  test("import bindings: default, named, type-only", () => {
    expect(file.imports).toEqual([
      { local: "React", module: "react", name: "default" },
      { local: "useState", module: "react", name: "useState" },
      { local: "ReactNode", module: "react", name: "ReactNode" },
      { local: "fetchTodos", module: "../api/todos", name: "fetchTodos" },
      { local: "styles", module: "./TodoList.module.css", name: "default" },
    ]);
  });
});
