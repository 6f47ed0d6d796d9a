/** The catalog's filter masks are kept up to date on upsert: a kept mask equals one computed afresh. */
import { expect, test } from "bun:test";
import { AtomCatalog } from "../../src/adapters/embedded/atom-catalog.ts";
import type { AtomFilter } from "../../src/domain/atom.ts";

function fresh(c: AtomCatalog, rows: Array<[number, Parameters<AtomCatalog["upsert"]>[1]]>, f: AtomFilter): number[] {
  const again = new AtomCatalog();
  for (const [id, attrs] of rows) again.upsert(id, attrs);
  return [...again.mask(f)].slice(0, c.size);
}

test("masks follow inserts and status changes of the atoms they cover", () => {
  const c = new AtomCatalog();
  const rows: Array<[number, Parameters<AtomCatalog["upsert"]>[1]]> = [];
  const put = (id: number, attrs: Parameters<AtomCatalog["upsert"]>[1]) => {
    c.upsert(id, attrs);
    rows.push([id, attrs]);
  };
  const live: AtomFilter = { types: ["text"], status: ["candidate", "verified"] };
  const byDoc: AtomFilter = { docIds: [7] };
  put(1, { type: "text", status: "candidate", docId: 7 });
  put(2, { type: "fact", status: "candidate", docId: 7 });
  expect([...c.mask(live)].slice(0, c.size)).toEqual([1, 0]);
  expect([...c.mask(byDoc)].slice(0, c.size)).toEqual([1, 1]);
  for (let i = 3; i < 3000; i++) put(i, { type: i % 2 ? "text" : "fact", status: "candidate", docId: i % 5 });
  put(1, { type: "text", status: "stale", docId: 7 });
  put(5, { type: "text", status: "retracted", docId: 0 });
  for (const f of [live, byDoc, {}]) expect([...c.mask(f)].slice(0, c.size)).toEqual(fresh(c, rows, f));
  expect(c.mask(live)[0]).toBe(0);
  expect(c.mask({})[c.slot(5)!]).toBe(0);
});
