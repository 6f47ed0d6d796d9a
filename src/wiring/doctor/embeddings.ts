/**
 * Doctor's view of embeddings: how the stored vectors (pm_atom_embedding) fit the model the configuration makes
 * active (activeEmbedding in src/wiring/models.ts, read without loading it).
 */
import type { Database } from "../../adapters/sql/database.ts";
import type { ActiveEmbedding } from "../models.ts";
import { check, type DoctorCheck } from "./check.ts";

/**
 * Stored embeddings per (model, dim), and atoms without a vector of `model`: every atom counts, retracted ones too
 * (`forget --undo` brings them back to search; the import's backfill embeds them).
 */
async function readEmbeddings(
  db: Database,
  model: string,
): Promise<{ stored: Array<{ model: string; dim: number; n: number }>; missing: number; atoms: number }> {
  return db.run(async (sql) => {
    const stored =
      await sql`SELECT model, dim, count(*) AS n FROM pm_atom_embedding GROUP BY model, dim ORDER BY model, dim`;
    const [m] = await sql`
      SELECT count(*) AS atoms,
             count(*) FILTER (WHERE NOT EXISTS (SELECT 1 FROM pm_atom_embedding e WHERE e.atom_id = a.id AND e.model = ${model})) AS missing
        FROM pm_atom a`;
    return {
      stored: stored.map((r) => ({ model: String(r.model), dim: Number(r.dim), n: Number(r.n) })),
      missing: Number(m.missing),
      atoms: Number(m.atoms),
    };
  });
}

/**
 * The `embeddings` check: fail when vectors stored under the active model have another dimension (the model or
 * embed_dim changed under the same name); warn when atoms lack a vector of the active model; ok otherwise.
 * @throws what the database throws (the caller turns it into a failed check).
 */
export async function checkEmbeddings(db: Database, active: ActiveEmbedding): Promise<DoctorCheck> {
  const { stored, missing, atoms } = await readEmbeddings(db, active.model);
  const listed = stored.length ? stored.map((s) => `${s.model} (dim ${s.dim}) × ${s.n}`).join(", ") : "none";
  const detail = `active model ${active.model} (${active.kind}, dim ${active.dim}): ${atoms - missing} of ${atoms} atom(s) embedded (retracted ones included); stored: ${listed}`;
  const wrongDim = stored.filter((s) => s.model === active.model && s.dim !== active.dim);
  if (wrongDim.length) {
    const dims = wrongDim.map((s) => `${s.n} of dimension ${s.dim}`).join(", ");
    return check(
      "embeddings",
      "fail",
      `${detail}; ${dims} stored under the active model, which is configured for dimension ${active.dim}`,
      {
        hint: `set embed_dim (PEGAS_EMBED_DIM) to the model's real dimension, or embed under another model name with \`pegas-memory reembed --model M --dim N\``,
      },
    );
  }
  if (missing > 0) {
    return check(
      "embeddings",
      "warn",
      `${detail}; ${missing} atom(s) have no vector of the active model and are found by words only`,
      {
        hint: "run `pegas-memory rebuild vector` (`serve` embeds the missing live atoms in the background at start, retracted ones only as they are restored)",
      },
    );
  }
  return check("embeddings", "ok", detail);
}
