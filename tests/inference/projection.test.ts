/**
 * Derived edges reach the graph projection through the outbox like any edge: the outbox worker applies them to a
 * recording sink marked inferred (source 'inference'), and the ones truth maintenance retracted are withdrawn.
 */
import { describe, expect, test } from "bun:test";
import { retractUnsupported } from "../../src/adapters/sql/inference/tms.ts";
import { infer } from "../../src/core/inference/infer.ts";
import { OutboxWorker } from "../../src/worker/outbox.ts";
import { RecordingSink } from "../support/recording-sink.ts";
import { suiteServices } from "../support/services.ts";
import { atom, link, rule, sqlOf } from "./support.ts";

const t = suiteServices("pglite");

describe("derived edges through the outbox (pglite)", () => {
  test("applied as inferred edges, withdrawn when retracted", async () => {
    const s = t.services;
    const sink = new RecordingSink();
    const worker = new OutboxWorker({ outbox: s.outbox, sinks: [sink], model: s.embedder.model });
    const n = [
      await atom(s, "Первый узел"),
      await atom(s, "Second node"),
      await atom(s, "Third node"),
      await atom(s, "Fourth node"),
    ];
    const ab = await link(s, n[0], n[1], "causes");
    await link(s, n[1], n[2], "causes");
    await link(s, n[2], n[3], "causes");
    await infer(s, { ruleIds: [await rule(s, '{"if": ["causes", "causes"], "then": "causes"}')] });
    await worker.runOnce();
    const inferred = await sqlOf(s)`SELECT id FROM pm_atom_link WHERE inferred ORDER BY id`;
    expect(inferred.length).toBe(3);
    for (const r of inferred)
      expect(sink.state.edge.get(`pm_atom_link:${r.id}`)).toMatchObject({
        kind: "causes",
        inferred: true,
        source: "inference",
      });

    await sqlOf(s).begin(async (tx) => {
      await tx`DELETE FROM pm_atom_link WHERE id = ${ab}`;
      await tx`INSERT INTO pm_outbox (entity_type, entity_id, op) VALUES ('atom_link', ${String(ab)}, 'delete')`;
      return retractUnsupported(tx, [{ origin: "pm_atom_link", id: ab }]);
    });
    await worker.runOnce();
    const left = new Set((await sqlOf(s)`SELECT id FROM pm_atom_link WHERE inferred`).map((r) => Number(r.id)));
    expect(left.size).toBe(1); // B→D only
    const projected = [...sink.state.edge.entries()]
      .filter(([, e]) => e.inferred)
      .map(([k]) => Number(k.split(":")[1]));
    expect(new Set(projected)).toEqual(left);
  });
});
