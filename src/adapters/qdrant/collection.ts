/**
 * Readies the adapter's Qdrant collection: reads it (`GET /collections/{name}`), creates it when absent (`PUT
 * /collections/{name}` with one unnamed Cosine vector of the model's dimension), refuses it when its vectors do not
 * fit, and adds the missing payload indexes (`PUT /collections/{name}/index`, wait=true).
 */
import type { QdrantClient, Schemas } from "@qdrant/js-client-rest";
import { PegasError } from "../../errors.ts";
import { log } from "../../log.ts";
import { defaultCollectionName } from "./ids.ts";
import { httpStatusOf } from "./failures.ts";
import { PAYLOAD_INDEXES } from "./payload.ts";

/** What the collection must hold: its name, the model and dimension of the index, the server URL (for messages). */
export interface CollectionSpec {
  url: string;
  collection: string;
  model: string;
  dim: number;
}

/** The collection's info, or null when Qdrant answers 404 (no such collection). */
export async function readCollection(client: QdrantClient, name: string): Promise<Schemas["CollectionInfo"] | null> {
  try {
    return await client.getCollection(name);
  } catch (err) {
    if (httpStatusOf(err) === 404) return null;
    throw err;
  }
}

function mismatch(spec: CollectionSpec, what: string): PegasError {
  const other = defaultCollectionName(spec.model, spec.dim);
  const instead = other === spec.collection ? "another collection name" : `another collection, e.g. '${other}'`;
  return new PegasError(
    "INVALID_INPUT",
    `Qdrant collection '${spec.collection}' at ${spec.url} ${what}, but the embedder '${spec.model}' needs one unnamed vector of dimension ${spec.dim} with Cosine distance`,
    {
      hint: `set qdrant_collection / QDRANT_COLLECTION to ${instead}, or rebuild this one for the current model with \`pegas-memory reembed\`; nothing was written to it`,
    },
  );
}

/**
 * Checks the collection's vector parameters against the spec.
 * @throws PegasError INVALID_INPUT naming the collection, both dimensions (or the distance, or the vector names)
 * and the fix, when the collection holds named vectors, another dimension or a non-Cosine distance.
 */
export function checkCollectionShape(info: Schemas["CollectionInfo"], spec: CollectionSpec): void {
  const vectors = info.config?.params?.vectors as Record<string, unknown> | undefined;
  if (!vectors || typeof vectors !== "object") throw mismatch(spec, "has no dense vectors");
  if (typeof vectors.size !== "number") {
    const names = Object.keys(vectors)
      .map((n) => `'${n}'`)
      .join(", ");
    throw mismatch(spec, `holds named vectors (${names || "none"})`);
  }
  if (vectors.size !== spec.dim) throw mismatch(spec, `holds vectors of dimension ${vectors.size}`);
  if (vectors.distance !== "Cosine") throw mismatch(spec, `uses distance '${String(vectors.distance)}'`);
}

/** Creates the collection; a 409 (another process created it first) is success. Returns whether it created it. */
async function createCollection(client: QdrantClient, spec: CollectionSpec): Promise<boolean> {
  try {
    await client.createCollection(spec.collection, { vectors: { size: spec.dim, distance: "Cosine" } });
    return true;
  } catch (err) {
    if (httpStatusOf(err) === 409) return false;
    throw err;
  }
}

/** Adds each payload index of {@link PAYLOAD_INDEXES} that is missing or of another type. */
async function ensurePayloadIndexes(
  client: QdrantClient,
  name: string,
  schema: Schemas["CollectionInfo"]["payload_schema"],
): Promise<void> {
  for (const [field, type] of PAYLOAD_INDEXES) {
    if (schema[field]?.data_type === type) continue;
    await client.createPayloadIndex(name, { field_name: field, field_schema: type, wait: true });
  }
}

/**
 * Makes the collection ready for the spec: creates it and its payload indexes when absent, checks it when present
 * (writing nothing to a collection that does not fit). Errors of the client propagate unchanged for the caller to
 * map. @throws PegasError INVALID_INPUT on a shape mismatch (see {@link checkCollectionShape}).
 */
export async function ensureCollection(client: QdrantClient, spec: CollectionSpec): Promise<void> {
  let info = await readCollection(client, spec.collection);
  if (info === null) {
    const created = await createCollection(client, spec);
    if (created)
      log.info("created Qdrant collection", {
        url: spec.url,
        collection: spec.collection,
        dim: spec.dim,
        model: spec.model,
      });
    info = await readCollection(client, spec.collection);
    if (info === null) {
      throw new PegasError(
        "INDEX_UNAVAILABLE",
        `Qdrant collection '${spec.collection}' at ${spec.url} vanished right after it was created`,
        {
          hint: "another process may be deleting it (a rebuild?); retry",
        },
      );
    }
  }
  checkCollectionShape(info, spec);
  await ensurePayloadIndexes(client, spec.collection, info.payload_schema ?? {});
}
