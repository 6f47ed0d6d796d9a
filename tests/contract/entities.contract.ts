/**
 * EntityStore contract: what every SQL backend must do with entities, mentions and merges (migration 0015), run
 * against embedded PGlite always and PostgreSQL when a server answers. Atoms are inserted by SQL, so that nothing
 * but the mentions written here exists.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { SqlEntityStore } from "../../src/adapters/sql/entities/store.ts";
import { SqlCanonicalStore } from "../../src/adapters/sql/store.ts";
import type { EntityKind, EntityMention } from "../../src/domain/entities/types.ts";
import { PegasError } from "../../src/errors.ts";
import type { AtomMentions } from "../../src/ports/entities.ts";
import { contractSuite, type SkipReason } from "../support/contract.ts";
import type { OpenedDb } from "./store.contract.ts";

/** A mention of `surface` at its first occurrence in `text`. */
export function mention(text: string, surface: string, name: string, kind: EntityKind = "person"): EntityMention {
  const start = text.indexOf(surface);
  if (start < 0) throw new Error(`'${surface}' not in '${text}'`);
  const key = name.toLowerCase().replaceAll("ё", "е").replace(/\s+/g, " ");
  return { start, end: start + surface.length, surface, name, key, kind, confidence: 0.9 };
}

const TEXTS = [
  "Андрей Ефимыч Рагин служит врачом в городской больнице.",
  "Михаил Аверьяныч навещает Андрея Ефимыча каждый вечер.",
  "Dr. Ragin reads in the evening; Ragin's ward is dirty.",
];

/** Registers the suite for one backend; `open` gives a fresh, empty database (or why it cannot). */
export function entityContract(name: string, open: () => Promise<OpenedDb | string>, skip: SkipReason = null): void {
  contractSuite(`EntityStore contract: ${name}`, skip, () => {
    let opened: OpenedDb | string;
    let store: SqlEntityStore;
    const atoms: number[] = [];
    beforeAll(async () => {
      opened = await open();
      if (typeof opened === "string") return;
      await new SqlCanonicalStore(opened.db).migrate();
      store = new SqlEntityStore(opened.db);
      for (const [i, t] of TEXTS.entries()) {
        const [r] = await opened.db.sql`
          INSERT INTO pm_atom (type, claim, content, content_hash, search_tsv)
          VALUES ('text', ${t}, ${t}, ${`entity-contract-${i}`}, to_tsvector('pegas', ${t})) RETURNING id`;
        atoms.push(Number(r.id));
      }
    }, 60_000);
    afterAll(async () => {
      if (typeof opened !== "string") await opened.dispose();
    }, 30_000);
    const it = (title: string, fn: () => Promise<void>) =>
      test(title, async () => {
        if (typeof opened === "string") throw new Error(`cannot open ${name}: ${opened}`);
        await fn();
      }, 60_000);
    const batch = (): AtomMentions[] => [
      {
        atomId: atoms[0],
        field: "content",
        mentions: [mention(TEXTS[0], "Андрей Ефимыч Рагин", "Андрей Ефимыч Рагин")],
      },
      {
        atomId: atoms[1],
        field: "content",
        mentions: [
          mention(TEXTS[1], "Михаил Аверьяныч", "Михаил Аверьяныч"),
          mention(TEXTS[1], "Андрея Ефимыча", "Андрей Ефимыч"),
        ],
      },
      { atomId: atoms[2], field: "claim", mentions: [mention(TEXTS[2], "Ragin's", "Ragin")] },
    ];

    it("writes one entity per key and one mention per span; a replay adds nothing", async () => {
      expect(await store.writeMentions(batch())).toEqual({ entitiesCreated: 4, mentionsAdded: 4 });
      expect(await store.writeMentions(batch())).toEqual({ entitiesCreated: 0, mentionsAdded: 0 });
      const [e] = await store.entitiesByKeys(["андрей ефимыч"]);
      expect(e).toMatchObject({ kind: "person", name: "Андрей Ефимыч", key: "андрей ефимыч", mergedInto: null });
      expect(typeof e.id).toBe("number");
      expect(e.createdAt).toMatch(/^\d{4}-\d\d-\d\dT/);
      const ms = await store.mentionsOfEntity(e.id);
      expect(ms).toEqual([
        {
          id: ms[0].id,
          entityId: e.id,
          rootId: e.id,
          atomId: atoms[1],
          field: "content",
          start: TEXTS[1].indexOf("Андрея"),
          end: TEXTS[1].indexOf("Андрея") + "Андрея Ефимыча".length,
          surface: "Андрея Ефимыча",
          confidence: expect.closeTo(0.9, 5),
        },
      ]);
      expect(await store.entityCounts()).toEqual({ entities: 4, merged: 0, mentions: 4, merges: 0 });
    });

    it("an alias key held by one root resolves to it; a key two roots hold as alias gets its own entity", async () => {
      const [full] = await store.entitiesByKeys(["андрей ефимыч рагин"]);
      const [ragin] = await store.entitiesByKeys(["ragin"]);
      const aliased = await store.addAlias(full.id, "Рагин", "рагин");
      expect(aliased.aliases).toEqual(["Рагин"]);
      expect((await store.addAlias(full.id, "Рагин", "рагин")).aliasKeys).toEqual(["рагин"]);
      const t = TEXTS[0];
      const w = await store.writeMentions([
        { atomId: atoms[0], field: "claim", mentions: [mention(t, "Рагин", "Рагин")] },
      ]);
      expect(w).toEqual({ entitiesCreated: 0, mentionsAdded: 1 });
      expect((await store.mentionsOfEntity(full.id)).map((m) => m.field).sort()).toEqual(["claim", "content"]);
      await store.addAlias(ragin.id, "Доктор", "доктор");
      await store.addAlias(full.id, "Доктор", "доктор");
      const d = mention("Доктор пришёл.", "Доктор", "Доктор");
      expect(await store.writeMentions([{ atomId: atoms[2], field: "content", mentions: [d] }])).toEqual({
        entitiesCreated: 1,
        mentionsAdded: 1,
      });
      expect((await store.entitiesByKeys(["доктор"])).length).toBe(3);
    });

    it("a merge is followed by reads and undone exactly", async () => {
      const [full] = await store.entitiesByKeys(["андрей ефимыч рагин"]);
      const [short] = await store.entitiesByKeys(["андрей ефимыч"]);
      const before = (await store.mentionsOfEntity(full.id)).length;
      const m = await store.mergeEntities({
        fromEntityId: short.id,
        intoEntityId: full.id,
        reason: "same first name and patronymic in one text",
        evidence: { atoms: [atoms[0], atoms[1]] },
      });
      expect(m).toMatchObject({ fromEntityId: short.id, intoEntityId: full.id, actor: "resolver", undoneAt: null });
      expect(await store.rootOf(short.id)).toBe(full.id);
      const after = await store.mentionsOfEntity(full.id);
      expect(after.length).toBe(before + 1);
      expect(after.every((x) => x.rootId === full.id)).toBe(true);
      expect((await store.entitiesByKeys(["андрей ефимыч"])).map((e) => e.id)).toEqual([full.id]);
      expect((await store.entityCounts()).merged).toBe(1);
      const undone = await store.undoEntityMerge(m.id);
      expect(undone.undoneAt).not.toBeNull();
      expect(await store.rootOf(short.id)).toBe(short.id);
      expect((await store.mentionsOfEntity(full.id)).length).toBe(before);
      expect((await store.entityMerges(short.id)).map((x) => x.id)).toEqual([m.id]);
      const again = await store.undoEntityMerge(m.id).catch((e) => e);
      expect(again).toBeInstanceOf(PegasError);
      expect(again.code).toBe("INVALID_INPUT");
    });

    it("refuses self merges, cycles, double merges and unknown entities", async () => {
      const [a] = await store.entitiesByKeys(["михаил аверьяныч"]);
      const [b] = await store.entitiesByKeys(["ragin"]);
      const code = (p: Promise<unknown>) =>
        p.then(
          () => "ok",
          (e: PegasError) => e.code,
        );
      const req = (from: number, into: number) => ({ fromEntityId: from, intoEntityId: into, reason: "test" });
      expect(await code(store.mergeEntities(req(a.id, a.id)))).toBe("INVALID_INPUT");
      expect(await code(store.mergeEntities(req(a.id, 999_999)))).toBe("NOT_FOUND");
      const m = await store.mergeEntities(req(a.id, b.id));
      expect(await code(store.mergeEntities(req(b.id, a.id)))).toBe("INVALID_INPUT");
      expect(await code(store.mergeEntities(req(a.id, b.id)))).toBe("INVALID_INPUT");
      expect(await code(store.undoEntityMerge(999_999))).toBe("NOT_FOUND");
      await store.undoEntityMerge(m.id);
    });

    it("refuses a malformed mention or an unknown atom and writes nothing", async () => {
      const before = await store.entityCounts();
      const good = mention(TEXTS[2], "Ragin", "Ragin Nova");
      const bad = [
        { ...good, kind: "planet" as EntityKind },
        { ...good, end: good.start },
        { ...good, key: "" },
        { ...good, confidence: 0 },
      ];
      for (const m of bad) {
        const err = await store
          .writeMentions([{ atomId: atoms[2], field: "content", mentions: [good, m] }])
          .catch((e) => e);
        expect(err).toBeInstanceOf(PegasError);
        expect(err.code).toBe("INVALID_INPUT");
      }
      const err = await store.writeMentions([{ atomId: 999_999, field: "content", mentions: [good] }]).catch((e) => e);
      expect(err.code).toBe("NOT_FOUND");
      expect(await store.entityCounts()).toEqual(before);
      expect(await store.entitiesByKeys(["ragin nova"])).toEqual([]);
    });

    it("a retracted atom's mentions are kept but not read", async () => {
      if (typeof opened === "string") return;
      const [ragin] = await store.entitiesByKeys(["ragin"]);
      const n = (await store.entityCounts()).mentions;
      await opened.db.sql`UPDATE pm_atom SET status = 'retracted' WHERE id = ${atoms[2]}`;
      expect(await store.mentionsOfAtoms([atoms[2]])).toEqual([]);
      expect(await store.mentionsOfEntity(ragin.id)).toEqual([]);
      expect((await store.entityCounts()).mentions).toBeLessThan(n);
      expect((await store.atomsAfter(0, 10)).map((a) => a.id)).toEqual([atoms[0], atoms[1]]);
      await opened.db.sql`UPDATE pm_atom SET status = 'candidate' WHERE id = ${atoms[2]}`;
      expect((await store.mentionsOfEntity(ragin.id)).length).toBe(1);
    });

    it("a scan records its progress with its page, and restarts", async () => {
      expect(await store.scanState("t")).toEqual({ name: "t", lastAtomId: 0, atomsDone: 0, finishedAt: null });
      await store.advanceScan("t", [], atoms[1], 2, false);
      expect(await store.scanState("t")).toMatchObject({ lastAtomId: atoms[1], atomsDone: 2, finishedAt: null });
      await store.advanceScan("t", [], atoms[2], 1, true);
      const done = await store.scanState("t");
      expect(done).toMatchObject({ lastAtomId: atoms[2], atomsDone: 3 });
      expect(done.finishedAt).not.toBeNull();
      await store.resetScan("t");
      expect((await store.scanState("t")).lastAtomId).toBe(0);
    });

    it("lists roots most-mentioned first with live counts, merged entities inside their root, by name and kind", async () => {
      if (typeof opened === "string") return;
      const [full] = await store.entitiesByKeys(["андрей ефимыч рагин"]);
      const [short] = await store.entitiesByKeys(["андрей ефимыч"]);
      const all = await store.listEntities({}, 0, 200);
      expect(all.total).toBe(5);
      expect(all.rows.map((r) => r.atoms)).toEqual([...all.rows.map((r) => r.atoms)].sort((a, b) => b - a));
      expect(all.rows.find((r) => r.id === full.id)).toMatchObject({
        mentions: 2,
        atoms: 1,
        aliases: ["Рагин", "Доктор"],
      });
      const m = await store.mergeEntities({ fromEntityId: short.id, intoEntityId: full.id, reason: "test" });
      try {
        const merged = await store.listEntities({}, 0, 200);
        expect(merged.total).toBe(4);
        expect(merged.rows[0]).toMatchObject({ id: full.id, mentions: 3, atoms: 2 });
        for (const f of [{ contains: "ефимыч" }, { exact: ["андрей ефимыч"] }, { contains: "рагин" }])
          expect((await store.listEntities(f, 0, 10)).rows.map((r) => r.id)).toEqual([full.id]);
        expect((await store.listEntities({ contains: "доктор" }, 0, 10)).total).toBe(3);
        expect(await store.listEntities({ kind: "place" }, 0, 10)).toEqual({ rows: [], total: 0 });
        expect(await store.listEntities({}, 100, 10)).toEqual({ rows: [], total: 4 });
        await opened.db.sql`UPDATE pm_atom SET status = 'retracted' WHERE id = ${atoms[1]}`;
        expect((await store.listEntities({ contains: "ефимыч" }, 0, 10)).rows[0]).toMatchObject({
          mentions: 2,
          atoms: 1,
        });
      } finally {
        await opened.db.sql`UPDATE pm_atom SET status = 'candidate' WHERE id = ${atoms[1]}`;
        await store.undoEntityMerge(m.id);
      }
    });
  });
}
