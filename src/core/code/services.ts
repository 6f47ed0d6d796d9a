/**
 * The services code memory runs on: the process's Services plus the code store and the symbol extractor. Until
 * the integrator adds `code` and `extractor` to Services (src/core/services.ts, src/wiring.ts), a call reaching
 * code memory fails with a clear INTERNAL error instead of a TypeError.
 */
import { PegasError } from "../../errors.ts";
import type { CodeStore } from "../../ports/code-store.ts";
import type { SymbolExtractor } from "../../ports/models/symbol-extractor.ts";
import type { Services } from "../services.ts";

/** What code memory needs of the services. */
export type CodeServices = Pick<Services, "config" | "embedder" | "graph" | "store"> & {
  /** The canonical code memory (SqlCodeStore). */
  readonly code: CodeStore;
  /** tree-sitter symbol extraction. */
  readonly extractor: SymbolExtractor;
};

/** The services as {@link CodeServices}. @throws PegasError INTERNAL when `code` or `extractor` is not wired. */
export function codeServices(services: Services): CodeServices {
  const s = services as Services & Partial<Pick<CodeServices, "code" | "extractor">>;
  if (!s.code || !s.extractor) {
    throw new PegasError(
      "INTERNAL",
      "code memory is not wired in this build (Services.code / Services.extractor missing)",
      {
        hint: "report this: src/wiring.ts must create SqlCodeStore and the tree-sitter extractor",
      },
    );
  }
  return s as CodeServices;
}
