/** Helpers of the doctor tests: run `doctor --json` in-process and pick checks out of its report. */
import { expect } from "bun:test";
import type { Cli } from "../../src/cli/args.ts";
import { runDoctor } from "../../src/cli/doctor-command.ts";
import type { Config } from "../../src/config.ts";
import type { DoctorCheck, DoctorReport } from "../../src/wiring/doctor/check.ts";
import { capture } from "../support/capture.ts";

/** A parsed command line of `command` with `values`. */
export const cli = (command: string, values: Cli["values"] = {}, positionals: string[] = []): Cli => ({
  command,
  positionals,
  values,
  flags: {},
});

/** Runs `doctor --json`: exit status, parsed report, stderr, wall time (ms). */
export async function doctorJson(
  config: Config,
): Promise<{ code: number; report: DoctorReport; err: string; ms: number }> {
  const t0 = performance.now();
  const r = await capture(() => runDoctor(config, cli("doctor", { json: true })));
  return { code: r.code, report: JSON.parse(r.out) as DoctorReport, err: r.err, ms: performance.now() - t0 };
}

/** The check named `name` (the test fails when it is absent or appears twice). */
export function checkOf(report: DoctorReport, name: string): DoctorCheck {
  const found = report.checks.filter((c) => c.name === name);
  expect(found.map((c) => c.name)).toEqual([name]);
  return found[0];
}

/** Names of the failed checks. */
export const failures = (report: DoctorReport): string[] =>
  report.checks.filter((c) => c.level === "fail").map((c) => c.name);
