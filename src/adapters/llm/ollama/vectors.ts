/** Checking and normalizing vectors as they arrive in Ollama's JSON, before anything else sees them. */
import { l2normalize, vectorProblem } from "../../../ports/models/embedder.ts";

/**
 * Converts one vector from an Ollama response into a unit-norm Float32Array of `dim` components, or returns the
 * reason it is unusable. Components are checked after the float32 conversion, so values that overflow to
 * Infinity or underflow to an all-zero vector are caught too; `null` components are reported as such (JSON has no
 * NaN or Infinity, and JSON.stringify writes them as null).
 */
export function toUnitVector(raw: unknown, dim: number): Float32Array | string {
  if (!Array.isArray(raw)) return `not an array of numbers but ${raw === null ? "null" : typeof raw}`;
  if (raw.length !== dim) return `dimension ${raw.length}, expected ${dim}`;
  for (let i = 0; i < raw.length; i++) {
    if (typeof raw[i] !== "number") return `component ${i} is ${JSON.stringify(raw[i]) ?? typeof raw[i]}`;
  }
  const v = Float32Array.from(raw as number[]);
  return vectorProblem(v, dim) ?? l2normalize(v);
}

/** The first half of `text` in code points (rounded up); never splits a surrogate pair. */
export function firstHalf(text: string): string {
  const cps = Array.from(text);
  return cps.slice(0, Math.ceil(cps.length / 2)).join("");
}
