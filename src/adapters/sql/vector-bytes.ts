/** Canonical embedding encoding: little-endian IEEE-754 float32, 4·dim bytes (`pm_atom_embedding.vector`). */

/** Encodes a vector as little-endian float32 bytes. */
export function vectorToBytes(v: Float32Array): Buffer {
  const out = Buffer.allocUnsafe(v.length * 4);
  for (let i = 0; i < v.length; i++) out.writeFloatLE(v[i], i * 4);
  return out;
}

/** Decodes little-endian float32 bytes into a new Float32Array. @throws Error when the length is not a multiple of 4. */
export function bytesToVector(b: Uint8Array): Float32Array {
  if (b.byteLength % 4 !== 0) throw new Error(`embedding of ${b.byteLength} bytes is not float32`);
  const view = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const out = new Float32Array(b.byteLength / 4);
  for (let i = 0; i < out.length; i++) out[i] = view.getFloat32(i * 4, true);
  return out;
}
