/**
 * The procedure of the confidence calibration (issue 24 item 3), shared by the `calibration` benchmark and the fit
 * (bench/fit-confidence.ts): a fresh copy of the fixtures store (tests/support/fixtures-store.ts: the twelve shared
 * fixtures ingested with the embedded defaults); each labelled statement of tests/confidence/statement-set.jsonl
 * stored as an agent would, through memory_store's use case (a `fact`, citing the page it was read on:
 * `https://notes.example.net/<id>`, one site for all of them, default confidence); then memory_verify's use case run
 * on each stored atom (the heuristic judge: its nearest atoms, the fixture sentences among them); then the stored
 * facts of each statement's atom read back (ConfidenceReads). The model itself is applied by the caller, so that the
 * fit and the benchmark read the same facts.
 */
import { explainConfidence } from "../../src/domain/confidence/model.ts";
import type { ConfidenceFacts } from "../../src/domain/confidence/model.ts";
import { storeAtom } from "../../src/core/knowledge/store-atom.ts";
import { verifyAtoms } from "../../src/core/verify/verify.ts";
import { loadStatementSet, type StatementItem } from "../../tests/confidence/statement-set.ts";
import { openFixturesStore } from "../../tests/support/fixtures-store.ts";

/** One statement with the atom that holds it and that atom's facts after verification. */
export interface CalibrationRow {
  item: StatementItem;
  atomId: number;
  facts: ConfidenceFacts;
}

/** Runs the procedure (module doc) over the whole set. @throws Error when the store fails. */
export async function runCalibration(): Promise<{ rows: CalibrationRow[]; store_ms: number; verify_ms: number }> {
  const items = loadStatementSet();
  const store = await openFixturesStore();
  try {
    const { services } = store;
    const t0 = performance.now();
    const atomIds: number[] = [];
    for (const item of items) {
      const r = await storeAtom(services, {
        type: "fact",
        claim: item.text,
        source_uri: `https://notes.example.net/${item.id}`,
      });
      atomIds.push(r.atom_id);
    }
    const t1 = performance.now();
    for (const id of new Set(atomIds)) await verifyAtoms(services, { atom_id: id });
    const t2 = performance.now();
    const facts = new Map<number, ConfidenceFacts>();
    const unique = [...new Set(atomIds)];
    for (let i = 0; i < unique.length; i += 500)
      for (const [id, f] of await services.confidence.confidenceFacts(unique.slice(i, i + 500))) facts.set(id, f);
    const rows = items.map((item, i) => {
      const f = facts.get(atomIds[i]);
      if (!f) throw new Error(`statement ${item.id}: atom ${atomIds[i]} vanished`);
      return { item, atomId: atomIds[i], facts: f };
    });
    return { rows, store_ms: Math.round(t1 - t0), verify_ms: Math.round(t2 - t1) };
  } finally {
    await store.dispose();
  }
}

/** The explained confidence of each row under the model's current weights. */
export function scoreRows(rows: readonly CalibrationRow[]) {
  return rows.map((r) => ({ ...r, explained: explainConfidence(r.facts) }));
}
