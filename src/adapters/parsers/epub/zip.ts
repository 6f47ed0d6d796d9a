/**
 * A defensive ZIP reader for EPUB containers (PKWARE APPNOTE.TXT 6.3: end of central directory, central
 * directory headers, ZIP64 extensions; local headers only to find where data starts). Zip-bomb limits are
 * enforced twice: on the sizes the central directory declares, before anything is inflated, and on the bytes
 * actually produced while inflating (declared sizes can lie), so that a hostile entry fails after at most the
 * limit plus one inflate step of output, never after allocating what it expands to. Inflate is fflate's.
 */
import { Inflate } from "fflate";
import { ZIP_LIMIT_KEYS } from "../../../domain/limits.ts";
import { PegasError } from "../../../errors.ts";
import type { ParseLimits } from "../../../ports/models/parser.ts";

/** One central-directory entry. Sizes in bytes, as declared by the archive. */
export interface ZipEntry {
  name: string;
  method: number;
  flags: number;
  compressedSize: number;
  size: number;
  localOffset: number;
}

const EOCD_SIG = 0x06054b50;
const EOCD64_LOCATOR_SIG = 0x07064b50;
const EOCD64_SIG = 0x06064b50;
const CDH_SIG = 0x02014b50;
const LFH_SIG = 0x04034b50;
/** Deflate's largest expansion ratio (RFC 1951: a 258-byte match in ~2 bits); bounds one step's output. */
const MAX_RATIO = 1032;
/** Compressed bytes per inflate step: large steps are faster (fflate allocates per step), small ones overshoot less. */
const MIN_STEP = 4 * 1024;
const MAX_STEP = 64 * 1024;

function notZip(uri: string, why: string): PegasError {
  return new PegasError("UNSUPPORTED_MEDIA", `'${uri}' is not a readable EPUB: ${why}`, {
    hint: "an EPUB is a ZIP archive with META-INF/container.xml; check that the file is complete",
  });
}

function limitError(what: string, limit: keyof typeof ZIP_LIMIT_KEYS, value: number, max: number): PegasError {
  const key = ZIP_LIMIT_KEYS[limit];
  return new PegasError("LIMIT_EXCEEDED", `${what}: ${value} exceeds the limit ${key} = ${max}`, {
    hint: `raise ${key} in the config file only if the archive is trusted (zip-bomb guard)`,
  });
}

/** Reads a ZIP archive's directory at open and inflates single entries on demand, within the limits. */
export class SafeZip {
  private readonly entries = new Map<string, ZipEntry>();
  private inflated = 0;

  private constructor(
    private readonly bytes: Uint8Array,
    private readonly limits: ParseLimits,
    private readonly uri: string,
  ) {}

  /**
   * Parses the central directory and checks entry count and declared sizes.
   * @throws PegasError UNSUPPORTED_MEDIA (not a ZIP, truncated), LIMIT_EXCEEDED (maxZipEntries,
   * maxZipEntryBytes, maxZipTotalBytes).
   */
  static open(bytes: Uint8Array, limits: ParseLimits, uri: string): SafeZip {
    const zip = new SafeZip(bytes, limits, uri);
    zip.readDirectory();
    return zip;
  }

  /** Entry names in directory order. */
  names(): string[] {
    return [...this.entries.keys()];
  }

  /** The entry called exactly `name`, or undefined. */
  entry(name: string): ZipEntry | undefined {
    return this.entries.get(name);
  }

  /** Total bytes inflated so far (counted against maxZipTotalBytes). */
  get inflatedBytes(): number {
    return this.inflated;
  }

  private view(): DataView {
    return new DataView(this.bytes.buffer, this.bytes.byteOffset, this.bytes.byteLength);
  }

  private readDirectory(): void {
    const dv = this.view();
    const n = this.bytes.byteLength;
    let eocd = -1;
    for (let i = n - 22; i >= Math.max(0, n - 22 - 0xffff); i--) {
      if (dv.getUint32(i, true) === EOCD_SIG) {
        eocd = i;
        break;
      }
    }
    if (eocd < 0) throw notZip(this.uri, "no ZIP end-of-central-directory record");
    let count = dv.getUint16(eocd + 10, true);
    let cdOffset = dv.getUint32(eocd + 16, true);
    if (
      (count === 0xffff || cdOffset === 0xffffffff) &&
      eocd >= 20 &&
      dv.getUint32(eocd - 20, true) === EOCD64_LOCATOR_SIG
    ) {
      const rec = Number(dv.getBigUint64(eocd - 12, true));
      if (rec + 56 > n || dv.getUint32(rec, true) !== EOCD64_SIG) throw notZip(this.uri, "broken ZIP64 directory");
      count = Number(dv.getBigUint64(rec + 32, true));
      cdOffset = Number(dv.getBigUint64(rec + 48, true));
    }
    if (count > this.limits.maxZipEntries) {
      throw limitError(`'${this.uri}' has ${count} ZIP entries`, "maxZipEntries", count, this.limits.maxZipEntries);
    }
    this.readEntries(dv, cdOffset, count);
  }

  private readEntries(dv: DataView, offset: number, count: number): void {
    let declaredTotal = 0;
    for (let k = 0; k < count; k++) {
      if (offset + 46 > this.bytes.byteLength || dv.getUint32(offset, true) !== CDH_SIG) {
        throw notZip(this.uri, `central directory entry ${k + 1} of ${count} is missing (truncated file?)`);
      }
      const nameLen = dv.getUint16(offset + 28, true);
      const extraLen = dv.getUint16(offset + 30, true);
      const commentLen = dv.getUint16(offset + 32, true);
      const nameBytes = this.bytes.subarray(offset + 46, offset + 46 + nameLen);
      // Bit 11 marks UTF-8 names; EPUB requires UTF-8 names anyway, so decode as UTF-8 either way.
      const name = new TextDecoder().decode(nameBytes);
      const e: ZipEntry = {
        name,
        flags: dv.getUint16(offset + 8, true),
        method: dv.getUint16(offset + 10, true),
        compressedSize: dv.getUint32(offset + 20, true),
        size: dv.getUint32(offset + 24, true),
        localOffset: dv.getUint32(offset + 42, true),
      };
      this.applyZip64(dv, e, offset + 46 + nameLen, extraLen);
      if (e.size > this.limits.maxZipEntryBytes) {
        throw limitError(
          `ZIP entry '${name}' declares ${e.size} uncompressed bytes`,
          "maxZipEntryBytes",
          e.size,
          this.limits.maxZipEntryBytes,
        );
      }
      declaredTotal += e.size;
      if (declaredTotal > this.limits.maxZipTotalBytes) {
        throw limitError(
          `'${this.uri}' declares ${declaredTotal}+ uncompressed bytes`,
          "maxZipTotalBytes",
          declaredTotal,
          this.limits.maxZipTotalBytes,
        );
      }
      if (!name.endsWith("/")) this.entries.set(name, e);
      offset += 46 + nameLen + extraLen + commentLen;
    }
  }

  /** Replaces 0xFFFFFFFF size/offset fields with the values of the ZIP64 extended information extra field. */
  private applyZip64(dv: DataView, e: ZipEntry, start: number, len: number): void {
    if (e.size !== 0xffffffff && e.compressedSize !== 0xffffffff && e.localOffset !== 0xffffffff) return;
    for (let p = start; p + 4 <= start + len; ) {
      const id = dv.getUint16(p, true);
      const size = dv.getUint16(p + 2, true);
      if (id === 0x0001) {
        let q = p + 4;
        const next = (): number => {
          const v = Number(dv.getBigUint64(q, true));
          q += 8;
          return v;
        };
        if (e.size === 0xffffffff) e.size = next();
        if (e.compressedSize === 0xffffffff) e.compressedSize = next();
        if (e.localOffset === 0xffffffff) e.localOffset = next();
        return;
      }
      p += 4 + size;
    }
  }

  /**
   * Inflates one entry, counting actual output against maxZipEntryBytes and the remaining maxZipTotalBytes.
   * @throws PegasError LIMIT_EXCEEDED; Error for a broken or unsupported entry (the caller names it in a warning).
   */
  read(name: string): Uint8Array {
    const e = this.entries.get(name);
    if (!e) throw new Error(`no ZIP entry '${name}'`);
    if (e.flags & 1) throw new Error(`ZIP entry '${name}' is encrypted`);
    const dv = this.view();
    const lfh = e.localOffset;
    if (lfh + 30 > this.bytes.byteLength || dv.getUint32(lfh, true) !== LFH_SIG)
      throw new Error(`ZIP entry '${name}' has no local header`);
    const start = lfh + 30 + dv.getUint16(lfh + 26, true) + dv.getUint16(lfh + 28, true);
    const data = this.bytes.subarray(start, start + e.compressedSize);
    if (data.byteLength < e.compressedSize) throw new Error(`ZIP entry '${name}' is truncated`);
    if (e.method === 0) {
      this.count(name, data.byteLength);
      return data;
    }
    if (e.method !== 8) throw new Error(`ZIP entry '${name}' uses unsupported compression method ${e.method}`);
    return this.inflate(name, data);
  }

  private count(name: string, produced: number): void {
    if (produced > this.limits.maxZipEntryBytes) {
      throw limitError(
        `ZIP entry '${name}' inflates to more than ${this.limits.maxZipEntryBytes} bytes`,
        "maxZipEntryBytes",
        produced,
        this.limits.maxZipEntryBytes,
      );
    }
    if (this.inflated + produced > this.limits.maxZipTotalBytes) {
      throw limitError(
        `'${this.uri}' inflates to more than ${this.limits.maxZipTotalBytes} bytes`,
        "maxZipTotalBytes",
        this.inflated + produced,
        this.limits.maxZipTotalBytes,
      );
    }
  }

  private inflate(name: string, data: Uint8Array): Uint8Array {
    const chunks: Uint8Array[] = [];
    let produced = 0;
    const inflater = new Inflate((chunk) => {
      produced += chunk.byteLength;
      this.count(name, produced);
      chunks.push(chunk);
    });
    for (let o = 0; o < data.byteLength; ) {
      // A step may produce at most what is left of the budget, so a bomb is stopped before it allocates more.
      const left = Math.min(
        this.limits.maxZipEntryBytes - produced,
        this.limits.maxZipTotalBytes - this.inflated - produced,
      );
      const step = Math.max(MIN_STEP, Math.min(MAX_STEP, Math.floor(left / MAX_RATIO)));
      inflater.push(data.subarray(o, o + step), o + step >= data.byteLength);
      o += step;
    }
    if (data.byteLength === 0) inflater.push(new Uint8Array(0), true);
    this.inflated += produced;
    if (chunks.length === 1) return chunks[0];
    const out = new Uint8Array(produced);
    let at = 0;
    for (const c of chunks) {
      out.set(c, at);
      at += c.byteLength;
    }
    return out;
  }
}
