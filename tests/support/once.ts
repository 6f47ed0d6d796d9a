/**
 * Things the tests build once per change of their inputs and share across test files, test processes and runs (the
 * compiled executable, the migrated PGlite data dir): kept under .tmp/<kind>/<hash of the inputs>/, made by the
 * first process that takes a lock file beside it while the others wait for it.
 */
import { createHash } from "node:crypto";
import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeSync,
} from "node:fs";
import { join, relative, resolve } from "node:path";

/** The repository's root. */
export const ROOT = resolve(import.meta.dir, "../..");

/** How long a process waits for another one's build before giving up (ms). */
const WAIT_MS = 15 * 60_000;

/** Every file under `path` (a file or a directory), sorted; none when it does not exist. */
function filesUnder(path: string): string[] {
  if (!existsSync(path)) return [];
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path, { withFileTypes: true })
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .flatMap((e) => filesUnder(join(path, e.name)));
}

/**
 * SHA-256 (hex, 16 chars) of `salt` and of the paths and contents of every file under `inputs` (paths relative to the
 * repository's root; a missing one counts as empty).
 */
export function inputsHash(inputs: readonly string[], salt: string): string {
  const h = createHash("sha256").update(`${salt}\n`);
  for (const file of inputs.flatMap((p) => filesUnder(join(ROOT, p))))
    h.update(`${relative(ROOT, file)}\n`).update(readFileSync(file));
  return h.digest("hex").slice(0, 16);
}

/** True when process `pid` is alive. */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Takes `lock` (created exclusively, holding this pid); false when a live process holds it. A dead holder's goes. */
function tryLock(lock: string): boolean {
  try {
    const fd = openSync(lock, "wx");
    writeSync(fd, String(process.pid));
    closeSync(fd);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
    const holder = Number(readFileSync(lock, "utf8").trim());
    // An empty file: its holder is between creating and writing it.
    if (holder && !alive(holder)) rmSync(lock, { force: true });
    return false;
  }
}

/**
 * The path .tmp/`kind`/`hash`, made by `make` unless some process already made it. `make(dir)` fills `dir` (which
 * exists and is empty) and must leave nothing running in it; on success the dir becomes the result at once (a
 * rename), on failure it is removed and the error is thrown. Entries of other hashes go once an hour old. `mode`:
 * the dir's permissions, 0700 by default (as mkdtemp makes them: a data dir open to others is warned about).
 * @throws Error when `make` fails, or when another process's build has not ended within 15 minutes.
 */
export async function madeOnce(
  kind: string,
  hash: string,
  make: (dir: string) => Promise<void>,
  mode = 0o700,
): Promise<string> {
  const base = join(ROOT, ".tmp", kind);
  const target = join(base, hash);
  const lock = `${target}.lock`;
  mkdirSync(base, { recursive: true });
  const deadline = Date.now() + WAIT_MS;
  while (!existsSync(target)) {
    if (!tryLock(lock)) {
      if (Date.now() > deadline) throw new Error(`${kind} ${hash}: another process's build did not end (${lock})`);
      await Bun.sleep(250);
      continue;
    }
    try {
      if (existsSync(target)) break; // made between the check and the lock
      const partial = `${target}.${process.pid}.partial`;
      rmSync(partial, { recursive: true, force: true });
      mkdirSync(partial, { mode });
      try {
        await make(partial);
      } catch (err) {
        rmSync(partial, { recursive: true, force: true });
        throw err;
      }
      renameSync(partial, target);
      for (const old of readdirSync(base)) {
        const path = join(base, old);
        if (!old.startsWith(hash) && !old.endsWith(".lock") && Date.now() - statSync(path).mtimeMs > 3_600_000)
          rmSync(path, { recursive: true, force: true });
      }
    } finally {
      rmSync(lock, { force: true });
    }
  }
  return target;
}
