/**
 * The graph of the GraphStore contract, seeded by SQL into a migrated database with fixed ids (so expected ids,
 * orders and keys can be written out literally), and the same graph as projection changes for external adapters.
 *
 * Main component (atoms 1–10): A=1 →ref B=2, A →cause C=3, B →depends_on D=4, C →depends_on D (inferred),
 * D →contradicts A (cycle), E=10 →ref A, D →ref F=5 →depends_on H=8 →cause T=9 →ref E (a longer cycle),
 * B →inference C (inferred); R=6 is retracted and the only way to G=7 (A →R →G). Atom–symbol: E defines S1,
 * C →ref S2, R →ref S3 (dead). Code: S1 →calls S2 →inherits S3 →calls S1 (inferred, a cycle), module app.main
 * imports S1 and os.path, S1 calls json.loads, S3 calls Дом.строить, module app.util imports ｚ and calls 𝔸 (U+FF5A
 * before U+1D538 in code-point order, after it in UTF-16 order) and the unresolved name parse. A resolved symbol
 * overrides the recorded module or name of its end: app.parse (S1's module) and Лексер are no nodes, app.main has no
 * edge to S3, and name:parse has no edge from app.main or S3.
 * Path component (atoms 11–18): P1 →ref P2 →ref P3 →ref P4; P1 →cause P5 →cause P6 →cause P7 →cause P4;
 * P1 →ref RX=18 (retracted) →ref P4; P2 →ref P4 (inferred).
 */
import { rmSync } from "node:fs";
import { openPglite } from "../../src/adapters/sql/pglite/open.ts";
import { openPostgres } from "../../src/adapters/sql/postgres/open.ts";
import type { Database, SqlLike } from "../../src/adapters/sql/database.ts";
import { SqlCanonicalStore } from "../../src/adapters/sql/store.ts";
import { createTempPgDatabase } from "./pg.ts";
import { migratedPgliteDir } from "./services.ts";
import type { ProjectionChange } from "../../src/ports/projections/projection-sink.ts";
import type { AtomStatus, AtomType } from "../../src/domain/atom.ts";

/** What {@link seedGraph} created: named ids and edge keys, and every live node and edge as upsert changes. */
export interface SeededGraph {
  /** Atom row ids by name (A…T, E, P1…P7; R and RX are retracted). */
  atoms: Record<string, number>;
  /** Document row ids: ward6 and repo are active, old is retracted. */
  docs: Record<string, number>;
  /** Code symbol row ids: S1 parse, S2 Лексер, S3 tokenize, S4 UNUSED (no edges). */
  symbols: Record<string, number>;
  /** Edge keys (`<origin table>:<row id>`) by name, dead edges (a retracted endpoint) included. */
  edges: Record<string, string>;
  /** Node upserts (atoms with `vector: null`, documents, symbols), then edge upserts; nothing retracted or dead. */
  changes: ProjectionChange[];
}

type AtomRow = [name: string, id: number, type: AtomType, status: AtomStatus, docId: number | null, claim: string];
const ATOMS: AtomRow[] = [
  ["A", 1, "text", "verified", 1, "Доктор Рагин любит ум и честность."],
  ["B", 2, "definition", "candidate", 1, "A ward is a room in a hospital."],
  ["C", 3, "fact", "contested", 1, "The roof of the annex is rusty."],
  ["D", 4, "logical_rule", "verified", null, "If the roof is rusty then it leaks."],
  ["F", 5, "fact", "stale", 1, "The annex has five wards."],
  ["R", 6, "fact", "retracted", 1, "A claim the agent forgot."],
  ["G", 7, "text", "candidate", 1, "Reached only through a forgotten claim."],
  ["H", 8, "text", "verified", null, "Палата № 6 стоит во дворе."],
  ["T", 9, "table", "candidate", 1, "| ward | beds |"],
  ["E", 10, "code", "candidate", 2, "def parse(text): ..."],
  ["P1", 11, "fact", "verified", null, "Path start."],
  ["P2", 12, "fact", "verified", null, "Path step two."],
  ["P3", 13, "fact", "candidate", null, "Path step three."],
  ["P4", 14, "fact", "verified", null, "Path end."],
  ["P5", 15, "fact", "candidate", null, "Detour one."],
  ["P6", 16, "fact", "candidate", null, "Detour two."],
  ["P7", 17, "fact", "candidate", null, "Detour three."],
  ["RX", 18, "fact", "retracted", null, "A retracted shortcut."],
];

/** Atom links: name, id, src, dst, kind, confidence, source, inferred. */
type LinkRow = [string, number, string, string, string, number, string, boolean];
const LINKS: LinkRow[] = [
  ["L1", 1, "A", "B", "reference", 0.875, "extraction", false],
  ["L2", 2, "A", "C", "cause", 0.75, "extraction", false],
  ["L3", 3, "B", "D", "depends_on", 0.625, "extraction", false],
  ["L4", 4, "C", "D", "depends_on", 0.5, "inference", true],
  ["L5", 5, "D", "A", "contradicts", 0.5, "agent", false],
  ["L6", 6, "E", "A", "reference", 1, "extraction", false],
  ["L7", 7, "A", "R", "reference", 0.5, "extraction", false],
  ["L8", 8, "R", "G", "cause", 0.5, "extraction", false],
  ["L9", 9, "D", "F", "reference", 0.25, "extraction", false],
  ["L10", 10, "F", "H", "depends_on", 0.375, "extraction", false],
  ["L11", 11, "H", "T", "cause", 0.5, "extraction", false],
  ["L12", 12, "B", "C", "inference", 0.25, "inference", true],
  ["L13", 13, "T", "E", "reference", 0.5, "extraction", false],
  ["L14", 14, "P1", "P2", "reference", 0.5, "extraction", false],
  ["L15", 15, "P2", "P3", "reference", 0.5, "extraction", false],
  ["L16", 16, "P3", "P4", "reference", 0.5, "extraction", false],
  ["L17", 17, "P1", "P5", "cause", 0.75, "extraction", false],
  ["L18", 18, "P5", "P6", "cause", 0.75, "extraction", false],
  ["L19", 19, "P6", "P7", "cause", 0.75, "extraction", false],
  ["L20", 20, "P7", "P4", "cause", 0.75, "extraction", false],
  ["L21", 21, "P1", "RX", "reference", 0.5, "extraction", false],
  ["L22", 22, "RX", "P4", "reference", 0.5, "extraction", false],
  ["L23", 23, "P2", "P4", "reference", 0.625, "inference", true],
];

/** Atom–symbol links: name, id, atom, symbol, kind, confidence. */
const ATOM_SYMBOL: [string, number, string, string, string, number][] = [
  ["AS1", 1, "E", "S1", "defines", 1],
  ["AS2", 2, "C", "S2", "reference", 0.5],
  ["AS3", 3, "R", "S3", "reference", 0.5],
];

/** Code dependencies: name, id, src symbol, src module, dst symbol, dst name, kind, inferred. */
type DepRow = [string, number, string | null, string | null, string | null, string, string, boolean];
const DEPS: DepRow[] = [
  ["CD1", 1, "S1", "app.parse", "S2", "Лексер", "calls", false],
  ["CD2", 2, "S2", "app.main", "S3", "tokenize", "inherits", false],
  ["CD3", 3, null, "app.main", "S1", "parse", "imports", false],
  ["CD4", 4, "S1", null, null, "json.loads", "calls", false],
  ["CD5", 5, "S3", null, null, "Дом.строить", "calls", false],
  ["CD6", 6, null, "app.main", null, "os.path", "imports", false],
  ["CD7", 7, "S3", null, "S1", "parse", "calls", true],
  ["CD8", 8, null, "app.util", null, "ｚ", "imports", false],
  ["CD9", 9, null, "app.util", null, "𝔸", "calls", false],
  ["CD10", 10, null, "app.util", null, "parse", "imports", false],
];

/**
 * A fresh, migrated, empty database of `backend` (a temporary PostgreSQL database, or PGlite in a temporary dir) and
 * how to close and delete it. Throws when PostgreSQL is unreachable (callers skip first, see tests/support/pg.ts).
 */
export async function openGraphTestDatabase(
  backend: "postgres" | "pglite",
): Promise<{ db: Database; dispose(): Promise<void> }> {
  let db: Database;
  let drop: () => Promise<void>;
  if (backend === "postgres") {
    // ICU en-US sorts "name:𝔸" before "name:ｚ": an adapter ordering by collation instead of code point fails here.
    const icu = await createTempPgDatabase("pegas_graph_icu", { icu: true });
    const tmp = typeof icu === "string" ? await createTempPgDatabase("pegas_graph") : icu;
    if (typeof tmp === "string") throw new Error(tmp);
    db = openPostgres(tmp.url);
    drop = () => tmp.drop();
  } else {
    const dir = await migratedPgliteDir("pegas-graph-"); // initdb once per run, not per suite
    db = await openPglite({ dataDir: dir });
    drop = async () => rmSync(dir, { recursive: true, force: true });
  }
  await new SqlCanonicalStore(db).migrate();
  return {
    db,
    async dispose() {
      await db.close(0);
      await drop();
    },
  };
}

const JUSTIFICATION = { rule: "contract_fixture", premises: ["pm_atom_link:2", "pm_atom_link:3"] };

/** Seeds the contract graph into a migrated, empty database (fixed ids; sequences moved past them). */
export async function seedGraph(db: Database): Promise<SeededGraph> {
  const atoms = Object.fromEntries(ATOMS.map(([n, id]) => [n, id]));
  const docs = { ward6: 1, repo: 2, old: 3 };
  const symbols = { S1: 1, S2: 2, S3: 3, S4: 4 };
  await db.run((sql) =>
    sql.begin(async (tx) => {
      await insertNodes(tx);
      await insertEdges(tx, atoms, symbols);
      for (const t of [
        "pm_document",
        "pm_atom",
        "pm_code_symbol",
        "pm_atom_link",
        "pm_atom_symbol_link",
        "pm_code_dependency",
      ]) {
        await tx`SELECT setval(pg_get_serial_sequence(${t}, 'id'), (SELECT max(id) FROM ${tx(t)}))`;
      }
    }),
  );
  const edges: Record<string, string> = {};
  for (const [n, id] of LINKS) edges[n] = `pm_atom_link:${id}`;
  for (const [n, id] of ATOM_SYMBOL) edges[n] = `pm_atom_symbol_link:${id}`;
  for (const [n, id] of DEPS) edges[n] = `pm_code_dependency:${id}`;
  return { atoms, docs, symbols, edges, changes: await readChanges(db) };
}

async function insertNodes(tx: SqlLike): Promise<void> {
  await tx`INSERT INTO pm_document (id, kind, uri, title, content_hash, status) VALUES
    (1, 'text', 'file:///notes/ward6.txt', 'Палата № 6', 'h-ward6', 'active'),
    (2, 'code_repo', 'https://example.org/parser.git', 'parser', 'h-repo', 'active'),
    (3, 'web', 'https://example.org/old', 'Старая страница', 'h-old', 'retracted')`;
  for (const [, id, type, status, docId, claim] of ATOMS) {
    const lang = /[а-я]/i.test(claim) ? "ru" : "en";
    await tx`INSERT INTO pm_atom (id, type, claim, content, content_hash, confidence, status, doc_id, lang, search_tsv)
      VALUES (${id}, ${type}, ${claim}, ${claim}, ${`fixture-${id}`}, ${0.5 + (id % 4) / 8}, ${status}, ${docId}, ${lang},
              to_tsvector('pegas', ${claim}))`;
  }
  await tx`INSERT INTO pm_code_symbol (id, repo, path, language, name, qualified_name, kind, line_start, line_end) VALUES
    (1, 'parser', 'src/parse.py', 'python', 'parse', 'parse', 'function', 1, 20),
    (2, 'parser', 'src/лексер.py', 'python', 'Лексер', 'Лексер', 'class', 1, 80),
    (3, 'parser', 'src/лексер.py', 'python', 'tokenize', 'Лексер.tokenize', 'method', 10, 40),
    (4, 'parser', 'src/const.py', 'python', 'UNUSED', 'UNUSED', 'constant', 1, 1)`;
}

async function insertEdges(tx: SqlLike, atoms: Record<string, number>, symbols: Record<string, number>): Promise<void> {
  const just = (inferred: boolean) => (inferred ? tx.json(JUSTIFICATION) : null);
  for (const [, id, s, d, kind, conf, source, inferred] of LINKS) {
    await tx`INSERT INTO pm_atom_link (id, src_atom_id, dst_atom_id, kind, confidence, source, inferred, justification)
      VALUES (${id}, ${atoms[s]}, ${atoms[d]}, ${kind}, ${conf}, ${source}, ${inferred}, ${just(inferred)})`;
  }
  for (const [, id, a, s, kind, conf] of ATOM_SYMBOL) {
    await tx`INSERT INTO pm_atom_symbol_link (id, atom_id, symbol_id, kind, confidence)
      VALUES (${id}, ${atoms[a]}, ${symbols[s]}, ${kind}, ${conf})`;
  }
  for (const [, id, ss, sm, ds, dn, kind, inferred] of DEPS) {
    await tx`INSERT INTO pm_code_dependency (id, repo, src_symbol_id, src_module, dst_symbol_id, dst_name, kind, source, inferred, justification)
      VALUES (${id}, 'parser', ${ss ? symbols[ss] : null}, ${sm}, ${ds ? symbols[ds] : null}, ${dn}, ${kind},
              ${inferred ? "inference" : "extraction"}, ${inferred}, ${just(inferred)})`;
  }
}

/** Every live node and edge as read back through the `pm_edge` view (not through any GraphStore). */
async function readChanges(db: Database): Promise<ProjectionChange[]> {
  return db.run(async (sql) => {
    const atoms =
      await sql`SELECT id, type, status, doc_id, confidence, lang FROM pm_atom WHERE status <> 'retracted' ORDER BY id`;
    const docs = await sql`SELECT id, uri, title, kind FROM pm_document WHERE status = 'active' ORDER BY id`;
    const symbols = await sql`SELECT id, repo, path, name, kind FROM pm_code_symbol ORDER BY id`;
    const edges = await sql`
      SELECT e.origin || ':' || e.origin_id AS key, e.src, e.dst, e.kind, e.confidence, e.inferred, e.source FROM pm_edge e
       WHERE NOT EXISTS (SELECT 1 FROM pm_atom a WHERE a.status = 'retracted' AND 'atom:' || a.id IN (e.src, e.dst))
       ORDER BY e.origin, e.origin_id`;
    return [
      ...atoms.map(
        (r): ProjectionChange => ({
          entity: "atom",
          id: Number(r.id),
          state: {
            type: r.type,
            status: r.status,
            docId: r.doc_id === null ? null : Number(r.doc_id),
            confidence: Number(r.confidence),
            lang: r.lang,
            vector: null,
          },
        }),
      ),
      ...docs.map(
        (r): ProjectionChange => ({
          entity: "document",
          id: Number(r.id),
          state: { uri: r.uri, title: r.title, kind: r.kind },
        }),
      ),
      ...symbols.map(
        (r): ProjectionChange => ({
          entity: "symbol",
          id: Number(r.id),
          state: { repo: r.repo, path: r.path, name: r.name, kind: r.kind },
        }),
      ),
      ...edges.map(
        (r): ProjectionChange => ({
          entity: "edge",
          key: String(r.key),
          state: {
            src: r.src,
            dst: r.dst,
            kind: r.kind,
            confidence: Number(r.confidence),
            inferred: r.inferred,
            source: r.source,
          },
        }),
      ),
    ];
  });
}
