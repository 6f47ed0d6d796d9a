/**
 * Ownership of an embedded data dir, held as a listening Linux abstract-namespace unix socket. The kernel frees
 * the name when the process dies, even on SIGKILL, so a crashed owner never leaves a stale lock behind (unlike a
 * lock file or a pid file).
 */
import { createServer, type Server } from "node:net";

/** A held lock; `release` frees it for the next owner. */
export interface OwnershipLock {
  /** Stops listening, so that another process can take the name. Idempotent; never throws. */
  release(): Promise<void>;
}

/**
 * Tries to take the lock `name` (a leading NUL selects the abstract namespace). Resolves `null` when another
 * process holds it. The listener never keeps the process alive and drops any connection at once: it carries no data.
 * @throws Error for listen failures other than EADDRINUSE (e.g. a platform without abstract sockets).
 */
export function tryLock(name: string): Promise<OwnershipLock | null> {
  return new Promise((resolve, reject) => {
    const server: Server = createServer((conn) => conn.destroy());
    server.once("error", (err: NodeJS.ErrnoException) => {
      server.close();
      if (err.code === "EADDRINUSE") resolve(null);
      else reject(err);
    });
    server.listen(name, () => {
      server.unref();
      let released: Promise<void> | undefined;
      resolve({
        release: () => (released ??= new Promise<void>((done) => server.close(() => done()))),
      });
    });
  });
}
