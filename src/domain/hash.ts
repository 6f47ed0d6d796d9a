/** Content hashing and feature hashing primitives. */
import { createHash } from "node:crypto";

/** SHA-256 of a UTF-8 string or bytes, lower-case hex (64 chars). */
export function sha256Hex(data: string | Uint8Array): string {
  return createHash("sha256").update(data).digest("hex");
}

/**
 * 32-bit FNV-1a over the UTF-16 code units of `s`, seeded; used for feature hashing (Fowler–Noll–Vo,
 * IETF draft-eastlake-fnv). Returns an unsigned 32-bit integer.
 */
export function fnv1a32(s: string, seed = 0x811c9dc5): number {
  let h = seed >>> 0;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  // Final avalanche (murmur3 fmix32) so that low bits are usable as bucket indexes.
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}
