/**
 * The InferenceStore over SQL (PostgreSQL and PGlite alike): reads rule atoms and runs memory_infer's fixpoint in
 * one transaction (infer-eval.ts, infer-write.ts). {@link inferringCodeStore} wraps a CodeStore so that a code store
 * keeps the derived edges true: retraction happens inside the file transactions (code-write.ts calls the TMS), and
 * after the resolution pass the applied rules are propagated from the changed files' symbols.
 */
import type { ChainRule, RuleAtom } from "../../../domain/inference/rules.ts";
import { PegasError } from "../../../errors.ts";
import { log } from "../../../log.ts";
import type { CodeStore, ResolveOutcome } from "../../../ports/store/code-store.ts";
import type { InferenceStore, InferLimits, InferOutcome } from "../../../ports/store/inference.ts";
import type { Database } from "../database.ts";
import { guard, mapSqlError } from "../errors.ts";
import { fixpoint, loadRelation } from "./eval.ts";
import { kindsOf, propagateFromNodes, retractStalePremises } from "./tms.ts";
import { signalOutbox } from "../outbox/signal.ts";

/** Most rule atoms read at once. */
const MAX_RULES = 1000;

/** InferenceStore implementation over a {@link Database}. */
export class SqlInferenceStore implements InferenceStore {
  constructor(readonly db: Database) {}

  ruleAtoms(ids?: number[]): Promise<{ atoms: RuleAtom[]; missing: number[] }> {
    return guard(this.db, "read rule atoms", async (sql) => {
      const rows = ids
        ? await sql`SELECT id, type, status, claim, content FROM pm_atom WHERE id = ANY(${ids}::bigint[]) ORDER BY id LIMIT ${MAX_RULES}`
        : await sql`SELECT id, type, status, claim, content FROM pm_atom WHERE type = 'logical_rule' ORDER BY id LIMIT ${MAX_RULES}`;
      const atoms = rows.map((r) => ({
        id: Number(r.id),
        type: String(r.type),
        status: String(r.status),
        claim: String(r.claim),
        content: String(r.content),
      }));
      const found = new Set(atoms.map((a) => a.id));
      return { atoms, missing: (ids ?? []).filter((id) => !found.has(id)) };
    });
  }

  async infer(
    rules: ChainRule[],
    limits: InferLimits,
    signal?: AbortSignal,
    onRound?: (round: number, edgesSoFar: number) => void,
  ): Promise<InferOutcome> {
    const t0 = performance.now();
    if (!rules.length) return { rules: [], iterations: 0, edgesAdded: 0, skipped: 0, retracted: 0, tookMs: 0 };
    const r = await guard(
      this.db,
      "infer rules",
      (sql) =>
        sql.begin(async (tx) => {
          // One run at a time: two concurrent fixpoints would each store the same derived code dependencies.
          await tx`SELECT pg_advisory_xact_lock(hashtextextended('pm_inference', 0))`;
          const swept = await retractStalePremises(tx);
          await loadRelation(tx, kindsOf(rules));
          const out = {
            ...(await fixpoint(tx, rules, { mode: "full", limits, signal, onRound })),
            retracted: swept.retracted - swept.rederived,
          };
          await tx`
          INSERT INTO pm_inference_rule (rule_atom_id, body, head)
          SELECT i, b::text[], h FROM unnest(${rules.map((x) => x.ruleAtomId)}::bigint[], ${rules.map((x) => `{${x.body.join(",")}}`)}::text[], ${rules.map((x) => x.head)}::text[])
              AS x(i, b, h)
          ON CONFLICT (rule_atom_id) DO UPDATE SET body = EXCLUDED.body, head = EXCLUDED.head, applied_at = now()`;
          return out;
        }) as Promise<Awaited<ReturnType<typeof fixpoint>> & { retracted: number }>,
    );
    signalOutbox();
    const edgesAdded = r.rules.reduce((n, x) => n + x.edgesAdded, 0);
    const skipped = r.rules.reduce((n, x) => n + x.skipped, 0);
    return {
      rules: r.rules,
      iterations: r.iterations,
      edgesAdded,
      skipped,
      retracted: r.retracted,
      tookMs: Math.round(performance.now() - t0),
    };
  }
}

/** Caps of the propagation after a code store (a failure there is logged; memory_infer completes it later). */
export const PROPAGATION_LIMITS: InferLimits = { maxIterations: 50, maxNewEdges: 100_000 };

/**
 * Wraps `code` so that its `resolveDependencies` (the last step of every memory_store_code) is followed by
 * incremental inference from the symbols of the changed files, in its own transaction: edges derivable through the
 * files' new rows (new ids, targets resolved only now) are derived again, so that after a store the derived edges are
 * those of the new code. A failure of that step is logged, not thrown: the code is stored, and memory_infer derives
 * what is missing. Every other method is `code`'s own (prototype delegation).
 */
export function inferringCodeStore(code: CodeStore, db: Database): CodeStore {
  const wrapped = Object.create(code) as CodeStore;
  wrapped.resolveDependencies = async (repo, changedPaths, onProgress, signal): Promise<ResolveOutcome> => {
    const out = await code.resolveDependencies(repo, changedPaths, onProgress, signal);
    if (changedPaths.length) await propagateAfterStore(db, repo, changedPaths);
    return out;
  };
  return wrapped;
}

async function propagateAfterStore(db: Database, repo: string, paths: string[]): Promise<void> {
  try {
    const r = await db.run(
      (sql) =>
        sql.begin(async (tx) => {
          const [any] = await tx`SELECT EXISTS (SELECT 1 FROM pm_inference_rule) AS yes`;
          if (!any.yes) return { added: 0, iterations: 0 };
          await tx`SELECT pg_advisory_xact_lock(hashtextextended('pm_inference', 0))`;
          const rows =
            await tx`SELECT 'symbol:' || id AS n FROM pm_code_symbol WHERE repo = ${repo} AND path = ANY(${paths}::text[])`;
          return propagateFromNodes(
            tx,
            rows.map((x) => String(x.n)),
            PROPAGATION_LIMITS,
          );
        }) as Promise<{ added: number; iterations: number }>,
    );
    if (r.added) {
      signalOutbox();
      log.info("rules propagated after a code store", { repo, added: r.added, iterations: r.iterations });
    }
  } catch (err) {
    const e = err instanceof PegasError ? err : mapSqlError(err, "propagate rules after a code store");
    log.warn("rules were not propagated after the code store; run memory_infer", {
      repo,
      code: e.code,
      message: e.message,
    });
  }
}
