/**
 * The tree-sitter runtime and the twelve WASM grammars, embedded in the executable.
 *
 * Bun-specific: `with { type: "file" }` makes `bun build --compile` embed each file and yields its path (under
 * node_modules from source, under `/$bunfs/` in the executable, where only whole-file reads work), so every file is
 * read whole with `readFileSync`, compiled here, and handed to web-tree-sitter as compiled modules (`Parser.init`
 * with emscripten's `instantiateWasm` hook, `Language.loadSync(module)`); web-tree-sitter never looks for files
 * itself. The runtime is initialized once per thread; each grammar is loaded on first use and cached for the life
 * of the thread.
 *
 * Compiled once, shared by threads: each file is compiled into a `WebAssembly.Module` once per process (by the
 * thread that needs it first) and the extraction pool posts that Module to its worker threads
 * ({@link adoptCompiled}), which instantiate it instead of compiling their own copy. The engine then compiles
 * and optimizes (tiers up) the code once for all threads, as the WebAssembly JS API intends for a Module shared
 * with workers (WebAssembly JS API, "Module" objects are serializable; MDN: "Using WebAssembly.Module with
 * workers"); each thread still has its own instance and memory.
 */
import { Language, LANGUAGE_VERSION, MIN_COMPATIBLE_VERSION, Parser } from "web-tree-sitter";
import { PegasError } from "../../errors.ts";
import { readEmbedded } from "../../platform/embedded.ts";
import runtimeWasm from "../../../node_modules/web-tree-sitter/web-tree-sitter.wasm" with { type: "file" };
import pythonWasm from "../../../node_modules/tree-sitter-python/tree-sitter-python.wasm" with { type: "file" };
import javascriptWasm from "../../../node_modules/tree-sitter-javascript/tree-sitter-javascript.wasm" with {
  type: "file",
};
import typescriptWasm from "../../../node_modules/tree-sitter-typescript/tree-sitter-typescript.wasm" with {
  type: "file",
};
import tsxWasm from "../../../node_modules/tree-sitter-typescript/tree-sitter-tsx.wasm" with { type: "file" };
import goWasm from "../../../node_modules/tree-sitter-go/tree-sitter-go.wasm" with { type: "file" };
import rustWasm from "../../../node_modules/tree-sitter-rust/tree-sitter-rust.wasm" with { type: "file" };
import javaWasm from "../../../node_modules/tree-sitter-java/tree-sitter-java.wasm" with { type: "file" };
import cWasm from "../../../node_modules/tree-sitter-c/tree-sitter-c.wasm" with { type: "file" };
import cppWasm from "../../../node_modules/tree-sitter-cpp/tree-sitter-cpp.wasm" with { type: "file" };
import cSharpWasm from "../../../node_modules/tree-sitter-c-sharp/tree-sitter-c_sharp.wasm" with { type: "file" };
import rubyWasm from "../../../node_modules/tree-sitter-ruby/tree-sitter-ruby.wasm" with { type: "file" };
import bashWasm from "../../../node_modules/tree-sitter-bash/tree-sitter-bash.wasm" with { type: "file" };

/** Path of each embedded grammar's `.wasm` file, by grammar id (the CodeLanguage that uses it). */
export const GRAMMAR_FILES = {
  python: pythonWasm,
  javascript: javascriptWasm,
  typescript: typescriptWasm,
  tsx: tsxWasm,
  go: goWasm,
  rust: rustWasm,
  java: javaWasm,
  c: cWasm,
  cpp: cppWasm,
  c_sharp: cSharpWasm,
  ruby: rubyWasm,
  bash: bashWasm,
} as const;

/** A grammar id: a key of {@link GRAMMAR_FILES}. */
export type GrammarId = keyof typeof GRAMMAR_FILES;

/** A compiled WebAssembly file: the runtime or a grammar. */
export type WasmId = "runtime" | GrammarId;

let runtime: Promise<void> | null = null;
const languages = new Map<GrammarId, Promise<Language>>();
/** Modules compiled in (or handed to) this thread, by file. */
const modules = new Map<WasmId, WebAssembly.Module>();

/**
 * The compiled module of the runtime or of a grammar: compiled from the embedded file on first use, then cached
 * for the life of the thread (a worker gets its modules from the pool through {@link adoptCompiled}).
 * @throws PegasError INTERNAL naming the file when it cannot be read or is not valid WebAssembly.
 */
export function compiledWasm(id: WasmId): WebAssembly.Module {
  let mod = modules.get(id);
  if (!mod) {
    const path = id === "runtime" ? runtimeWasm : GRAMMAR_FILES[id];
    const what = id === "runtime" ? "the tree-sitter runtime" : `grammar '${id}'`;
    let bytes: Uint8Array;
    try {
      bytes = readEmbedded(path);
    } catch (err) {
      throw new PegasError("INTERNAL", `${what} could not be read from '${path}': ${describe(err)}`, {
        hint: "reinstall the tree-sitter packages and rebuild the executable",
        cause: err,
      });
    }
    mod = compile(what, bytes);
    modules.set(id, mod);
  }
  return mod;
}

/**
 * Uses `mod`, compiled by another thread, for `id` in this one (the extraction worker calls it with what the pool
 * posted). A module already compiled or adopted here is kept.
 */
export function adoptCompiled(id: WasmId, mod: WebAssembly.Module): void {
  if (!modules.has(id)) modules.set(id, mod);
}

/** @throws PegasError INTERNAL naming `what` when `bytes` is not a WebAssembly module this engine compiles. */
function compile(what: string, bytes: Uint8Array): WebAssembly.Module {
  try {
    return new WebAssembly.Module(bytes);
  } catch (err) {
    throw new PegasError(
      "INTERNAL",
      `${what} could not be loaded: it is not WebAssembly this runtime compiles (${describe(err)})`,
      {
        hint: "reinstall the tree-sitter packages (the .wasm file may be damaged) and rebuild the executable",
        cause: err,
      },
    );
  }
}

/**
 * Initializes the web-tree-sitter runtime from the compiled `web-tree-sitter.wasm` (once per thread; concurrent
 * callers share one initialization). Emscripten's `instantiateWasm` hook makes web-tree-sitter instantiate that
 * module instead of compiling the file itself.
 * @throws PegasError INTERNAL when the runtime cannot be read, compiled or instantiated.
 */
export function initRuntime(): Promise<void> {
  runtime ??= (async () => {
    try {
      const mod = compiledWasm("runtime");
      const instantiateWasm = (
        imports: ConstructorParameters<typeof WebAssembly.Instance>[1],
        done: (instance: WebAssembly.Instance, module: WebAssembly.Module) => void,
      ) => {
        // Synchronous, so that a failure throws inside web-tree-sitter's promise and Parser.init rejects (an
        // asynchronous failure here would leave it waiting forever).
        done(new WebAssembly.Instance(mod, imports), mod);
        return {}; // emscripten: exports arrive through `done`
      };
      await Parser.init({ instantiateWasm } as Parameters<typeof Parser.init>[0]);
    } catch (err) {
      runtime = null;
      throw new PegasError("INTERNAL", `tree-sitter runtime '${runtimeWasm}' could not be started: ${describe(err)}`, {
        hint: "reinstall the web-tree-sitter package and rebuild the executable",
        cause: err,
      });
    }
  })();
  return runtime;
}

/**
 * The loaded grammar `id` (read from the embedded file on first use, then cached).
 * @throws PegasError INTERNAL when the file cannot be read or loaded, or its ABI is outside the runtime's range.
 */
export function grammar(id: GrammarId): Promise<Language> {
  let loaded = languages.get(id);
  if (!loaded) {
    loaded = (async () => instantiateGrammar(id, compiledWasm(id)))();
    loaded.catch(() => languages.delete(id));
    languages.set(id, loaded);
  }
  return loaded;
}

/**
 * Loads a grammar from WASM bytes and checks that the runtime can parse with it. Exported for tests (a grammar
 * whose ABI field was patched) and for callers that bring their own grammar bytes; uncached.
 * @throws PegasError INTERNAL naming the grammar: not loadable, or ABI outside the runtime's range.
 */
export async function loadGrammar(name: string, bytes: Uint8Array): Promise<Language> {
  return instantiateGrammar(name, compile(`grammar '${name}'`, bytes));
}

/**
 * Instantiates a compiled grammar in this thread's runtime (initialized first) and checks its ABI.
 * @throws PegasError INTERNAL naming the grammar: not loadable, or ABI outside the runtime's range.
 */
async function instantiateGrammar(name: string, mod: WebAssembly.Module): Promise<Language> {
  await initRuntime();
  let language: Language;
  try {
    language = Language.loadSync(mod);
  } catch (err) {
    throw new PegasError("INTERNAL", `grammar '${name}' could not be loaded by web-tree-sitter: ${describe(err)}`, {
      hint: "the .wasm file must be built by a tree-sitter CLI compatible with web-tree-sitter 0.25 or newer",
      cause: err,
    });
  }
  const abi = language.abiVersion;
  const range = await runtimeAbiRange();
  if (abi < range.min || abi > range.max) throw abiError(name, abi, range);
  return language;
}

/**
 * The ABI range this runtime loads: `[min, max]` inclusive (web-tree-sitter's MIN_COMPATIBLE_VERSION and
 * LANGUAGE_VERSION, known once the runtime is initialized, which this does first).
 * @throws PegasError INTERNAL when the runtime cannot start.
 */
export async function runtimeAbiRange(): Promise<{ min: number; max: number }> {
  await initRuntime();
  return { min: MIN_COMPATIBLE_VERSION, max: LANGUAGE_VERSION };
}

/** The error for grammar `name` whose ABI version `abi` is outside the runtime's range `[min, max]`. */
export function abiError(name: string, abi: number, range: { min: number; max: number }): PegasError {
  const { min, max } = range;
  return new PegasError(
    "INTERNAL",
    `grammar '${name}' has tree-sitter ABI version ${abi}, but this tree-sitter runtime loads ABI versions ${min} through ${max}`,
    {
      hint:
        abi > max
          ? "upgrade web-tree-sitter, or install a grammar package generated by an older tree-sitter CLI, then rebuild"
          : "install a newer release of the grammar package (regenerated by a recent tree-sitter CLI), then rebuild",
    },
  );
}

function describe(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
