/**
 * Helpers of the tests of an import from an older schema version: bare and migrated stores of either backend (a
 * PGlite data dir or a temporary PostgreSQL database), a migration prefix, rows written by SQL as an older
 * pegas-memory wrote them (so that the later migrations' data rewrites have rows to rewrite), and a digest of the
 * schema objects (columns, defaults, constraints, indexes, triggers, functions, views, recorded migrations).
 */
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Database, SqlLike } from "../../src/adapters/sql/database.ts";
import { applyMigrations, applyMigrationsWithin, lockMigrations } from "../../src/adapters/sql/migrations.ts";
import { openDatabase } from "../../src/wiring/services.ts";
import { createTempPgDatabase } from "../support/pg.ts";
import { migratedPgliteDir, pgliteBareTemplate, testConfig } from "../support/services.ts";

/** An open store and its disposal (closes it, removes its dir or drops its database). */
export interface TestStore {
  db: Database;
  dispose(): Promise<void>;
}

/**
 * Opens a new store of `backend`: `migrated` false gives one no migration ever touched (as an older pegas-memory
 * found it), true one at this build's schema version.
 * @throws Error when PostgreSQL does not answer (call only when pgSkipReason() gave null).
 */
export async function openStore(backend: "pglite" | "postgres", migrated: boolean): Promise<TestStore> {
  if (backend === "postgres") {
    const tmp = await createTempPgDatabase("pegas_upgrade");
    if (typeof tmp === "string") throw new Error(tmp);
    const db = await openDatabase(testConfig({ database_url: tmp.url, log_level: "warn" }));
    if (migrated) await applyMigrations(db.sql);
    return {
      db,
      dispose: async () => {
        await db.close(0);
        await tmp.drop();
      },
    };
  }
  let dir: string;
  if (migrated) dir = await migratedPgliteDir("pegas-upgrade-");
  else {
    dir = mkdtempSync(join(tmpdir(), "pegas-upgrade-"));
    cpSync(await pgliteBareTemplate(), dir, { recursive: true, filter: (src) => !/[/\\]\.s\.PGSQL\./.test(src) });
  }
  const db = await openDatabase(testConfig({ data_dir: dir, log_level: "warn" }));
  return {
    db,
    dispose: async () => {
      await db.close(0);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Applies the migrations up to `version` only, as the pegas-memory of that schema version left a store. */
export async function migrateTo(db: Database, version: number): Promise<void> {
  await db.sql.begin(async (tx) => {
    await lockMigrations(tx);
    await applyMigrationsWithin(tx, version);
  });
}

/** Latest migration recorded in `db`. */
export async function versionOf(db: Database): Promise<number> {
  const [r] = await db.sql`SELECT COALESCE(max(version), 0)::int AS v FROM pm_schema_migrations`;
  return Number(r.v);
}

/** The schema objects of `db` named pm_*, each as one line of text, sorted (what must not differ between two stores). */
export async function schemaDigest(db: Database): Promise<string[]> {
  const ns = "(SELECT oid FROM pg_namespace WHERE nspname = current_schema())";
  const parts: Array<Array<Record<string, unknown>>> = await Promise.all([
    db.sql.unsafe(`SELECT 'column ' || c.relname || ' ' || a.attnum || ' ' || a.attname || ' ' || format_type(a.atttypid, a.atttypmod)
                     || CASE WHEN a.attnotnull THEN ' not null' ELSE '' END || coalesce(' default ' || pg_get_expr(d.adbin, d.adrelid), '')
                     || CASE WHEN a.attgenerated <> '' THEN ' generated' ELSE '' END AS line
                     FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
                    WHERE c.relnamespace = ${ns} AND c.relname LIKE 'pm\\_%' AND c.relkind IN ('r', 'v', 'S') AND a.attnum > 0 AND NOT a.attisdropped`),
    db.sql.unsafe(`SELECT 'constraint ' || conrelid::regclass::text || ' ' || conname || ' ' || pg_get_constraintdef(oid) AS line
                     FROM pg_constraint WHERE connamespace = ${ns} AND conrelid <> 0`),
    db.sql.unsafe(
      `SELECT 'index ' || indexdef AS line FROM pg_indexes WHERE schemaname = current_schema() AND tablename LIKE 'pm\\_%'`,
    ),
    db.sql.unsafe(`SELECT 'trigger ' || pg_get_triggerdef(t.oid) AS line FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid
                    WHERE c.relnamespace = ${ns} AND NOT t.tgisinternal`),
    db.sql.unsafe(
      `SELECT 'function ' || pg_get_functiondef(oid) AS line FROM pg_proc WHERE pronamespace = ${ns} AND proname LIKE 'pm\\_%'`,
    ),
    db.sql.unsafe(
      `SELECT 'view ' || viewname || ' ' || definition AS line FROM pg_views WHERE schemaname = current_schema() AND viewname LIKE 'pm\\_%'`,
    ),
    db.sql.unsafe(`SELECT 'migration ' || version || ' ' || name || ' ' || checksum AS line FROM pm_schema_migrations`),
  ]);
  return parts
    .flat()
    .map((r) => String(r.line))
    .sort();
}

/**
 * Writes rows into every table `db` has at schema `version` (1 ≤ version), as pegas-memory of that version did:
 * Russian and English text, emoji, ids with gaps, JSON, bytes. Among them the rows the later migrations rewrite:
 * research gaps (0009 fills question_key, one question of stop words only), code symbols with camelCase names and
 * Russian or English docstrings (0012 adds their stemmed words to search_tsv, which 0007 added empty before).
 */
export async function seedOld(sql: SqlLike, version: number): Promise<void> {
  const at = (v: number) => version >= v;
  const ts = (day: number) =>
    `'2024-03-${String(day).padStart(2, "0")}T10:${String(day).padStart(2, "0")}:00.123456Z'::timestamptz`;
  await sql
    .unsafe(`
    INSERT INTO pm_document (id, kind, uri, title, authority, content_hash, version, byte_size, metadata, status, created_at, updated_at) VALUES
      (1, 'text', 'file:///fixtures/ru_chekhov_palata_no6.txt', 'Палата № 6', 0.8, 'h-doc-1', 2, 12345, '{"lang": "ru", "n": 1.5}', 'active', ${ts(1)}, ${ts(2)}),
      (3, 'code_repo', 'repo://calc', 'calc', 0.5, 'h-doc-3', 1, 0, '{}', 'active', ${ts(3)}, ${ts(3)}),
      (4, 'web', 'https://example.org/лиса?q=1&x=ё', NULL, 0.5, NULL, 1, 0, '{}', 'retracted', ${ts(4)}, ${ts(5)});
    INSERT INTO pm_chunk (id, doc_id, doc_version, ord, text, content_hash, locator, created_at) VALUES
      (1, 1, 2, 0, 'Андрей Ефимыч Рагин заведует больничной палатой № 6.', 'h-chunk-1', '{"start": 0, "end": 52}', ${ts(1)}),
      (2, 1, 2, 1, 'Иван Дмитрич Громов — пациент палаты.', 'h-chunk-2', '{"start": 52, "end": 90}', ${ts(1)});
    INSERT INTO pm_atom (id, type, claim, content, content_hash, confidence, status, doc_id, lang, metadata, search_tsv, created_at, updated_at)
    SELECT id, type, claim, content, hash, conf, status, doc, lang, md::jsonb, to_tsvector('pegas', claim || ' ' || content), ${ts(6)}, ${ts(7)}
      FROM (VALUES
        (1, 'text', 'Андрей Ефимыч Рагин заведует больничной палатой.', 'Доктор Рагин — главный врач.', 'h-atom-1', 0.9::real, 'verified', 1, 'ru', '{"chunk": 1}'),
        (2, 'definition', 'A ward is a room in a hospital.', 'Ward: a hospital room.', 'h-atom-2', 0.6::real, 'candidate', 1, 'en', '{}'),
        (5, 'code', 'sumNumbers sums the numbers of a list', 'function sumNumbers(xs) { return xs.reduce((a, b) => a + b, 0); }', 'h-atom-5', 0.5::real, 'stale', 3, 'en', '{"big": 1e21, "tiny": 1e-7}'),
        (6, 'logical_rule', 'depends_on is transitive', '{"if": ["depends_on", "depends_on"], "then": "depends_on"}', 'h-atom-6', 1::real, 'verified', NULL, 'en', '{}'),
        (7, 'fact', '🦊 Огненная лиса — «ёлка» с "кавычками"', E'Строка 1\\nстрока 2\\t日本語', 'h-atom-7', 0.5::real, 'retracted', 4, 'ru', '{"list": [1, "два", null, true]}')
      ) v(id, type, claim, content, hash, conf, status, doc, lang, md);
    INSERT INTO pm_atom_embedding (atom_id, model, dim, vector, created_at, updated_at) VALUES
      (1, 'lexical-2', 2, '\\x0000803f00000040'::bytea, ${ts(8)}, ${ts(8)}),
      (2, 'lexical-2', 2, '\\x000000000000c0ff'::bytea, ${ts(8)}, ${ts(9)});
    INSERT INTO pm_citation (id, atom_id, doc_id, chunk_id, doc_version, locator, quoted_text, citation_key, created_at) VALUES
      (1, 1, 1, 1, 2, '{"chunk": 1}', 'Андрей Ефимыч Рагин', 'k-1', ${ts(10)}),
      (2, 7, 4, NULL, 1, '{}', 'Огненная лиса', 'k-2', ${ts(10)});
    INSERT INTO pm_atom_link (id, src_atom_id, dst_atom_id, kind, confidence, source, inferred, justification, created_at) VALUES
      (1, 1, 2, 'depends_on', 0.7, 'agent', false, NULL, ${ts(11)}),
      (2, 2, 5, 'depends_on', 0.5, 'agent', false, NULL, ${ts(11)}),
      (3, 1, 5, 'depends_on', 0.35, 'inference', true, '{"rule": 6, "premises": [["pm_atom_link", 1], ["pm_atom_link", 2]]}', ${ts(12)});
    INSERT INTO pm_code_symbol (id, repo, path, language, name, qualified_name, kind, signature, line_start, line_end, docstring, file_hash, metadata, created_at) VALUES
      (1, 'calc', 'src/sum.ts', 'typescript', 'sumNumbers', 'calc.sumNumbers', 'function', 'sumNumbers(xs: number[]): number', 1, 10, 'Вычисляет сумму всех чисел', 'h-f-1', '{}', ${ts(13)}),
      (2, 'calc', 'src/json/decoder.py', 'python', 'decode', 'json.decoder.JSONDecoder.decode', 'method', 'def decode(self, s)', 20, 40, 'Decode a JSON document', 'h-f-2', '{"async": false}', ${ts(13)}),
      (4, 'calc', 'src/tree.ts', 'typescript', 'Ёлка', 'calc.Ёлка', 'class', NULL, 1, 30, NULL, 'h-f-3', '{}', ${ts(13)}),
      (9, 'calc', 'src/sum.ts', 'typescript', 'sum', 'sum', 'module', NULL, 1, 12, 'Суммы по субботам', 'h-f-1', '{}', ${ts(13)});
    INSERT INTO pm_atom_symbol_link (id, atom_id, symbol_id, kind, confidence, source, inferred, justification, created_at) VALUES
      (1, 5, 1, 'describes', 0.9, 'extraction', false, NULL, ${ts(14)});
    INSERT INTO pm_code_dependency (id, repo, src_symbol_id, src_module, dst_symbol_id, dst_name, kind, confidence, source, inferred, justification, created_at) VALUES
      (1, 'calc', 1, NULL, 4, 'Ёлка', 'calls', 1, 'extraction', false, NULL, ${ts(15)}),
      (2, 'calc', NULL, 'sum', NULL, 'json.loads', 'imports', 1, 'extraction', false, NULL, ${ts(15)});
    INSERT INTO pm_episodic_trace (id, session_id, kind, content, metadata, search_tsv, created_at) VALUES
      (1, 's-1', 'observation', 'Нашёл «Палату № 6» 📄', '{"n": 1.5, "nested": {"ключ": "значение"}}', to_tsvector('pegas', 'Нашёл «Палату № 6» 📄'), ${ts(16)}),
      (2, NULL, 'plan', 'проверить импорт', '{}', NULL, ${ts(16)});
    INSERT INTO pm_research_gap (id, question, reason, priority, status, metadata, created_at, updated_at) VALUES
      (1, 'Когда была написана «Палата № 6»?', 'дата не указана', 4, 'open', '{}', ${ts(17)}, ${ts(17)}),
      (2, 'И в на?', NULL, 3, 'dismissed', '{}', ${ts(17)}, ${ts(18)}),
      (3, 'Who wrote Leaves of Grass?', 'a miss', 2, 'answered', '{"atom": 2}', ${ts(17)}, ${ts(19)});
    INSERT INTO pm_outbox (entity_type, entity_id, op) VALUES ('atom', '1', 'upsert');
  `)
    .simple();
  if (at(2)) {
    await sql
      .unsafe(`
      INSERT INTO pm_atom_status_change (id, atom_id, from_status, to_status, reason, evidence, actor, reverts, reverted_at, created_at) VALUES
        (1, 1, 'candidate', 'verified', 'the judge agreed', '[2]', 'verify', NULL, ${ts(20)}, ${ts(19)}),
        (2, 1, 'verified', 'candidate', 'revert', '[]', 'revert', 1, NULL, ${ts(20)});
      INSERT INTO pm_atom_merge (id, kept_atom_id, absorbed_atom_id, citation_id, cosine, model, reason, undone_at, created_at) VALUES
        (1, 1, 2, 1, 0.97, 'lexical-2', 'near duplicate', NULL, ${ts(21)});
      INSERT INTO pm_distill_quarantine (id, doc_id, chunk_id, doc_version, chunk_ord, distiller, reason, detail, attempts, resolved_at, created_at, updated_at) VALUES
        (1, 1, 2, 2, 1, 'heuristic', 'truncated', '{"claim": "Иван', 2, NULL, ${ts(21)}, ${ts(22)});
    `)
      .simple();
  }
  if (at(3))
    await sql.unsafe(`UPDATE pm_episodic_trace SET request_key = '6f1c2a7e-0b1d-4c3e-9f00-1234567890ab' WHERE id = 1`);
  if (at(4))
    await sql.unsafe(
      `INSERT INTO pm_atom_check (atom_id, judge, checked_at) VALUES (1, 'lexical', ${ts(23)}), (5, 'ollama:qwen', ${ts(24)})`,
    );
  if (at(7)) {
    await sql
      .unsafe(`
      INSERT INTO pm_code_file (id, repo, path, language, module, content_hash, byte_size, status, error, symbols, dependencies, syntax_errors, imports, updated_at) VALUES
        (1, 'calc', 'src/sum.ts', 'typescript', 'sum', 'h-f-1', 120, 'parsed', NULL, 2, 2, 0, '[{"local": "loads", "module": "json", "name": "loads"}]', ${ts(25)}),
        (2, 'calc', 'src/broken.py', 'python', NULL, 'h-f-9', 7, 'failed', 'syntax error', 0, 0, 1, '[]', ${ts(25)});
      UPDATE pm_code_symbol SET search_tsv = ('''' || lower(name) || ''':1A') ::tsvector WHERE id IN (1, 2, 4);
      UPDATE pm_code_dependency SET path = 'src/sum.ts', line = 3, receiver = CASE id WHEN 2 THEN 'json' END, dst_leaf = CASE id WHEN 1 THEN 'Ёлка' ELSE 'loads' END;
    `)
      .simple();
  }
  if (at(8)) {
    await sql
      .unsafe(`
      INSERT INTO pm_inference_rule (rule_atom_id, body, head, applied_at) VALUES (6, '{depends_on,depends_on}', 'depends_on', ${ts(26)});
      INSERT INTO pm_inference_premise (derived_origin, derived_id, premise_origin, premise_id, rule_atom_id) VALUES
        ('pm_atom_link', 3, 'pm_atom_link', 1, 6), ('pm_atom_link', 3, 'pm_atom_link', 2, 6);
    `)
      .simple();
  }
  if (at(9))
    await sql.unsafe(
      `INSERT INTO pm_search_miss (query, query_key, best_score, hits, created_at) VALUES ('квантовая хромодинамика', 'квантов хромодинамик', 0, 0, ${ts(27)})`,
    );
  if (at(10)) await sql.unsafe(`UPDATE pm_code_file SET resolve_pending = true WHERE id = 1`);
}
