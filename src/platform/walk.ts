/**
 * The one directory walker of the project, depth-first with an explicit stack (hostile nesting cannot overflow it)
 * and one sorted listing in memory per level. The caller decides for each entry whether to pass over it, take it
 * (the walk yields it) or enter it — at another absolute path if it likes, e.g. a symbolic link it resolved. Two
 * orders: `files-first` (a directory's entries, then its subdirectories one after another: code memory's walk) and
 * `pre-order` (a subdirectory is walked where it is met: memory_ingest's directory listing).
 */
import type { Dirent } from "node:fs";
import { readdir } from "node:fs/promises";
import { join } from "node:path";

/** A directory of the walk: its absolute path, its path relative to the root (`/` separators, "" for the root), and the caller's state for it. */
export interface TreeDir<C> {
  abs: string;
  rel: string;
  ctx: C;
}

/** What becomes of an entry: passed over, taken (yielded), or entered as a directory (at `abs`, default its path). */
export type TreeStep<C> = { kind: "skip" } | { kind: "take" } | { kind: "enter"; ctx: C; abs?: string };

/** An entry the walk yields: its paths and the directory it was listed in. */
export interface TreeFile<C> {
  rel: string;
  abs: string;
  dir: TreeDir<C>;
}

/** How to walk: the order, how a listing is sorted, and the caller's decisions and hooks. */
export interface TreeWalk<C> {
  order: "files-first" | "pre-order";
  compare(a: Dirent, b: Dirent): number;
  /** Called for each entry of a listing, in order; `rel` and `abs` are the entry's paths. */
  visit(dir: TreeDir<C>, entry: Dirent, rel: string, abs: string): TreeStep<C>;
  /** Called before a directory is listed. */
  entering?(dir: TreeDir<C>): void;
  /** Called with a directory's sorted entries before any of them is visited (e.g. to read rules they hold). */
  listed?(dir: TreeDir<C>, entries: Dirent[]): Promise<void> | void;
  /** A directory could not be listed; the walk passes over it (throw to stop the walk). */
  onError?(dir: TreeDir<C>, err: Error): void;
  /** Checked before each directory is listed: the walk ends quietly once it is aborted. */
  signal?: AbortSignal;
}

/** A directory being walked: its sorted entries, the next one to visit, and (files-first) the subdirectories met. */
interface Frame<C> {
  dir: TreeDir<C>;
  entries: Dirent[] | null;
  next: number;
  subdirs: TreeDir<C>[];
}

/** Yields the entries of the tree under `root` that `walk.visit` takes, in the walk's order. */
export async function* walkTree<C>(root: TreeDir<C>, walk: TreeWalk<C>): AsyncGenerator<TreeFile<C>> {
  const stack: Frame<C>[] = [{ dir: root, entries: null, next: 0, subdirs: [] }];
  while (stack.length) {
    const frame = stack.at(-1)!;
    if (frame.entries === null) {
      if (walk.signal?.aborted) return;
      walk.entering?.(frame.dir);
      try {
        frame.entries = (await readdir(frame.dir.abs, { withFileTypes: true })).sort(walk.compare);
      } catch (err) {
        stack.pop();
        walk.onError?.(frame.dir, err as Error);
        continue;
      }
      await walk.listed?.(frame.dir, frame.entries);
    }
    if (frame.next >= frame.entries.length) {
      stack.pop();
      for (let i = frame.subdirs.length - 1; i >= 0; i--)
        stack.push({ dir: frame.subdirs[i], entries: null, next: 0, subdirs: [] });
      continue;
    }
    const entry = frame.entries[frame.next++];
    const rel = frame.dir.rel ? `${frame.dir.rel}/${entry.name}` : entry.name;
    const abs = join(frame.dir.abs, entry.name);
    const step = walk.visit(frame.dir, entry, rel, abs);
    if (step.kind === "take") yield { rel, abs, dir: frame.dir };
    else if (step.kind === "enter") {
      const sub = { abs: step.abs ?? abs, rel, ctx: step.ctx };
      if (walk.order === "files-first") frame.subdirs.push(sub);
      else stack.push({ dir: sub, entries: null, next: 0, subdirs: [] });
    }
  }
}
