/**
 * The vocabulary of `pegas-memory doctor`: one named verdict per dependency or property (a check), the report they
 * make, and the helpers every probe uses (a deadline, error text that names the failure).
 */
import { networkCode } from "../../platform/network-codes.ts";
import { withDeadline } from "../../domain/deadline.ts";
import { PegasError } from "../../errors.ts";

/** ok = works; info = not configured, the embedded default is used (or skipped for a reason); warn = works, but look; fail = broken. */
export type CheckLevel = "ok" | "info" | "warn" | "fail";

/**
 * One verdict: `name` is stable (database, schema, embeddings, outbox, projections, qdrant, qdrant_collection,
 * memgraph, ollama, ollama_models, search, proxy); `ok` is false only for level `fail`; `detail` says what was
 * found, with values; `hint` says what to do; `version` is the dependency's own version when it reported one.
 */
export interface DoctorCheck {
  name: string;
  ok: boolean;
  level: CheckLevel;
  detail: string;
  hint?: string;
  version?: string;
}

/** The whole report: `ok` when no check failed; `config` is the resolved configuration with secrets masked. */
export interface DoctorReport {
  ok: boolean;
  version: string;
  elapsed_ms: number;
  checks: DoctorCheck[];
  config: Record<string, unknown>;
}

/** Deadline of one network probe, ms: a hung dependency costs doctor this much, not the driver's own timeout. */
export const PROBE_TIMEOUT_MS = 3000;

/** Builds a check; `ok` follows from the level. */
export function check(
  name: string,
  level: CheckLevel,
  detail: string,
  extra: { hint?: string; version?: string } = {},
): DoctorCheck {
  const c: DoctorCheck = { name, ok: level !== "fail", level, detail };
  if (extra.hint) c.hint = extra.hint;
  if (extra.version) c.version = extra.version;
  return c;
}

/** The error a probe gets when its dependency did not answer within the deadline. */
export class ProbeTimeout extends Error {
  constructor(
    readonly what: string,
    readonly ms: number,
  ) {
    super(`${what} did not answer within ${ms} ms`);
    this.name = "ProbeTimeout";
  }
}

/**
 * Settles like `p`, or rejects with {@link ProbeTimeout} after `ms`. `onLate` receives the value should `p` resolve
 * after the deadline (to close a connection that opened too late).
 */
export async function withTimeout<T>(p: Promise<T>, ms: number, what: string, onLate?: (value: T) => void): Promise<T> {
  let late = false;
  p.then(
    (v) => late && onLate?.(v),
    () => {},
  );
  return withDeadline(p, ms, () => {
    late = true;
    return new ProbeTimeout(what, ms);
  });
}

/** One line naming what failed: a PegasError's message, else the error's message with its network code (ECONNREFUSED …). */
export function describeError(err: unknown): string {
  if (err instanceof PegasError || err instanceof ProbeTimeout) return err.message;
  const message = err instanceof Error ? err.message : String(err);
  const code = networkCode(err) ?? (err as { code?: unknown } | null)?.code;
  return typeof code === "string" && !message.includes(code) ? `${message} (${code})` : message;
}

/** A failed check from an error: its description, and the PegasError's own hint before `hint`. */
export function failed(name: string, err: unknown, hint: string, prefix = ""): DoctorCheck {
  const own = err instanceof PegasError ? err.hint : undefined;
  return check(name, "fail", `${prefix}${describeError(err)}`, { hint: own ?? hint });
}

/** Runs a probe and turns anything it throws into a failed check named `name` (probes should not throw; this is the net). */
export async function guarded(name: string, hint: string, probe: () => Promise<DoctorCheck[]>): Promise<DoctorCheck[]> {
  try {
    return await probe();
  } catch (err) {
    return [failed(name, err, hint)];
  }
}
