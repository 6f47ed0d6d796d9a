/**
 * The CodeStore over SQL (PostgreSQL and PGlite alike, through {@link Database}): repository documents, file
 * bookkeeping, batch replacement of files (code-write.ts), the resolution pass (code-resolve.ts), symbol search
 * (code-search.ts) and the code graph's SQL reads (code-graph.ts). Driver errors become PegasError; a write that
 * queued outbox rows wakes this process's outbox workers.
 */
import type { Sql } from "postgres";
import { PegasError } from "../../../errors.ts";
import type {
  CodeCommitResult,
  CodeEdgeRow,
  CodeFileWrite,
  CodeRepo,
  CodeRepoInput,
  CodeRepoSummary,
  CodeSearchHit,
  CodeSearchQuery,
  CodeStore,
  CodeSymbolRow,
  FoundSymbol,
  ResolveOutcome,
  StoredCodeFile,
} from "../../../ports/store/code-store.ts";
import { enqueueOutbox } from "../knowledge/table-writes.ts";
import {
  dependencyLines,
  fileEdges,
  findSymbol,
  repoEdgeKinds,
  repoSummary,
  symbolsByIds,
  unknownEdgeKinds,
} from "./graph.ts";
import { resolvePass } from "./resolve.ts";
import { searchSymbols } from "./search.ts";
import { commitFilesTx, removeFilesTx } from "./write.ts";
import { checkDiskSpace } from "../pglite/disk-space.ts";
import type { Database } from "../database.ts";
import { mapSqlError } from "../errors.ts";
import { signalOutbox } from "../outbox/signal.ts";

/** Files per removal transaction. */
const REMOVE_BATCH = 500;

/** CodeStore implementation over a {@link Database}. Errors: see src/ports/store/code-store.ts. */
export class SqlCodeStore implements CodeStore {
  /** @param db the canonical database (migrated to version 7 or later). */
  constructor(readonly db: Database) {}

  private readonly run = async <T>(what: string, fn: (sql: Sql<any>) => Promise<T>): Promise<T> => {
    try {
      return await this.db.run(fn);
    } catch (err) {
      throw mapSqlError(err, what);
    }
  };

  private async write<T>(what: string, fn: (sql: Sql<any>) => Promise<T>, inputBytes = 0): Promise<T> {
    checkDiskSpace(this.db, inputBytes, what); // see pglite/disk-space.ts
    const out = await this.run(what, fn);
    signalOutbox();
    return out;
  }

  /** See CodeStore.openRepo. @throws PegasError INVALID_INPUT (another root, or the uri is a non-code document). */
  openRepo(input: CodeRepoInput): Promise<CodeRepo> {
    return this.write(
      `register repository '${input.repo}'`,
      (sql) =>
        sql.begin(async (tx) => {
          const [old] =
            await tx`SELECT id, kind, metadata->>'root' AS root FROM pm_document WHERE uri = ${input.uri} FOR UPDATE`;
          if (old && old.kind !== "code_repo") {
            throw new PegasError(
              "INVALID_INPUT",
              `'${input.uri}' is already a ${old.kind} document, not a code repository`,
              { hint: "give another repo name" },
            );
          }
          if (old?.root && old.root !== input.root) {
            throw new PegasError(
              "INVALID_INPUT",
              `repo '${input.repo}' was stored from '${old.root}', not '${input.root}'`,
              {
                hint: `walk '${old.root}' again, or give another repo name for '${input.root}'`,
              },
            );
          }
          const [doc] = await tx`
          INSERT INTO pm_document (kind, uri, title, content_hash, byte_size, authority, metadata)
          VALUES ('code_repo', ${input.uri}, ${input.title}, NULL, 0, 0.8, ${tx.json({ repo: input.repo, root: input.root })})
          ON CONFLICT (uri) DO UPDATE SET status = 'active', metadata = pm_document.metadata || EXCLUDED.metadata, updated_at = now()
          RETURNING id, version`;
          await enqueueOutbox(tx, "document", [Number(doc.id)], "upsert");
          return { repo: input.repo, docId: Number(doc.id), docVersion: Number(doc.version) };
        }) as Promise<CodeRepo>,
    );
  }

  storedFiles(repo: string): Promise<StoredCodeFile[]> {
    return this.run("list stored code files", async (sql) => {
      const rows =
        await sql`SELECT path, language, content_hash, status, error, syntax_errors FROM pm_code_file WHERE repo = ${repo}`;
      return rows.map((r) => ({
        path: String(r.path),
        language: String(r.language),
        contentHash: String(r.content_hash),
        status: r.status as StoredCodeFile["status"],
        error: r.error === null ? null : String(r.error),
        syntaxErrors: Number(r.syntax_errors ?? 0),
      }));
    });
  }

  existingAtomHashes(hashes: string[]): Promise<Set<string>> {
    if (!hashes.length) return Promise.resolve(new Set());
    return this.run("look up atoms", async (sql) => {
      const rows = await sql`SELECT content_hash FROM pm_atom WHERE content_hash = ANY(${hashes}::text[])`;
      return new Set(rows.map((r) => String(r.content_hash)));
    });
  }

  commitFiles(repo: CodeRepo, files: CodeFileWrite[], model: string): Promise<CodeCommitResult> {
    if (!files.length)
      return Promise.resolve({ symbols: 0, dependencies: 0, atomsCreated: 0, atomsExisting: 0, atomsStaled: 0 });
    return this.write(
      `store ${files.length} code file(s) of '${repo.repo}'`,
      (sql) => sql.begin((tx) => commitFilesTx(tx, repo, files, model)) as Promise<CodeCommitResult>,
      files.reduce((n, f) => n + f.byteSize, 0),
    );
  }

  async removeFiles(repo: CodeRepo, paths: string[]): Promise<CodeCommitResult> {
    const total: CodeCommitResult = { symbols: 0, dependencies: 0, atomsCreated: 0, atomsExisting: 0, atomsStaled: 0 };
    for (let i = 0; i < paths.length; i += REMOVE_BATCH) {
      const part = paths.slice(i, i + REMOVE_BATCH);
      const r = await this.write(
        `remove ${part.length} code file(s) of '${repo.repo}'`,
        (sql) => sql.begin((tx) => removeFilesTx(tx, repo, part)) as Promise<CodeCommitResult>,
      );
      total.atomsStaled += r.atomsStaled;
    }
    return total;
  }

  async resolveDependencies(
    repo: string,
    changedPaths: string[],
    onProgress?: (done: number, total: number) => void,
    signal?: AbortSignal,
  ): Promise<ResolveOutcome> {
    const out = await resolvePass(this.run, repo, changedPaths, onProgress, signal);
    signalOutbox();
    return out;
  }

  finishRepo(repo: CodeRepo, metadata: Record<string, unknown>): Promise<void> {
    return this.write(
      `update repository '${repo.repo}'`,
      (sql) =>
        sql.begin(async (tx) => {
          await tx`
          UPDATE pm_document d SET
            content_hash = (SELECT encode(sha256(convert_to(coalesce(string_agg(path || ':' || content_hash, E'\n' ORDER BY path COLLATE "C"), ''), 'UTF8')), 'hex')
                              FROM pm_code_file WHERE repo = ${repo.repo}),
            byte_size = (SELECT coalesce(sum(byte_size), 0) FROM pm_code_file WHERE repo = ${repo.repo}),
            metadata = d.metadata || ${tx.json(metadata as never)}, updated_at = now()
          WHERE d.id = ${repo.docId}`;
          await enqueueOutbox(tx, "document", [repo.docId], "upsert");
        }) as Promise<void>,
    );
  }

  searchSymbols(q: CodeSearchQuery): Promise<CodeSearchHit[]> {
    return this.run("search code symbols", (sql) => searchSymbols(sql, q));
  }

  findSymbol(ref: string, repo?: string): Promise<FoundSymbol | null> {
    return this.run("find a code symbol", (sql) => findSymbol(sql, ref, repo));
  }

  unknownEdgeKinds(repo: string, kinds: string[]): Promise<string[]> {
    return this.run("check edge kinds", (sql) => unknownEdgeKinds(sql, repo, kinds));
  }

  repoEdgeKinds(repo: string): Promise<string[]> {
    return this.run("list edge kinds", (sql) => repoEdgeKinds(sql, repo));
  }

  dependencyLines(ids: number[]): Promise<Map<number, number | null>> {
    return this.run("read dependency lines", (sql) => dependencyLines(sql, ids));
  }

  symbolsByIds(ids: number[]): Promise<CodeSymbolRow[]> {
    return this.run("read code symbols", (sql) => symbolsByIds(sql, ids));
  }

  fileEdges(
    repo: string,
    path: string,
    kinds: string[] | undefined,
    limit: number,
  ): Promise<{ edges: CodeEdgeRow[]; truncated: boolean }> {
    return this.run("read a file's dependencies", (sql) => fileEdges(sql, repo, path, kinds, limit));
  }

  repoSummary(repo: string, limits: { top: number; edges: number }): Promise<CodeRepoSummary> {
    return this.run(`summarize repository '${repo}'`, (sql) => repoSummary(sql, repo, limits));
  }
}
