/**
 * {@link LazyServices}: the services of a server, opened on first use. This module loads nothing of the store or the
 * models: src/wiring/services.ts (and with it the adapters: PGlite, PostgreSQL, parsers, tree-sitter) is imported
 * on the first get(), so that a server answers `initialize` before any of them is loaded.
 */
import type { Config } from "../config.ts";
import type { Services } from "../core/services.ts";
import { PegasError } from "../errors.ts";

/** Opens services on first use (so that `initialize` answers before the database opens) and closes them once. */
export class LazyServices {
  private pending: Promise<Services> | null = null;
  private closed = false;

  /** `onOpen` runs once the services exist (e.g. to start background work). */
  constructor(
    private readonly config: Config,
    private readonly onOpen?: (services: Services) => void,
  ) {}

  /** The services, created on the first call; a failed creation is retried on the next call. */
  get(): Promise<Services> {
    if (this.closed) return Promise.reject(new PegasError("STORE_UNAVAILABLE", "the server is shutting down"));
    if (!this.pending) {
      // The embedded engine compiles while the services' modules load (prewarm.ts).
      const opening = import("./prewarm.ts")
        .then((m) => m.prewarmDatabase(this.config))
        .then(() => import("./services.ts"))
        .then((m) => m.createServices(this.config))
        .then((s) => {
          this.onOpen?.(s);
          return s;
        });
      opening.catch(() => {
        if (this.pending === opening) this.pending = null;
      });
      this.pending = opening;
    }
    return this.pending;
  }

  /** True once services exist. */
  get opened(): boolean {
    return this.pending !== null;
  }

  /** Closes the services if they were opened; later get() calls fail. */
  async close(graceMs = 1000): Promise<void> {
    this.closed = true;
    const p = this.pending;
    this.pending = null;
    if (!p) return;
    const services = await p.catch(() => null);
    await services?.close(graceMs);
  }
}
