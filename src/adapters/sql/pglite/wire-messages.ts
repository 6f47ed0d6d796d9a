/**
 * Framing of the PostgreSQL frontend/backend protocol v3, as far as the wire server needs it: find message
 * boundaries, recognise the startup-phase packets, and build the few messages it sends on a client's behalf.
 */

/** Startup-phase request code (the int32 after the length) of SSLRequest: answered 'N'. */
export const SSL_REQUEST = 80877103;
/** GSSENCRequest code: answered 'N' (no GSSAPI encryption). */
export const GSSENC_REQUEST = 80877104;
/** CancelRequest code: not supported (PGlite runs one statement at a time); the connection is closed. */
export const CANCEL_REQUEST = 80877102;
/** StartupMessage protocol version 3.0 (major 3 << 16). */
export const PROTOCOL_3 = 196608;

/** Message type bytes that matter for grouping and bookkeeping. */
export const MSG = {
  sync: 0x53, // 'S'
  query: 0x51, // 'Q'
  flush: 0x48, // 'H'
  terminate: 0x58, // 'X'
  parse: 0x50, // 'P'
  close: 0x43, // 'C'
} as const;

/** Largest message accepted, in bytes (PostgreSQL's own limit for most messages is 1 GiB). */
const MAX_MESSAGE = 1 << 30;

/** A client broke the protocol; the connection must be dropped. */
export class ProtocolError extends Error {
  override name = "ProtocolError";
}

/**
 * Length in bytes of the startup-phase packet at the head of `buf` (int32 length, int32 code, body), or 0 when it
 * has not fully arrived.
 * @throws ProtocolError when the length is impossible.
 */
export function startupPacketLength(buf: Buffer): number {
  if (buf.length < 8) return 0;
  const len = buf.readInt32BE(0);
  if (len < 8 || len > 10_000) throw new ProtocolError(`bad startup packet length ${len}`);
  return buf.length >= len ? len : 0;
}

/**
 * Length in bytes of the regular message at the head of `buf` (type byte, int32 length counting itself, body), or
 * 0 when it has not fully arrived.
 * @throws ProtocolError when the length is impossible or the type byte is 0 (a startup packet after startup).
 */
export function messageLength(buf: Buffer): number {
  if (buf.length < 5) return 0;
  if (buf[0] === 0) throw new ProtocolError("startup packet after startup");
  const len = buf.readInt32BE(1);
  if (len < 4 || len > MAX_MESSAGE) throw new ProtocolError(`bad message length ${len}`);
  return buf.length >= len + 1 ? len + 1 : 0;
}

/** The parameters (name → value) of a StartupMessage: NUL-terminated pairs after the length and the version. */
export function startupParameters(msg: Buffer): Map<string, string> {
  const params = new Map<string, string>();
  const parts = msg.toString("utf8", 8).split("\0");
  for (let i = 0; i + 1 < parts.length && parts[i]; i += 2) params.set(parts[i]!, parts[i + 1]!);
  return params;
}

/** Name of the prepared statement a Parse message creates ("" for the unnamed one). */
export function parsedStatementName(msg: Buffer): string {
  const end = msg.indexOf(0, 5);
  return end < 0 ? "" : msg.toString("utf8", 5, end);
}

/** Name of the prepared statement a Close message drops, or null when it closes a portal. */
export function closedStatementName(msg: Buffer): string | null {
  if (msg.length < 7 || msg[5] !== 0x53) return null;
  const end = msg.indexOf(0, 6);
  return end < 0 ? null : msg.toString("utf8", 6, end);
}

/** A Sync message. */
export function syncMessage(): Buffer {
  return Buffer.from([MSG.sync, 0, 0, 0, 4]);
}

/** A simple-protocol Query message for `sql`. */
export function queryMessage(sql: string): Buffer {
  const body = Buffer.from(`${sql}\0`, "utf8");
  const head = Buffer.alloc(5);
  head[0] = MSG.query;
  head.writeInt32BE(body.length + 4, 1);
  return Buffer.concat([head, body]);
}

/** A Close message that drops the prepared statement `name`. */
export function closeStatementMessage(name: string): Buffer {
  const body = Buffer.from(`S${name}\0`, "utf8");
  const head = Buffer.alloc(5);
  head[0] = MSG.close;
  head.writeInt32BE(body.length + 4, 1);
  return Buffer.concat([head, body]);
}
