/**
 * memory_verify without arguments works through the candidates: each call takes those not checked yet (then the
 * longest unchecked), so repeated calls reach every atom; a reverted contradiction is not made again.
 */
import { describe, expect, test } from "bun:test";
import type { SqlCanonicalStore } from "../../src/adapters/sql/store.ts";
import { storeAtom } from "../../src/core/knowledge/store-atom.ts";
import { revertStatusChange, verifyAtoms } from "../../src/core/verify/verify.ts";
import { pgSkipReason } from "../support/pg.ts";
import { suiteServices } from "../support/services.ts";

const skip = await pgSkipReason();
const t = suiteServices("postgres", {}, { skip });

describe.skipIf(skip !== null)("the verification queue", () => {
  test("repeated calls with a limit reach every candidate; the contradicting pair at the end is contested", async () => {
    for (const claim of ["Cats sleep a lot.", "The river floods each spring.", "Owls hunt at night."])
      await storeAtom(t.services, { type: "text", claim });
    const five = await storeAtom(t.services, { type: "fact", claim: "The aspirin dose is 5 mg." });
    const six = await storeAtom(t.services, { type: "fact", claim: "The aspirin dose is 6 mg." });
    const seen = new Set<number>();
    for (let call = 0; call < 3; call++) {
      const r = await verifyAtoms(t.services, { limit: 2 });
      expect(r.checked).toBeGreaterThan(0);
      const sql = (t.services.maintenance as SqlCanonicalStore).db.sql;
      for (const row of await sql`SELECT atom_id FROM pm_atom_check`) seen.add(Number(row.atom_id));
    }
    // Two calls check the four oldest; checking "5 mg" contests it and "6 mg" (no longer candidates); the third call
    // goes round to the longest unchecked.
    expect(seen.size).toBe(4);
    expect(seen.has(five.atom_id)).toBe(true);
    const sql = (t.services.maintenance as SqlCanonicalStore).db.sql;
    const rows =
      await sql`SELECT id, status FROM pm_atom WHERE id = ANY(${[five.atom_id, six.atom_id]}::bigint[]) ORDER BY id`;
    expect(rows.map((r) => r.status)).toEqual(["contested", "contested"]);
  });

  test("a reverted contradiction is not made again", async () => {
    const a = await storeAtom(t.services, { type: "fact", claim: "The Ob river is 3650 km long." });
    const b = await storeAtom(t.services, { type: "fact", claim: "The Ob river is 3700 km long." });
    const first = await verifyAtoms(t.services, { atom_id: b.atom_id });
    const mine = first.changes.find((c) => c.atom_id === b.atom_id && c.to === "contested");
    expect(mine).toBeDefined();
    await revertStatusChange(t.services, mine!.change_id);
    const again = await verifyAtoms(t.services, { atom_id: b.atom_id });
    expect(again.verdicts.contradicts).toBe(0);
    const sql = (t.services.maintenance as SqlCanonicalStore).db.sql;
    const [row] = await sql`SELECT status FROM pm_atom WHERE id = ${b.atom_id}`;
    expect(row.status).toBe("candidate");
    expect(a.atom_id).not.toBe(b.atom_id);
  });
});
