/**
 * A hand-written SymbolExtractor for storage tests: a `.py` or `.go` file holds JSON {symbols, deps, imports,
 * syntaxErrors}; a file containing FAIL_PARSE throws. Records which paths it was asked to extract.
 */
import { PegasError } from "../../src/errors.ts";
import type {
  CodeLanguage,
  ExtractedDependency,
  ExtractedFile,
  ExtractedSymbol,
  ImportBinding,
  SymbolExtractor,
} from "../../src/ports/models/symbol-extractor.ts";

/** The JSON a fake source file holds. */
export interface FakeSource {
  symbols?: ExtractedSymbol[];
  deps?: ExtractedDependency[];
  imports?: ImportBinding[];
  syntaxErrors?: number;
}

/** A symbol (lines 1-based, inclusive). */
export function sym(
  qualifiedName: string,
  kind: ExtractedSymbol["kind"],
  lineStart: number,
  lineEnd: number,
  docstring: string | null = null,
  signature?: string,
): ExtractedSymbol {
  const name = qualifiedName.split(".").at(-1)!;
  return { name, qualifiedName, kind, lineStart, lineEnd, docstring, signature: signature ?? `def ${name}()` };
}

/** Source text: one symbol per line (so that a symbol's line holds its name), then the rest. */
export function fakeSource(src: FakeSource): string {
  const lines = ["{", '"symbols": ['];
  (src.symbols ?? []).forEach((s, i, a) => {
    lines.push(JSON.stringify(s) + (i < a.length - 1 ? "," : ""));
  });
  lines.push(
    "],",
    `"deps": ${JSON.stringify(src.deps ?? [])},`,
    `"imports": ${JSON.stringify(src.imports ?? [])},`,
    `"syntaxErrors": ${src.syntaxErrors ?? 0}`,
    "}",
  );
  return `${lines.join("\n")}\n`;
}

/** The fake extractor. */
export class FakeExtractor implements SymbolExtractor {
  readonly calls: string[] = [];
  /** Called before each extraction (e.g. to abort a run). */
  onExtract?: (path: string) => void;
  /** Milliseconds each extraction takes (a slow grammar). */
  delayMs = 0;

  languageOf(path: string): CodeLanguage | null {
    return path.endsWith(".py") ? "python" : path.endsWith(".go") ? "go" : null;
  }

  async extract(path: string, source: string, language: CodeLanguage): Promise<ExtractedFile> {
    this.calls.push(path);
    this.onExtract?.(path);
    if (this.delayMs) await Bun.sleep(this.delayMs);
    if (source.includes("FAIL_PARSE")) throw new PegasError("INTERNAL", `the fake grammar cannot parse '${path}'`);
    const s = JSON.parse(source) as FakeSource;
    const module = path.replace(/\.\w+$/, "").replace(/\/__init__$/, "");
    return {
      language,
      module,
      symbols: s.symbols ?? [],
      dependencies: s.deps ?? [],
      imports: s.imports ?? [],
      syntaxErrors: s.syntaxErrors ?? 0,
    };
  }
}
