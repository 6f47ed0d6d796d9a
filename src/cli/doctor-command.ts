/**
 * `pegas-memory doctor [--json]`: the resolved configuration (secrets masked) and one verdict per dependency, on
 * stdout; exit 0 when nothing failed (warnings allowed), 1 when a check failed (each failure also named on stderr).
 */
import type { Config } from "../config.ts";
import type { DoctorCheck, DoctorReport } from "../wiring/doctor/check.ts";
import { runDoctorChecks } from "../wiring/doctor/run.ts";
import type { Cli } from "./args.ts";
import { out, outJson } from "./output.ts";

const MARK: Record<DoctorCheck["level"], string> = { ok: "ok  ", info: "-   ", warn: "WARN", fail: "FAIL" };

function configLines(config: Record<string, unknown>): string[] {
  return Object.entries(config)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `  ${k} = ${typeof v === "string" ? v : JSON.stringify(v)}`);
}

/** The report as people read it: configuration, one line per check (hint below), a summary. */
export function formatDoctorReport(r: DoctorReport): string {
  const width = Math.max(...r.checks.map((c) => c.name.length));
  const lines = [`pegas-memory ${r.version} doctor`, "", "configuration:", ...configLines(r.config), "", "checks:"];
  for (const c of r.checks) {
    lines.push(`  ${MARK[c.level]}  ${c.name.padEnd(width)}  ${c.detail}`);
    if (c.hint && c.level !== "ok") lines.push(`        ${" ".repeat(width)}  → ${c.hint}`);
  }
  const fails = r.checks.filter((c) => c.level === "fail").length;
  const warns = r.checks.filter((c) => c.level === "warn").length;
  lines.push("", `${r.ok ? "ok" : "FAILED"}: ${fails} failure(s), ${warns} warning(s) in ${r.elapsed_ms} ms`);
  return lines.join("\n");
}

/** `doctor`: runs every check; the report on stdout (JSON with --json), failures named on stderr; exit 1 on any failure. */
export async function runDoctor(config: Config, cli: Cli): Promise<number> {
  const report = await runDoctorChecks(config);
  if (cli.values.json) outJson(report);
  else out(formatDoctorReport(report));
  for (const c of report.checks.filter((c) => c.level === "fail")) {
    const stop = /[.!?]$/.test(c.detail) ? " " : ". ";
    process.stderr.write(`doctor: ${c.name}: ${c.detail}${c.hint ? `${stop}${c.hint}` : ""}\n`);
  }
  return report.ok ? 0 : 1;
}
