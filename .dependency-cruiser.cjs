// The allowed imports between the layers of src/ (docs/architecture.md explains them), checked by
// `npm run lint:arch` (dependency-cruiser over main.ts and src/). The arrows are written once, in LAYERS below;
// every layer rule is generated from that table, so the table is the rule.
//
// TypeScript 7 (the native compiler) has no JavaScript API that dependency-cruiser can load, so it parses the
// sources with swc (`@swc/core`, a dev dependency); swc keeps `import type` lines, so type-only imports count too.

/** Modules anyone may import: configuration (and its HTTP part), errors, logging, the version, and runtime/OS helpers. */
const LEAVES = ["^src/(config|config-http|config-redact|errors|log|version)\\.ts$", "^src/platform/"];

/**
 * Each layer: where it lives (a path regex) and the layers it may import besides itself and the leaves.
 * `adapters` are special: an adapter (a folder under src/adapters/) may import only its own files, never another's.
 */
const LAYERS = {
  domain: { path: "^src/domain/", may: [] },
  ports: { path: "^src/ports/", may: ["domain"] },
  core: { path: "^src/core/", may: ["ports", "domain"] },
  adapters: { path: "^src/adapters/", may: ["ports", "domain"] },
  worker: { path: "^src/worker/", may: ["core", "ports", "domain"] },
  wiring: { path: "^src/wiring/", may: ["worker", "adapters", "core", "ports", "domain"] },
  // The front ends. cli starts the HTTP server or the stdio MCP server; http mounts the MCP endpoint and the UI;
  // the server runtime (mcp) runs the outbox worker in the background, `sync` and `rebuild` (cli) in the foreground.
  cli: { path: "^src/cli/", may: ["http", "mcp", "wiring", "worker", "core", "domain"] },
  http: { path: "^src/http/", may: ["mcp", "ui", "wiring", "core", "domain"] },
  mcp: { path: "^src/mcp/", may: ["wiring", "worker", "core", "domain"] },
  ui: { path: "^src/ui/", may: ["wiring", "core", "domain"] },
  main: { path: "^main\\.ts$", may: ["cli"] },
};

/** Ours: every module of the application (dependencies outside these are npm packages or node built-ins). */
const OURS = "^(src/|main\\.ts$)";

/** Every path a layer or a leaf covers: a module of ours outside them belongs to no layer. */
const LAYERED = [...Object.values(LAYERS).map((layer) => layer.path), ...LEAVES];

const layerRules = Object.entries(LAYERS).map(([name, layer]) => ({
  name: `layer-${name}`,
  comment: `${name} may import ${[...layer.may, "the leaves (config, errors, log, version, platform)"].join(", ")}`,
  severity: "error",
  from: { path: layer.path },
  to: { path: OURS, pathNot: [layer.path, ...layer.may.map((m) => LAYERS[m].path), ...LEAVES] },
}));

module.exports = {
  forbidden: [
    ...layerRules,
    {
      name: "adapter-internals",
      comment:
        "an adapter never imports another adapter's files: shared types and helpers move down to ports, domain or platform",
      severity: "error",
      from: { path: "^src/adapters/([^/]+)/" },
      to: { path: "^src/adapters/", pathNot: "^src/adapters/$1/" },
    },
    {
      name: "unlayered",
      comment: "a module of src/ that belongs to no layer: put it in one (and in LAYERS if it is a new one)",
      severity: "error",
      from: {},
      to: { path: OURS, pathNot: LAYERED },
    },
    {
      name: "leaves",
      comment: "config, errors, log, version and platform import only each other (anyone may import them)",
      severity: "error",
      from: { path: LEAVES },
      to: { path: OURS, pathNot: LEAVES },
    },
    {
      name: "no-circular",
      comment: "a cycle of imports: the modules cannot be understood, tested or loaded one at a time",
      severity: "error",
      from: {},
      to: { circular: true },
    },
    {
      name: "no-orphans",
      comment: "a module nothing imports is dead code (entry points and declaration files excepted)",
      severity: "error",
      from: {
        orphan: true,
        path: "^src/",
        // Declaration files, the tree-sitter worker (its own entry, built beside main.ts) and the browser script.
        pathNot: ["\\.d\\.ts$", "^src/adapters/tree-sitter/worker\\.ts$"],
      },
      to: {},
    },
    {
      name: "not-to-unresolvable",
      comment: "an import that resolves to nothing",
      severity: "error",
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    parser: "swc",
    tsConfig: { fileName: "tsconfig.json" },
    doNotFollow: { path: "node_modules" },
    exclude: { path: "node_modules" },
    // Only our modules are cruised; bench/ and scripts/ are roots too, so a module only they use is no orphan.
    includeOnly: "^(src/|main\\.ts$|bench/|scripts/)",
  },
};
