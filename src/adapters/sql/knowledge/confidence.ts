/**
 * ConfidenceReads over SQL (PostgreSQL and PGlite alike): one query per call for the atoms' own facts and one for
 * their evidence documents (their own document and the active documents citing them), grouped into sites by
 * domain/evidence.ts. Driver errors become PegasError.
 */
import type { ConfidenceFacts, ConfidenceSource } from "../../../domain/confidence/model.ts";
import type { AtomStatus } from "../../../domain/atom.ts";
import { siteOf } from "../../../domain/evidence.ts";
import type { ConfidenceReads } from "../../../ports/store/confidence.ts";
import type { Database } from "../database.ts";
import { guard } from "../errors.ts";

const LIVE = ["candidate", "verified", "contested"];
const DAY_MS = 86_400_000;

/** {@link ConfidenceReads} over the canonical tables. */
export class SqlConfidenceReads implements ConfidenceReads {
  constructor(private readonly db: Database) {}

  confidenceFacts(ids: readonly number[], now = new Date()): Promise<Map<number, ConfidenceFacts>> {
    const list = [...new Set(ids)].filter((id) => Number.isSafeInteger(id) && id > 0).slice(0, 1000);
    if (!list.length) return Promise.resolve(new Map());
    return guard(this.db, "read the confidence facts of atoms", async (sql) => {
      const atoms = await sql`
        SELECT a.id, a.status, a.confidence, COALESCE(a.observed_at, a.created_at) AS said_at,
               CASE WHEN jsonb_typeof(a.metadata->'confidence_prior') = 'number'
                    THEN (a.metadata->>'confidence_prior')::real END AS prior,
               EXISTS (SELECT 1 FROM pm_atom_check k WHERE k.atom_id = a.id) AS checked,
               (SELECT count(*) FROM pm_atom_link l JOIN pm_atom o
                   ON o.id = CASE WHEN l.src_atom_id = a.id THEN l.dst_atom_id ELSE l.src_atom_id END
                 WHERE l.kind = 'contradicts' AND (l.src_atom_id = a.id OR l.dst_atom_id = a.id)
                   AND o.status = ANY(${LIVE}::text[])) AS contradictions,
               (SELECT count(*) FROM pm_atom_link l JOIN pm_atom o ON o.id = l.src_atom_id
                 WHERE l.kind = 'supersedes' AND l.dst_atom_id = a.id AND o.status = ANY(${LIVE}::text[])) AS superseded_by,
               (SELECT count(*) FROM pm_atom_link l
                 WHERE l.inferred AND l.kind <> 'contradicts' AND (l.src_atom_id = a.id OR l.dst_atom_id = a.id)) AS inferred,
               (SELECT h.reason FROM pm_atom_status_change h WHERE h.atom_id = a.id AND h.to_status = 'stale'
                 ORDER BY h.id DESC LIMIT 1) AS stale_reason,
               EXISTS (SELECT 1 FROM pm_atom_merge m WHERE m.absorbed_atom_id = a.id AND m.undone_at IS NULL) AS merged
          FROM pm_atom a WHERE a.id = ANY(${list}::bigint[])`;
      const docs = await sql`
        SELECT x.atom_id, d.id, d.uri, d.authority, d.gone_at, GREATEST(d.checked_at, d.updated_at) AS seen_at
          FROM (SELECT a.id AS atom_id, a.doc_id FROM pm_atom a WHERE a.id = ANY(${list}::bigint[]) AND a.doc_id IS NOT NULL
                UNION SELECT c.atom_id, c.doc_id FROM pm_citation c WHERE c.atom_id = ANY(${list}::bigint[])) x
          JOIN pm_document d ON d.id = x.doc_id AND d.status = 'active'`;
      const sources = new Map<number, ConfidenceSource[]>();
      for (const d of docs) {
        const uri = String(d.uri);
        const web = /^https?:/i.test(uri);
        const seen = d.seen_at ? new Date(d.seen_at as string).getTime() : now.getTime();
        const s: ConfidenceSource = {
          site: siteOf({ docId: Number(d.id), uri }),
          authority: Number(d.authority),
          gone: d.gone_at !== null,
          uncheckedDays: web ? Math.max(0, (now.getTime() - seen) / DAY_MS) : null,
        };
        const key = Number(d.atom_id);
        (sources.get(key) ?? sources.set(key, []).get(key)!).push(s);
      }
      const out = new Map<number, ConfidenceFacts>();
      for (const r of atoms) {
        const id = Number(r.id);
        const stored = Number(r.confidence);
        out.set(id, {
          status: r.status as AtomStatus,
          prior: r.prior === null ? stored : Number(r.prior),
          stored,
          sources: sources.get(id) ?? [],
          checked: Boolean(r.checked),
          contradictions: Number(r.contradictions),
          supersededBy: Number(r.superseded_by),
          inferred: Number(r.inferred),
          duplicate: r.status === "stale" && (Boolean(r.merged) || /^duplicate of/i.test(String(r.stale_reason ?? ""))),
          ageDays: Math.max(0, (now.getTime() - new Date(r.said_at as string).getTime()) / DAY_MS),
        });
      }
      return out;
    });
  }
}
