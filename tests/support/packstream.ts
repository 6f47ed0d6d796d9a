/**
 * PackStream v1 (the value encoding of Bolt, neo4j.com/docs/bolt/current/packstream/) and Bolt's wire framing for
 * the Bolt stand-in: a decoder that keeps each value's wire type (so a test can tell a Bolt Integer from a Float), an
 * encoder for the answers, chunked messages (neo4j.com/docs/bolt/current/bolt/message/#chunking) and the version
 * handshake (neo4j.com/docs/bolt/current/bolt/handshake/).
 *
 * Markers: C0 null; C1 Float64; C2/C3 false/true; C8/C9/CA/CB Int8/16/32/64; F0–FF and 00–7F tiny ints (−16..127);
 * CC/CD/CE bytes (u8/u16/u32 length); 80–8F, D0/D1/D2 strings; 90–9F, D4/D5/D6 lists; A0–AF, D8/D9/DA maps;
 * B0–BF structures (field count in the low nibble, then a tag byte). All lengths and numbers are big-endian.
 */

/** A decoded (or to-be-encoded) PackStream value with its wire type; Integer keeps all 64 bits as a bigint. */
export type PackValue =
  | { type: "Null" }
  | { type: "Boolean"; value: boolean }
  | { type: "Integer"; value: bigint }
  | { type: "Float"; value: number }
  | { type: "Bytes"; value: Uint8Array }
  | { type: "String"; value: string }
  | { type: "List"; items: PackValue[] }
  | { type: "Map"; entries: [string, PackValue][] }
  | { type: "Structure"; tag: number; fields: PackValue[] };

/**
 * The wire-type shape of a value: a type name for scalars, an array for a list (one shape per item), an object for
 * a map (one shape per key), `{struct, fields}` for a structure.
 */
export type TypeShape = string | TypeShape[] | { [key: string]: TypeShape };

/** Marks objects that are PackValues, so that a scripted map such as {type: "x"} is never mistaken for one. */
const BRAND = Symbol("PackValue");

function mk(v: PackValue): PackValue {
  Object.defineProperty(v, BRAND, { value: true, enumerable: false });
  return v;
}

function isPackValue(v: unknown): v is PackValue {
  return typeof v === "object" && v !== null && (v as { [BRAND]?: boolean })[BRAND] === true;
}

/** A PackStream Integer (bigint, or a JS integer that is exact); throws outside the signed 64-bit range. */
export function int(v: bigint | number): PackValue {
  const value = typeof v === "bigint" ? v : BigInt(v);
  if (value < -(2n ** 63n) || value >= 2n ** 63n) throw new RangeError(`${value} is outside the 64-bit Integer range`);
  return mk({ type: "Integer", value });
}

/** A PackStream Float (64-bit). */
export function float(v: number): PackValue {
  return mk({ type: "Float", value: v });
}

/** A PackStream Structure (tag byte and fields): a Bolt message, or e.g. a Node (0x4E) in a scripted record. */
export function struct(tag: number, fields: unknown[]): PackValue {
  return mk({ type: "Structure", tag, fields: fields.map(fromJs) });
}

/**
 * A JS value as a PackValue: null/undefined → Null, boolean, bigint and integral numbers → Integer, other numbers →
 * Float (use {@link float} to force one), string, Uint8Array → Bytes, arrays → List, plain objects → Map; a
 * PackValue passes through unchanged.
 */
export function fromJs(v: unknown): PackValue {
  if (v === null || v === undefined) return mk({ type: "Null" });
  if (isPackValue(v)) return v;
  if (typeof v === "boolean") return mk({ type: "Boolean", value: v });
  if (typeof v === "bigint") return int(v);
  if (typeof v === "number") return Number.isInteger(v) ? int(v) : float(v);
  if (typeof v === "string") return mk({ type: "String", value: v });
  if (v instanceof Uint8Array) return mk({ type: "Bytes", value: v });
  if (Array.isArray(v)) return mk({ type: "List", items: v.map(fromJs) });
  if (typeof v === "object") return mk({ type: "Map", entries: Object.entries(v).map(([k, x]) => [k, fromJs(x)]) });
  throw new TypeError(`cannot encode a ${typeof v} in PackStream`);
}

/** The plain JS form: Integer → bigint, Map → object, List → array, Structure → {tag, fields}. */
export function toJs(v: PackValue): unknown {
  switch (v.type) {
    case "Null":
      return null;
    case "List":
      return v.items.map(toJs);
    case "Map":
      return Object.fromEntries(v.entries.map(([k, x]) => [k, toJs(x)]));
    case "Structure":
      return { tag: v.tag, fields: v.fields.map(toJs) };
    default:
      return v.value;
  }
}

/** The wire-type shape of a value (see {@link TypeShape}). */
export function shapeOf(v: PackValue): TypeShape {
  switch (v.type) {
    case "List":
      return v.items.map(shapeOf);
    case "Map":
      return Object.fromEntries(v.entries.map(([k, x]) => [k, shapeOf(x)]));
    case "Structure":
      return { struct: `0x${v.tag.toString(16).padStart(2, "0")}`, fields: v.fields.map(shapeOf) };
    default:
      return v.type;
  }
}

type Sized = "Bytes" | "String" | "List" | "Map";
/** Tiny containers: high nibble → kind (size in the low nibble). */
const TINY: Record<number, Sized | "Structure"> = { 128: "String", 144: "List", 160: "Map", 176: "Structure" };
/** Sized containers: marker → kind and width of the big-endian size that follows. */
const SIZED: Record<number, [Sized, 1 | 2 | 4]> = {
  204: ["Bytes", 1],
  205: ["Bytes", 2],
  206: ["Bytes", 4],
  208: ["String", 1],
  209: ["String", 2],
  210: ["String", 4],
  212: ["List", 1],
  213: ["List", 2],
  214: ["List", 4],
  216: ["Map", 1],
  217: ["Map", 2],
  218: ["Map", 4],
};

/** Reads PackStream values from one message's bytes; throws RangeError on truncated input or unknown markers. */
export class PackReader {
  private pos = 0;
  private readonly view: DataView;

  constructor(private readonly bytes: Uint8Array) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  private need(n: number): number {
    if (this.pos + n > this.bytes.length) throw new RangeError(`PackStream value truncated at byte ${this.pos}`);
    this.pos += n;
    return this.pos - n;
  }

  private len(width: 1 | 2 | 4): number {
    const at = this.need(width);
    return width === 1 ? this.view.getUint8(at) : width === 2 ? this.view.getUint16(at) : this.view.getUint32(at);
  }

  private container(kind: Sized | "Structure", n: number): PackValue {
    if (kind === "Bytes" || kind === "String") {
      const at = this.need(n);
      const raw = this.bytes.slice(at, at + n);
      return mk(
        kind === "Bytes"
          ? { type: kind, value: raw }
          : { type: kind, value: new TextDecoder("utf-8", { fatal: true }).decode(raw) },
      );
    }
    const tag = kind === "Structure" ? this.view.getUint8(this.need(1)) : 0;
    const items: PackValue[] = [];
    for (let i = 0; i < n * (kind === "Map" ? 2 : 1); i++) items.push(this.read());
    if (kind === "List") return mk({ type: kind, items });
    if (kind === "Structure") return mk({ type: kind, tag, fields: items });
    const entries: [string, PackValue][] = [];
    for (let i = 0; i < items.length; i += 2) {
      const key = items[i];
      if (key.type !== "String") throw new RangeError(`PackStream map key is a ${key.type}, not a String`);
      entries.push([key.value, items[i + 1]]);
    }
    return mk({ type: kind, entries });
  }

  /** Reads the next value. */
  read(): PackValue {
    const m = this.view.getUint8(this.need(1));
    if (m <= 0x7f || m >= 0xf0) return int(m <= 0x7f ? m : m - 0x100);
    const tiny = TINY[m & 0xf0];
    if (tiny) return this.container(tiny, m & 0x0f);
    const sized = SIZED[m];
    if (sized) return this.container(sized[0], this.len(sized[1]));
    switch (m) {
      case 0xc0:
        return mk({ type: "Null" });
      case 0xc1:
        return float(this.view.getFloat64(this.need(8)));
      case 0xc2:
      case 0xc3:
        return mk({ type: "Boolean", value: m === 0xc3 });
      case 0xc8:
        return int(this.view.getInt8(this.need(1)));
      case 0xc9:
        return int(this.view.getInt16(this.need(2)));
      case 0xca:
        return int(this.view.getInt32(this.need(4)));
      case 0xcb:
        return int(this.view.getBigInt64(this.need(8)));
      default:
        throw new RangeError(`unknown PackStream marker 0x${m.toString(16)}`);
    }
  }
}

/** Writes PackStream values, choosing the smallest encoding of each. */
export class PackWriter {
  private readonly parts: number[] = [];

  private bytes(...b: number[]): void {
    for (const x of b) this.parts.push(x & 0xff);
  }

  private sized(n: number, tiny: number | null, m8: number, m16: number, m32: number): void {
    if (tiny !== null && n < 16) this.bytes(tiny | n);
    else if (n < 0x100) this.bytes(m8, n);
    else if (n < 0x10000) this.bytes(m16, n >> 8, n);
    else this.bytes(m32, n >>> 24, n >>> 16, n >>> 8, n);
  }

  private integer(v: bigint) {
    if (v >= -16n && v < 128n) return this.bytes(Number(v));
    const b = new DataView(new ArrayBuffer(8));
    if (v >= -128n && v < 128n) return this.bytes(0xc8, Number(v));
    if (v >= -32768n && v < 32768n) {
      b.setInt16(0, Number(v));
      return this.bytes(0xc9, ...new Uint8Array(b.buffer, 0, 2));
    }
    if (v >= -(2n ** 31n) && v < 2n ** 31n) {
      b.setInt32(0, Number(v));
      return this.bytes(0xca, ...new Uint8Array(b.buffer, 0, 4));
    }
    b.setBigInt64(0, v);
    this.bytes(0xcb, ...new Uint8Array(b.buffer));
  }

  /** Appends a value (see {@link fromJs} for JS values). */
  write(value: unknown): this {
    const v = fromJs(value);
    switch (v.type) {
      case "Null":
        this.bytes(0xc0);
        break;
      case "Boolean":
        this.bytes(v.value ? 0xc3 : 0xc2);
        break;
      case "Integer":
        this.integer(v.value);
        break;
      case "Float": {
        const b = new DataView(new ArrayBuffer(8));
        b.setFloat64(0, v.value);
        this.bytes(0xc1, ...new Uint8Array(b.buffer));
        break;
      }
      case "Bytes":
        this.sized(v.value.length, null, 0xcc, 0xcd, 0xce);
        this.bytes(...v.value);
        break;
      case "String": {
        const u = new TextEncoder().encode(v.value);
        this.sized(u.length, 0x80, 0xd0, 0xd1, 0xd2);
        this.bytes(...u);
        break;
      }
      case "List":
        this.sized(v.items.length, 0x90, 0xd4, 0xd5, 0xd6);
        for (const x of v.items) this.write(x);
        break;
      case "Map":
        this.sized(v.entries.length, 0xa0, 0xd8, 0xd9, 0xda);
        for (const [k, x] of v.entries) this.write(k).write(x);
        break;
      case "Structure":
        this.bytes(0xb0 | v.fields.length, v.tag);
        for (const x of v.fields) this.write(x);
        break;
    }
    return this;
  }

  /** The bytes written so far. */
  finish = (): Uint8Array => Uint8Array.from(this.parts);
}

/** One Bolt message as chunks (≤ 65 535 bytes each, 2-byte big-endian size) followed by the 00 00 end marker. */
export function chunkMessage(body: Uint8Array): Uint8Array {
  const out: number[] = [];
  for (let at = 0; at < body.length; at += 0xffff) {
    const part = body.subarray(at, Math.min(body.length, at + 0xffff));
    out.push(part.length >> 8, part.length & 0xff, ...part);
  }
  out.push(0, 0);
  return Uint8Array.from(out);
}

/**
 * Reassembles chunked messages from a byte stream: feed it what the socket delivers, it returns every message
 * completed so far. An empty message (a lone 00 00, Bolt's NOOP keep-alive) is skipped.
 */
export class Dechunker {
  private pending = new Uint8Array(0);
  private message: number[] = [];

  /** Adds received bytes; returns the whole messages they complete. */
  push(data: Uint8Array): Uint8Array[] {
    const buf = new Uint8Array(this.pending.length + data.length);
    buf.set(this.pending);
    buf.set(data, this.pending.length);
    const done: Uint8Array[] = [];
    let at = 0;
    while (at + 2 <= buf.length) {
      const size = (buf[at] << 8) | buf[at + 1];
      if (size === 0) {
        if (this.message.length > 0) done.push(Uint8Array.from(this.message));
        this.message = [];
        at += 2;
        continue;
      }
      if (at + 2 + size > buf.length) break;
      for (const b of buf.subarray(at + 2, at + 2 + size)) this.message.push(b);
      at += 2 + size;
    }
    this.pending = buf.slice(at);
    return done;
  }
}

/** The server's answer to the 20 opening bytes: bytes to send, the version agreed (null: none, or manifest follows). */
export type Negotiation = { reply: Uint8Array; version: string | null; manifest: boolean };

/**
 * Answers the handshake (magic 0x6060B017, then four proposals [0, range, minor, major], best first): the first
 * proposed version in `supported` ("major.minor"), or 00 00 00 00 when none fits. With `manifest` and a 255.1
 * proposal it answers manifest v1 instead: 00 00 01 FF, a varint count, each supported version, varint capabilities 0.
 * @throws Error when the magic is missing.
 */
export function handshakeReply(first20: Uint8Array, supported: string[], manifest: boolean): Negotiation {
  if (new DataView(first20.buffer, first20.byteOffset, 4).getUint32(0) !== 0x6060b017) {
    throw new Error("not a Bolt handshake: the magic 0x6060B017 is missing");
  }
  const offers = [1, 2, 3, 4].map((i) => ({
    range: first20[i * 4 + 1],
    minor: first20[i * 4 + 2],
    major: first20[i * 4 + 3],
  }));
  if (manifest && offers.some((o) => o.major === 0xff && o.minor === 1)) {
    const vs = supported.map((v) => v.split(".").map(Number));
    return {
      reply: Uint8Array.of(0, 0, 1, 0xff, vs.length, ...vs.flatMap(([ma, mi]) => [0, 0, mi, ma]), 0),
      version: null,
      manifest: true,
    };
  }
  for (const o of offers) {
    for (let m = o.minor; m >= Math.max(0, o.minor - o.range); m--) {
      if (o.major !== 0xff && supported.includes(`${o.major}.${m}`)) {
        return { reply: Uint8Array.of(0, 0, m, o.major), version: `${o.major}.${m}`, manifest: false };
      }
    }
  }
  return { reply: Uint8Array.of(0, 0, 0, 0), version: null, manifest: false };
}

/** The client's pick after a manifest (4 version bytes, then varint capabilities), or null until it is complete. */
export function parseClientPick(buf: Uint8Array): { version: string; length: number } | null {
  let at = 4;
  while (at < buf.length && buf[at] & 0x80) at++;
  if (at >= buf.length) return null;
  return { version: `${buf[3]}.${buf[2]}`, length: at + 1 };
}
