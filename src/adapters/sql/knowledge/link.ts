/**
 * memory_link's write: the agent asserts a relation between two nodes (`source = 'agent'`), stored in the edge
 * table that matches the endpoints — atom → atom in `pm_atom_link`, atom → code symbol in `pm_atom_symbol_link`,
 * symbol → symbol in `pm_code_dependency` (in the source symbol's repository) — with its outbox row, in one
 * transaction. An existing edge of the same endpoints and kind is kept; the agent's confidence replaces its own
 * earlier one, never an extracted or verified edge's; an inferred edge becomes the agent's (no longer retractable by
 * truth maintenance).
 */
import type { TransactionSql } from "postgres";
import { invalidInput, PegasError } from "../../../errors.ts";
import type { LinkApplied, LinkRequest } from "../../../ports/store/curation.ts";

type Tx = TransactionSql<any>;

const atomNotFound = (id: number) =>
  new PegasError("NOT_FOUND", `no atom '${id}'`, { hint: "call memory_search to list atom ids" });
const symbolNotFound = (id: number) =>
  new PegasError("NOT_FOUND", `no code symbol '${id}'`, { hint: "call memory_search_code to find symbol ids" });

async function liveAtom(tx: Tx, id: number): Promise<void> {
  const [a] = await tx`SELECT status FROM pm_atom WHERE id = ${id} FOR SHARE`;
  if (!a) throw atomNotFound(id);
  if (a.status === "retracted")
    throw invalidInput(
      `atom ${id} is retracted`,
      "undo the forget first (memory_forget {atom_id, undo: true}) to link it",
    );
}

async function symbolRepo(tx: Tx, id: number): Promise<string> {
  const [s] = await tx`SELECT repo FROM pm_code_symbol WHERE id = ${id} FOR SHARE`;
  if (!s) throw symbolNotFound(id);
  return String(s.repo);
}

/**
 * Inserts the agent's link into a table with a unique (endpoint, endpoint, kind) key, or updates the existing row:
 * the agent's confidence replaces the agent's or an inferred row's own, and an inferred row becomes the agent's.
 */
async function upsertLink(
  tx: Tx,
  table: "pm_atom_link" | "pm_atom_symbol_link",
  ends: [string, string],
  r: LinkRequest,
): Promise<Record<string, unknown>> {
  const [row] = await tx`
    INSERT INTO ${tx(table)} AS l (${tx(ends[0])}, ${tx(ends[1])}, kind, confidence, source)
    VALUES (${r.src.id}, ${r.dst.id}, ${r.kind}, ${r.confidence}, 'agent')
    ON CONFLICT (${tx(ends[0])}, ${tx(ends[1])}, kind) DO UPDATE
      SET confidence = CASE WHEN l.source = 'agent' OR l.inferred THEN EXCLUDED.confidence ELSE l.confidence END,
          source = CASE WHEN l.inferred THEN 'agent' ELSE l.source END,
          justification = CASE WHEN l.inferred THEN NULL ELSE l.justification END,
          inferred = false
    RETURNING id, source, confidence, (xmax = 0) AS created`;
  return row;
}

/** Stores the link (see the module comment). @throws PegasError NOT_FOUND, INVALID_INPUT (retracted atom, symbol → atom). */
export async function linkTx(tx: Tx, r: LinkRequest): Promise<LinkApplied> {
  const { src, dst, kind, confidence } = r;
  if (src.kind === "symbol" && dst.kind === "atom") {
    throw invalidInput(
      "a link between a code symbol and an atom goes from the atom",
      `swap them: src atom:${dst.id}, dst symbol:${src.id}`,
    );
  }
  let row: Record<string, unknown> | undefined;
  let table: LinkApplied["table"];
  if (src.kind === "atom" && dst.kind === "atom") {
    await liveAtom(tx, src.id);
    await liveAtom(tx, dst.id);
    table = "pm_atom_link";
    row = await upsertLink(tx, table, ["src_atom_id", "dst_atom_id"], r);
  } else if (src.kind === "atom") {
    await liveAtom(tx, src.id);
    await symbolRepo(tx, dst.id);
    table = "pm_atom_symbol_link";
    row = await upsertLink(tx, table, ["atom_id", "symbol_id"], r);
  } else {
    const repo = await symbolRepo(tx, src.id);
    await symbolRepo(tx, dst.id);
    table = "pm_code_dependency";
    // No unique key here (extraction keeps one row per source, kind, target and receiver): look before inserting.
    [row] = await tx`
      SELECT id, source, confidence, false AS created FROM pm_code_dependency
       WHERE src_symbol_id = ${src.id} AND dst_symbol_id = ${dst.id} AND kind = ${kind} ORDER BY id LIMIT 1`;
    if (row && (row.source === "agent" || row.source === "inference")) {
      [row] = await tx`
        UPDATE pm_code_dependency SET confidence = ${confidence}, source = 'agent', inferred = false, justification = NULL
         WHERE id = ${row.id} RETURNING id, source, confidence, false AS created`;
    } else if (!row) {
      [row] = await tx`
        INSERT INTO pm_code_dependency (repo, src_symbol_id, dst_symbol_id, dst_name, kind, confidence, source, dst_leaf)
        SELECT ${repo}, ${src.id}, s.id, s.qualified_name, ${kind}, ${confidence}, 'agent', s.name FROM pm_code_symbol s WHERE s.id = ${dst.id}
        RETURNING id, source, confidence, true AS created`;
    }
  }
  // An inferred edge the agent asserts becomes the agent's: no longer held by a justification the TMS may retract.
  await tx`DELETE FROM pm_inference_premise WHERE derived_origin = ${table} AND derived_id = ${row!.id}`;
  const entity =
    table === "pm_atom_link" ? "atom_link" : table === "pm_atom_symbol_link" ? "atom_symbol_link" : "code_dependency";
  await tx`INSERT INTO pm_outbox (entity_type, entity_id, op) VALUES (${entity}, ${String(row!.id)}, 'upsert')`;
  return {
    linkId: Number(row!.id),
    table,
    created: Boolean(row!.created),
    source: String(row!.source),
    confidence: Number(row!.confidence),
  };
}
