/**
 * memory_store_code: walks a repository (code-walk.ts), and for each source file — unless skipped as too large,
 * binary or generated — compares its content hash with the stored one: unchanged files are not parsed, changed and
 * new ones are extracted, turned into symbols, dependencies and code atoms, and committed in batches (one
 * transaction per batch, each file whole). Files that fail to parse are recorded and reported; the walk goes on.
 * At the end, stored files that are gone are removed, dependency targets resolved, and the repository document
 * updated. Files are prepared (read, hashed, extracted) up to {@link LOOKAHEAD} ahead of the one being counted, so
 * the extractor's worker threads parse while the main thread commits; outcomes are applied in walk order. Memory
 * stays flat: files stream, a batch holds at most {@link BATCH_FILES} files' extractions.
 */
import { goneFiles, type Outcome, prepareFile, unreadable } from "./prepare.ts";
import { type StoreCodeInput, type StoreCodeOptions, type StoreCodeResult, checkInput } from "./input.ts";
import { BATCH_FILES, type CodeIngestServices, CodeRun, cancelled } from "./run.ts";
import { walkRepository } from "./walk.ts";

export { BATCH_FILES };

/**
 * Files prepared ahead of the one being applied: enough to keep the extractor's worker threads busy (two files each
 * for up to four workers) while the main thread commits; each holds at most one file's text and extraction.
 */
const LOOKAHEAD = 8;

/** The walk and the per-file work. */
async function walk(run: CodeRun): Promise<void> {
  const { signal } = run.opts;
  const files = walkRepository(run.input.root, {
    include: run.input.include,
    exclude: run.input.exclude,
    signal,
    onSkip: (reason, _path, dir) => run.skip(reason, dir),
    trusted: run.opts.trustedPath ?? false,
    onError: (path, err) => {
      run.unreadableDirs.push(path);
      run.skip("unreadable", true);
      run.error(`${path}/`, unreadable(err));
    },
  });
  const ahead: Promise<Outcome>[] = [];
  const next = async () => {
    const outcome = await ahead.shift()!;
    await run.apply(outcome);
    run.progress.file(run.result.files.seen, `${run.tally()} — ${outcome.path}`);
  };
  try {
    for await (const f of files) {
      if (signal?.aborted) break;
      const p = prepareFile(run.s, run.input, run.stored, f);
      p.catch(() => {}); // observed when its turn comes, or dropped with the run
      ahead.push(p);
      if (ahead.length >= LOOKAHEAD) await next();
    }
    while (ahead.length > 0 && !signal?.aborted) await next();
    if (signal?.aborted) throw cancelled(run.result);
    await run.flush();
  } catch (err) {
    // A batch being committed finishes whole (or fails whole) before the run throws; files prepared ahead are dropped.
    await Promise.allSettled(ahead);
    await run.drain().catch(() => {});
    throw err;
  }
  await run.drain();
}

/**
 * Stores a repository's code (see the module comment). @throws PegasError INVALID_INPUT, NOT_FOUND (the path),
 * CANCELLED (committed batches stay; a new run continues), STORE_UNAVAILABLE; a file's failure is reported, not thrown.
 */
export async function storeCode(
  s: CodeIngestServices,
  input: StoreCodeInput,
  opts: StoreCodeOptions = {},
): Promise<StoreCodeResult> {
  const t0 = performance.now();
  const checked = checkInput(input, opts.trustedPath ? null : s.config.ingest_roots);
  const repo = await s.code.openRepo({
    repo: checked.repo,
    uri: checked.uri,
    root: checked.root,
    title: checked.title,
  });
  const stored = new Map((await s.code.storedFiles(checked.repo)).map((f) => [f.path, f]));
  const run = new CodeRun(s, checked, repo, stored, opts);
  run.progress.start(checked.root);
  await walk(run);
  run.progress.walked(run.result.files.seen, `walk finished, last batch committed; ${run.tally()}`);
  const gone = goneFiles([...run.stored.values()], run.kept, run.input, run.unreadableDirs);
  if (gone.length) {
    run.progress.removing(`removing ${gone.length} file(s) that are gone`);
    run.result.atoms.staled += (await s.code.removeFiles(repo, gone)).atomsStaled;
  }
  run.result.files.removed = gone.length;
  run.progress.resolveStart();
  const resolved = await s.code.resolveDependencies(
    checked.repo,
    run.changed,
    (done, total) => run.progress.resolving(done, total),
    opts.signal,
  );
  run.result.dependencies = {
    ...run.result.dependencies,
    resolved_now: resolved.resolved,
    resolved: resolved.resolvedTotal,
    unresolved: resolved.unresolved,
  };
  await s.code.finishRepo(repo, { repo: checked.repo, root: checked.root, stored_at: new Date().toISOString() });
  run.result.took_ms = Math.round(performance.now() - t0);
  run.progress.done(`stored; ${run.tally()}; ${run.result.symbols} symbols`);
  return run.result;
}
