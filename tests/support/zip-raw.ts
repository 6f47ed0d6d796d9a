/**
 * A minimal ZIP writer for hostile-input tests (PKWARE APPNOTE.TXT: local headers, central directory, EOCD).
 * Unlike fflate's zipSync it can store pre-compressed data and declare any uncompressed size, so tests can build
 * archives whose directory lies about what an entry inflates to.
 */
import { Deflate } from "fflate";

/** One entry: `data` is stored as is, `deflated` is raw DEFLATE data; `declaredSize` overrides the size written. */
export interface RawEntry {
  name: string;
  data?: Uint8Array;
  deflated?: { bytes: Uint8Array; size: number };
  declaredSize?: number;
}

/** Raw DEFLATE of `megabytes` MiB of one repeated byte, built streaming (never holds the inflated data). */
export function deflatedRepeat(megabytes: number, byte = 0x61): { bytes: Uint8Array; size: number } {
  const parts: Uint8Array[] = [];
  const d = new Deflate({ level: 1 }, (c) => {
    parts.push(c);
  });
  const block = new Uint8Array(1 << 20).fill(byte);
  for (let i = 0; i < megabytes; i++) d.push(block, i === megabytes - 1);
  return { bytes: concat(parts), size: megabytes << 20 };
}

/** Concatenates byte arrays. */
export function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.byteLength, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.byteLength;
  }
  return out;
}

/** Builds a ZIP archive (CRC fields are zero: the reader under test does not check them). */
export function buildRawZip(entries: RawEntry[]): Uint8Array {
  const locals: Uint8Array[] = [];
  const centrals: Uint8Array[] = [];
  let offset = 0;
  for (const e of entries) {
    const name = new TextEncoder().encode(e.name);
    const body = e.deflated ? e.deflated.bytes : (e.data ?? new Uint8Array(0));
    const size = e.declaredSize ?? (e.deflated ? e.deflated.size : body.byteLength);
    const method = e.deflated ? 8 : 0;
    const local = new DataView(new ArrayBuffer(30));
    local.setUint32(0, 0x04034b50, true);
    local.setUint16(4, 20, true);
    local.setUint16(8, method, true);
    local.setUint32(18, body.byteLength, true);
    local.setUint32(22, size, true);
    local.setUint16(26, name.byteLength, true);
    locals.push(new Uint8Array(local.buffer), name, body);
    const cd = new DataView(new ArrayBuffer(46));
    cd.setUint32(0, 0x02014b50, true);
    cd.setUint16(4, 20, true);
    cd.setUint16(6, 20, true);
    cd.setUint16(10, method, true);
    cd.setUint32(20, body.byteLength, true);
    cd.setUint32(24, size, true);
    cd.setUint16(28, name.byteLength, true);
    cd.setUint32(42, offset, true);
    centrals.push(new Uint8Array(cd.buffer), name);
    offset += 30 + name.byteLength + body.byteLength;
  }
  const cdBytes = concat(centrals);
  const eocd = new DataView(new ArrayBuffer(22));
  eocd.setUint32(0, 0x06054b50, true);
  eocd.setUint16(8, entries.length, true);
  eocd.setUint16(10, entries.length, true);
  eocd.setUint32(12, cdBytes.byteLength, true);
  eocd.setUint32(16, offset, true);
  return concat([...locals, cdBytes, new Uint8Array(eocd.buffer)]);
}
