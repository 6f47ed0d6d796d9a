/**
 * Index snapshot file: the in-process indexes of an {@link EmbeddedProjection} (catalog, BM25 postings, vectors) with
 * their position in the change feed, so that a process starts from it and catches up only what changed since. It is
 * a rebuildable cache: PostgreSQL stays the source of truth, and a file that does not check is ignored.
 *
 * Layout (little-endian): magic "PGMSNAP\0" (8 bytes), format version (u32), header length H (u32), the header as
 * JSON (H bytes, {@link SnapshotHeader}), zero padding to a multiple of 8, the sections (each starting at a multiple of
 * 8 from the data start), and a CRC-32 (ISO-HDLC, as zlib's) of every byte before it (u32).
 * Written to a temporary file beside the target and renamed over it, so a reader (another process on the same data
 * dir) sees the old file or the new one, whole; two writers each rename a complete file, the last one wins.
 */
import { closeSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, writeSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { dirname } from "node:path";
import { crc32 } from "node:zlib";
import type { CatalogState } from "./atom-catalog.ts";
import type { Bm25State } from "./bm25-index.ts";
import type { FlatState } from "./flat-index.ts";

/**
 * Bumped whenever the layout or the meaning of a section changes; a file of another version is rebuilt. 3: vectors
 * as int8 codes with a scale per row (flat-index.ts), no longer a float32 matrix.
 */
export const SNAPSHOT_FORMAT = 3;
const MAGIC = Buffer.from("PGMSNAP\0", "latin1");
const PREFIX = 16;

/** What a snapshot must match to be used, besides its checksum. */
export interface SnapshotKey {
  /** The change feed's identity (ChangeFeed.feedIdentity). */
  identity: string;
  /** Embedding model and dimension of the vector index. */
  model: string;
  dim: number;
  /** Whether vectors are held (false: BM25 only). */
  vectors: boolean;
}

/** The indexes and their position. */
export interface SnapshotContent extends SnapshotKey {
  /** Change-feed mark (xid8 as decimal text) the indexes are complete up to. */
  mark: string;
  catalog: CatalogState;
  bm25: Bm25State;
  /** Present when `vectors`: presence byte and scale per slot, and the slots × dim int8 codes. */
  flat?: FlatState;
}

/** The JSON header: the key, the mark, the scalars and where each section lies (byte offset, byte length). */
interface SnapshotHeader extends SnapshotKey {
  mark: string;
  size: number;
  docs: number;
  totalLength: number;
  sections: Record<string, [number, number]>;
}

/** A snapshot file that exists but cannot be used as it is (torn, truncated, altered, another format). */
export class SnapshotUnusable extends Error {
  constructor(
    message: string,
    /** True for damage; false for a file of another format version (after an upgrade). Both are rebuilt with a warning. */
    readonly corrupt: boolean,
  ) {
    super(message);
  }
}

type Typed = Int8Array | Uint8Array | Uint16Array | Int32Array | Uint32Array | Float32Array | Float64Array;
const align8 = (n: number) => (n + 7) & ~7;
const bytes = (a: Typed) => new Uint8Array(a.buffer, a.byteOffset, a.byteLength);

/**
 * Writes `content` to `path` atomically (temporary file + rename; the dir is created). Returns the bytes written.
 * @throws Error from the file system (the temporary file is removed).
 */
export function writeSnapshot(path: string, content: SnapshotContent): number {
  const { catalog: c, bm25: b, flat } = content;
  const parts: Array<[string, Uint8Array]> = [
    ["ids", bytes(c.ids)],
    ["docs", bytes(c.docs)],
    ["types", bytes(c.types)],
    ["statuses", bytes(c.statuses)],
    ["notes", bytes(c.notes)],
    ["lengths", bytes(b.lengths)],
    ["indexed", bytes(b.indexed)],
    ["counts", bytes(b.counts)],
    ["slots", bytes(b.slots)],
    ["tfs", bytes(b.tfs)],
    ["terms", Buffer.from(b.terms.join("\0"), "utf8")],
  ];
  if (flat) parts.push(["present", bytes(flat.present)], ["scales", bytes(flat.scales)], ["codes", bytes(flat.codes)]);
  const sections: Record<string, [number, number]> = {};
  let at = 0;
  for (const [name, data] of parts) {
    sections[name] = [at, data.byteLength];
    at = align8(at + data.byteLength);
  }
  const header: SnapshotHeader = {
    identity: content.identity,
    model: content.model,
    dim: content.dim,
    vectors: content.vectors,
    mark: content.mark,
    size: c.size,
    docs: b.docs,
    totalLength: b.totalLength,
    sections,
  };
  const json = Buffer.from(JSON.stringify(header), "utf8");
  const prefix = Buffer.alloc(align8(PREFIX + json.length));
  MAGIC.copy(prefix, 0);
  prefix.writeUInt32LE(SNAPSHOT_FORMAT, 8);
  prefix.writeUInt32LE(json.length, 12);
  json.copy(prefix, PREFIX);
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const tmp = `${path}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  const fd = openSync(tmp, "w", 0o600);
  let crc = 0;
  let written = 0;
  const put = (data: Uint8Array) => {
    for (let off = 0; off < data.byteLength; ) off += writeSync(fd, data, off, data.byteLength - off);
    crc = crc32(data, crc);
    written += data.byteLength;
  };
  try {
    put(prefix);
    const dataStart = written;
    for (const [, data] of parts) {
      put(data);
      const pad = align8(written - dataStart) - (written - dataStart);
      if (pad) put(new Uint8Array(pad));
    }
    const trailer = Buffer.alloc(4);
    trailer.writeUInt32LE(crc >>> 0, 0);
    put(trailer);
    closeSync(fd);
    renameSync(tmp, path);
  } catch (err) {
    try {
      closeSync(fd);
    } catch {}
    rmSync(tmp, { force: true });
    throw err;
  }
  return written;
}

/**
 * Reads and checks the snapshot at `path`: null when there is none; the content (its arrays are views of the file's
 * one buffer) otherwise. The key is not compared here (see snapshotMatches).
 * @throws SnapshotUnusable when the file is damaged or of another format version.
 */
export function readSnapshot(path: string): SnapshotContent | null {
  let file: Buffer;
  try {
    file = readFileSync(path);
  } catch (err) {
    return unreadable(err);
  }
  return parseSnapshot(file);
}

/** null for a missing file; any other read error makes the snapshot unusable. */
function unreadable(err: unknown): null {
  if ((err as NodeJS.ErrnoException).code === "ENOENT") return null;
  throw new SnapshotUnusable(`cannot read: ${(err as Error).message}`, true);
}

/**
 * The bytes of the snapshot at `path`, read on the I/O thread pool (so that a process reads it while its database
 * opens), or null when there is none. @throws SnapshotUnusable when it exists but cannot be read.
 */
export function readSnapshotFile(path: string): Promise<Buffer | null> {
  return readFile(path).catch(unreadable);
}

/**
 * Checks and decodes the bytes of a snapshot file (as {@link readSnapshot}; the arrays are views of `file`).
 * @throws SnapshotUnusable when the bytes are damaged or of another format version.
 */
export function parseSnapshot(file: Buffer): SnapshotContent {
  if (file.length < PREFIX + 4 || !file.subarray(0, 8).equals(MAGIC))
    throw new SnapshotUnusable("not a snapshot", true);
  const version = file.readUInt32LE(8);
  if (version !== SNAPSHOT_FORMAT)
    throw new SnapshotUnusable(`format ${version}, this build reads ${SNAPSHOT_FORMAT}`, false);
  if (crc32(file.subarray(0, file.length - 4)) >>> 0 !== file.readUInt32LE(file.length - 4))
    throw new SnapshotUnusable("checksum mismatch", true);
  // Typed views need aligned offsets: copy the file once when the runtime handed a misaligned slice.
  const buf = file.byteOffset % 8 === 0 ? file : Buffer.from(new Uint8Array(file).buffer);
  const jsonLength = buf.readUInt32LE(12);
  let h: SnapshotHeader;
  try {
    h = JSON.parse(buf.toString("utf8", PREFIX, PREFIX + jsonLength));
  } catch {
    throw new SnapshotUnusable("unreadable header", true);
  }
  const dataStart = buf.byteOffset + align8(PREFIX + jsonLength);
  const end = buf.byteOffset + buf.length - 4;
  const view = <T>(
    name: string,
    Kind: { new (b: ArrayBufferLike, o: number, n: number): T; BYTES_PER_ELEMENT: number },
  ) => {
    const s = h.sections?.[name];
    if (!s) throw new SnapshotUnusable(`section '${name}' missing`, true);
    const [off, len] = s;
    if (off % 8 || len % Kind.BYTES_PER_ELEMENT || dataStart + off + len > end)
      throw new SnapshotUnusable(`section '${name}' out of bounds`, true);
    return new Kind(buf.buffer as ArrayBuffer, dataStart + off, len / Kind.BYTES_PER_ELEMENT);
  };
  const termBytes = view("terms", Uint8Array);
  const termText = Buffer.from(termBytes.buffer, termBytes.byteOffset, termBytes.byteLength).toString("utf8");
  const content: SnapshotContent = {
    identity: String(h.identity),
    model: String(h.model),
    dim: Number(h.dim),
    vectors: h.vectors === true,
    mark: String(h.mark),
    catalog: {
      size: Number(h.size),
      ids: view("ids", Float64Array),
      docs: view("docs", Float64Array),
      types: view("types", Uint8Array),
      statuses: view("statuses", Uint8Array),
      notes: view("notes", Uint8Array),
    },
    bm25: {
      docs: Number(h.docs),
      totalLength: Number(h.totalLength),
      lengths: view("lengths", Uint32Array),
      indexed: view("indexed", Uint8Array),
      counts: view("counts", Uint32Array),
      slots: view("slots", Int32Array),
      tfs: view("tfs", Uint16Array),
      terms: termText.length ? termText.split("\0") : [],
    },
  };
  if (content.vectors)
    content.flat = {
      present: view("present", Uint8Array),
      scales: view("scales", Float32Array),
      codes: view("codes", Int8Array),
    };
  if (!/^\d+$/.test(content.mark)) throw new SnapshotUnusable(`bad mark '${content.mark}'`, true);
  return content;
}

/** True when a snapshot was taken for the same feed, model, dimension and vector setting. */
export function snapshotMatches(content: SnapshotKey, key: SnapshotKey): boolean {
  return (
    content.identity === key.identity &&
    content.model === key.model &&
    content.dim === key.dim &&
    content.vectors === key.vectors
  );
}
