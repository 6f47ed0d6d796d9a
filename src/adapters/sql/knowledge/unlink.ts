/**
 * memory_link's removal (`remove: true`): deletes the link `src -kind-> dst` from the edge table that matches its
 * endpoints (as link.ts stores it), in one transaction with
 * - an outbox `delete` row for it, so the graph projection drops the edge (the worker resolves the row as gone);
 * - truth maintenance (inference-tms.ts, {@link retractUnsupported}): every inferred edge whose justification used
 *   it is deleted, cascading, and stored again when another justification over the live edges still holds it.
 *
 * Which links may go, and why:
 * - the agent's (`source = 'agent'`, any table): the agent or the admin page asserted it, they may take it back;
 * - an atom → atom link of distillation (`extraction`), near-duplicate detection (`dedup`) or a verifier: nothing
 *   stores it again by itself (a later ingest or verification that finds the same relation is a new judgement), and
 *   without removal a wrong one would stay forever;
 * - refused (INVALID_INPUT, with what to do instead): an inferred edge (it goes when a premise or its rule goes, else
 *   the next memory_infer would derive it again), and a link the code store made — an extracted dependency or a code
 *   atom's `defines` link — which the next memory_store_code of its file stores again.
 * A removed link that the applied rules still imply from live premises is not derived here; the next memory_infer
 * derives it again, as an inferred edge.
 */
import type { TransactionSql } from "postgres";
import { PegasError, invalidInput } from "../../../errors.ts";
import type { LinkApplied, UnlinkApplied, UnlinkRequest } from "../../../ports/store/curation.ts";
import { retractUnsupported } from "../inference/tms.ts";
import { EDGE_ENTITY } from "../inference/write.ts";

type Tx = TransactionSql<any>;
type Table = LinkApplied["table"];

/** The table that holds links between these endpoint kinds and its endpoint columns. */
function tableOf(r: UnlinkRequest): { table: Table; src: string; dst: string } {
  if (r.src.kind === "atom" && r.dst.kind === "atom")
    return { table: "pm_atom_link", src: "src_atom_id", dst: "dst_atom_id" };
  if (r.src.kind === "atom") return { table: "pm_atom_symbol_link", src: "atom_id", dst: "symbol_id" };
  return { table: "pm_code_dependency", src: "src_symbol_id", dst: "dst_symbol_id" };
}

const name = (e: UnlinkRequest["src"]) => `${e.kind}:${e.id}`;

/** The rows of `src -kind-> dst`, locked, the removable agent row first. */
async function linkRows(tx: Tx, r: UnlinkRequest): Promise<Array<Record<string, unknown>>> {
  const t = tableOf(r);
  return tx`
    SELECT id, source, confidence, inferred, justification FROM ${tx(t.table)}
     WHERE ${tx(t.src)} = ${r.src.id} AND ${tx(t.dst)} = ${r.dst.id} AND kind = ${r.kind}
     ORDER BY (source = 'agent' AND NOT inferred) DESC, id FOR UPDATE`;
}

/** NOT_FOUND for a link that does not exist, hinting at the reverse link or the kinds that do join the two nodes. */
async function notFound(tx: Tx, r: UnlinkRequest): Promise<PegasError> {
  const t = tableOf(r);
  const [reverse] =
    r.src.kind === r.dst.kind
      ? await tx`SELECT 1 FROM ${tx(t.table)} WHERE ${tx(t.src)} = ${r.dst.id} AND ${tx(t.dst)} = ${r.src.id} AND kind = ${r.kind} LIMIT 1`
      : [];
  const kinds = (
    await tx`SELECT DISTINCT kind FROM ${tx(t.table)} WHERE ${tx(t.src)} = ${r.src.id} AND ${tx(t.dst)} = ${r.dst.id} ORDER BY kind LIMIT 10`
  ).map((k) => String(k.kind));
  const hint = reverse
    ? `a link ${name(r.dst)} -${r.kind}-> ${name(r.src)} exists: swap src and dst`
    : kinds.length
      ? `${name(r.src)} → ${name(r.dst)} has links of kind ${kinds.join(", ")}`
      : `memory_get lists an atom's links (out and in, with kinds); memory_query_graph a symbol's`;
  return new PegasError("NOT_FOUND", `no link ${name(r.src)} -${r.kind}-> ${name(r.dst)}`, { hint });
}

/** INVALID_INPUT for an inferred link, naming its rule and its premises as `src -kind-> dst` (what `remove` takes). */
async function inferredRefusal(tx: Tx, r: UnlinkRequest, row: Record<string, unknown>): Promise<PegasError> {
  const j = (row.justification ?? {}) as { rule?: number; premises?: Array<{ origin: string; id: number }> };
  const ps = j.premises ?? [];
  const live = ps.length
    ? await tx`SELECT e.src, e.kind, e.dst FROM pm_edge e JOIN unnest(${ps.map((p) => p.origin)}::text[], ${ps.map((p) => p.id)}::bigint[]) AS x(o, i)
                 ON e.origin = x.o AND e.origin_id = x.i`
    : [];
  const premises = live.map((e) => `${e.src} -${e.kind}-> ${e.dst}`).join(", ") || "listed in its justification";
  const rule = j.rule === undefined ? "its rule atom" : `the rule atom ${j.rule}`;
  return invalidInput(
    `link ${name(r.src)} -${r.kind}-> ${name(r.dst)} was inferred by ${rule}; it goes when a premise or the rule goes, else memory_infer would derive it again`,
    `remove a premise (${premises}) or forget ${rule} with memory_forget`,
  );
}

/** INVALID_INPUT for a link the code store made: the next memory_store_code of its file would store it again. */
function codeRefusal(r: UnlinkRequest, table: Table, source: string): PegasError {
  const what =
    table === "pm_code_dependency"
      ? "a dependency extracted from the source"
      : `a code atom's link made by memory_store_code (source ${source})`;
  return invalidInput(
    `link ${name(r.src)} -${r.kind}-> ${name(r.dst)} is ${what}; the next memory_store_code of the file would store it again`,
    table === "pm_code_dependency"
      ? "change the code and store it again (memory_store_code)"
      : "forget the code atom (memory_forget) if what it says is wrong",
  );
}

/**
 * Removes the link (see the module comment) inside `tx`.
 * @returns the removed row and the truth maintenance counts.
 * @throws PegasError NOT_FOUND (no such link), INVALID_INPUT (symbol → atom, inferred, made by the code store).
 */
export async function unlinkTx(tx: Tx, r: UnlinkRequest): Promise<UnlinkApplied> {
  if (r.src.kind === "symbol" && r.dst.kind === "atom") {
    throw invalidInput(
      "a link between a code symbol and an atom goes from the atom",
      `swap them: src atom:${r.dst.id}, dst symbol:${r.src.id}`,
    );
  }
  const { table } = tableOf(r);
  const rows = await linkRows(tx, r);
  const row = rows[0];
  if (!row) throw await notFound(tx, r);
  const source = String(row.source);
  if (row.inferred) throw await inferredRefusal(tx, r, row);
  if (source !== "agent" && table !== "pm_atom_link") throw codeRefusal(r, table, source);
  // A dependency has no unique key: an extracted row of the same endpoints and kind stays (it is not the agent's).
  const ids =
    table === "pm_code_dependency"
      ? rows.filter((x) => x.source === "agent" && !x.inferred).map((x) => Number(x.id))
      : [Number(row.id)];
  await tx`DELETE FROM ${tx(table)} WHERE id = ANY(${ids}::bigint[])`;
  await tx`INSERT INTO pm_outbox (entity_type, entity_id, op) SELECT ${EDGE_ENTITY[table]}, x::text, 'delete' FROM unnest(${ids}::bigint[]) AS x`;
  const tms = await retractUnsupported(
    tx,
    ids.map((id) => ({ origin: table, id })),
  );
  return {
    linkId: Number(row.id),
    table,
    source,
    confidence: Number(row.confidence),
    inferredRetracted: tms.retracted - tms.rederived,
    inferredRederived: tms.rederived,
  };
}
