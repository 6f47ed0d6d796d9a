/**
 * Names and ids of what pegas-memory keeps in Qdrant: the default collection name of an embedding model, and the
 * point id of an atom. Qdrant accepts only unsigned integers or UUIDs as point ids (OpenAPI `ExtendedPointId`);
 * atom ids are derived as name-based UUIDs so that every process, and every rebuild, gives an atom the same point.
 */
import { createHash } from "node:crypto";

/**
 * Namespace UUID of pegas-memory atom points (a random v4 UUID fixed once, in 2025). Changing it orphans every
 * point already written: all collections would then need `pegas-memory rebuild`.
 */
export const ATOM_POINT_NAMESPACE = "63a18a7a-d10f-441a-af34-8ce6da01eeeb";

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Name-based UUID version 5 (RFC 9562 §5.5): SHA-1 over the namespace's 16 bytes and the UTF-8 name, first 16
 * bytes kept, version nibble 5, variant bits 10. Returns the lower-case hyphenated form (36 characters).
 * @throws TypeError when `namespace` is not a hyphenated UUID.
 */
export function uuidV5(name: string, namespace: string): string {
  if (!UUID_RE.test(namespace)) throw new TypeError(`namespace '${namespace}' is not a UUID`);
  const ns = Buffer.from(namespace.replaceAll("-", ""), "hex");
  const bytes = createHash("sha1").update(ns).update(name, "utf8").digest().subarray(0, 16);
  bytes[6] = (bytes[6] & 0x0f) | 0x50;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = bytes.toString("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * Qdrant point id of an atom: `uuidV5("atom:<id>", ATOM_POINT_NAMESPACE)`, stable across processes and rebuilds,
 * distinct per atom id. @throws TypeError when `atomId` is not a non-negative safe integer.
 */
export function pointIdOf(atomId: number): string {
  if (!Number.isSafeInteger(atomId) || atomId < 0)
    throw new TypeError(`atom id ${atomId} is not a non-negative integer`);
  return uuidV5(`atom:${atomId}`, ATOM_POINT_NAMESPACE);
}

/** Longest model slug kept whole in a collection name; longer ones are cut and suffixed with a hash. */
const MAX_SLUG = 120;

/**
 * Default collection of an embedding model: `pegas_atoms_<model slug>_<dim>`, only `[a-z0-9_]` (the model name
 * lower-cased, every other character run folded to `_`), e.g. `embeddinggemma-2-740m-Q8_0`, 768 →
 * `pegas_atoms_embeddinggemma_2_740m_q8_0_768`. A slug longer than 120 characters is cut and given an 8-hex
 * SHA-1 suffix of the model name, so the name stays far below Qdrant's 255-character limit; a model name with no
 * ASCII letter or digit becomes `model_<8 hex>`.
 * @throws TypeError when `dim` is not a positive integer.
 */
export function defaultCollectionName(model: string, dim: number): string {
  if (!Number.isSafeInteger(dim) || dim <= 0) throw new TypeError(`dimension ${dim} is not a positive integer`);
  const tag = () => createHash("sha1").update(model, "utf8").digest("hex").slice(0, 8);
  let slug = model
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "_")
    .replace(/^_+|_+$/g, "");
  if (slug === "") slug = `model_${tag()}`;
  else if (slug.length > MAX_SLUG) slug = `${slug.slice(0, MAX_SLUG - 9)}_${tag()}`;
  return `pegas_atoms_${slug}_${dim}`;
}
