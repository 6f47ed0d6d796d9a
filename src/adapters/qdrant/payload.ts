/**
 * How an atom looks in Qdrant: its payload `{atom_id, type, status, doc_id, confidence, lang}`, the payload
 * indexes that make filters fast, and the translation of an {@link AtomFilter} into a Qdrant filter (OpenAPI
 * `Filter`: `must` / `must_not` of `FieldCondition` with `match.any` / `match.value`).
 */
import type { Schemas } from "@qdrant/js-client-rest";
import type { AtomFilter } from "../../domain/atom.ts";
import { PegasError } from "../../errors.ts";
import type { AtomPayload, VectorPoint } from "../../ports/projections/vector-index.ts";
import { pointIdOf } from "./ids.ts";

/** Payload indexes the adapter keeps on its collection: field → Qdrant `PayloadSchemaType`. */
export const PAYLOAD_INDEXES: ReadonlyArray<readonly [string, Schemas["PayloadSchemaType"]]> = [
  ["atom_id", "integer"],
  ["type", "keyword"],
  ["status", "keyword"],
  ["doc_id", "integer"],
  ["lang", "keyword"],
  ["confidence", "float"],
];

/**
 * Qdrant payload of an atom. Without a payload only `atom_id` is stored: such a point is found by unfiltered
 * searches and never by a type, status or document filter.
 */
export function payloadOf(atomId: number, p: AtomPayload | undefined): Record<string, unknown> {
  if (!p) return { atom_id: atomId };
  return { atom_id: atomId, type: p.type, status: p.status, doc_id: p.docId, confidence: p.confidence, lang: p.lang };
}

/** Qdrant `PointStruct` of a point: UUID id (see {@link pointIdOf}), the vector as a number array, the payload. */
export function pointStructOf(p: VectorPoint): Schemas["PointStruct"] {
  return { id: pointIdOf(p.atomId), vector: Array.from(p.vector), payload: payloadOf(p.atomId, p.payload) };
}

/** Never-returned status: a condition every search carries in `must_not`. */
const NOT_RETRACTED: Schemas["FieldCondition"] = { key: "status", match: { value: "retracted" } };

/**
 * Qdrant filter of an atom filter: each non-empty list becomes `{key, match: {any}}` in `must`, and `status =
 * retracted` is always in `must_not`. Returns null when the filter can match nothing (only `retracted` asked for).
 */
export function qdrantFilterOf(filter: AtomFilter = {}): Schemas["Filter"] | null {
  const must: Schemas["FieldCondition"][] = [];
  if (filter.types?.length) must.push({ key: "type", match: { any: [...filter.types] } });
  if (filter.status?.length) {
    const statuses = filter.status.filter((s) => s !== "retracted");
    if (statuses.length === 0) return null;
    must.push({ key: "status", match: { any: statuses } });
  }
  if (filter.docIds?.length) must.push({ key: "doc_id", match: { any: [...filter.docIds] } });
  return must.length ? { must, must_not: [NOT_RETRACTED] } : { must_not: [NOT_RETRACTED] };
}

/**
 * Refuses vectors that Qdrant cannot hold for this index: another dimension, or a component that is not finite
 * (JSON has no NaN). @throws PegasError INVALID_INPUT naming the atom, the dimensions and the index.
 */
export function checkVector(v: Float32Array, dim: number, what: string, index: string): void {
  if (v.length !== dim) {
    throw new PegasError(
      "INVALID_INPUT",
      `${what} has dimension ${v.length}, but index '${index}' holds dimension ${dim}`,
      {
        hint: "embed with the index's model, or configure a collection for the new model and run `pegas-memory reembed`",
      },
    );
  }
  for (let i = 0; i < v.length; i++) {
    if (!Number.isFinite(v[i])) {
      throw new PegasError("INVALID_INPUT", `${what} has a non-finite component at ${i} (${v[i]})`, {
        hint: "re-embed the atom; a model that returns NaN vectors is failing",
      });
    }
  }
}
