/**
 * install.sh against the compiled executable, under a throwaway --prefix: it installs the executable, the
 * unit and the environment file, migrates the embedded database there, changes nothing on a second run, keeps the
 * owner's edits of the environment file, and --uninstall (--purge) leaves nothing behind but what it promises to keep.
 * Also: shellcheck on the script and systemd-analyze verify on the units it writes (skipped with a printed reason
 * when those tools are missing locally; CI installs shellcheck).
 */
import { beforeAll, describe, expect, test } from "bun:test";
import { appendFileSync, chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative, resolve } from "node:path";
import { LATEST_SCHEMA_VERSION } from "../../src/adapters/sql/migrations.ts";
import { buildBinary, isolatedEnv } from "../support/binary.ts";

const ROOT = resolve(import.meta.dir, "../..");
const SCRIPT = join(ROOT, "install.sh");
/** The latest migration's number (numbers may skip one a branch reserved). */
const MIGRATIONS = Math.max(
  ...readdirSync(join(ROOT, "migrations")).flatMap((f) => (/^(\d{4})_.*\.sql$/.exec(f) ? [Number(f.slice(0, 4))] : [])),
);

function which(tool: string): string | null {
  return Bun.which(tool);
}

/** Runs a command; resolves to its exit code and output. */
function sh(cmd: string[], env: Record<string, string> = {}): { code: number; out: string; err: string } {
  const p = Bun.spawnSync(cmd, {
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: process.env.HOME ?? "/root", ...env },
    stdout: "pipe",
    stderr: "pipe",
  });
  return { code: p.exitCode ?? -1, out: p.stdout.toString(), err: p.stderr.toString() };
}

/** Every path under `dir`, relative, sorted; the embedded database's own files summarized as their directory. */
function tree(dir: string, data = "var/lib/pegas-memory"): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const rel = relative(dir, join(d, e.name));
      out.push(rel);
      if (e.isDirectory() && rel !== data) walk(join(d, e.name));
    }
  };
  walk(dir);
  return out.sort();
}

/** systemd-analyze verify's complaints about a unit (it exits 0 even for unknown keys or bad values). */
function verifyUnit(unit: string): string[] {
  if (!which("systemd-analyze")) {
    console.warn("skipped: systemd-analyze is not installed; the unit was not verified");
    return [];
  }
  const r = sh(["systemd-analyze", "verify", "--man=no", unit]);
  const name = unit.slice(unit.lastIndexOf("/") + 1);
  const complaints = (r.out + r.err).split("\n").filter((l) => l.includes(name));
  return r.code === 0 ? complaints : [...complaints, `exit ${r.code}: ${r.err.trim()}`];
}

let bin = "";
beforeAll(async () => {
  bin = await buildBinary();
}, 300_000);

describe("install.sh", () => {
  test("passes shellcheck", () => {
    if (!which("shellcheck")) {
      console.warn("skipped: shellcheck is not installed (apt-get install shellcheck; .ci/run installs it)");
      return;
    }
    const r = sh(["shellcheck", "--severity=style", SCRIPT]);
    expect(r.out + r.err).toBe("");
    expect(r.code).toBe(0);
  });

  test("--help describes the options and exits 0", () => {
    const r = sh(["bash", SCRIPT, "--help"]);
    expect(r.code).toBe(0);
    for (const opt of ["--binary", "--prefix", "--uninstall", "--purge"]) expect(r.out).toContain(opt);
    expect(sh(["bash", SCRIPT, "--bogus"]).code).not.toBe(0);
  });

  test("installs under --prefix, migrates, is idempotent, keeps edits, uninstalls cleanly", () => {
    const prefix = mkdtempSync(join(tmpdir(), "pegas-install-"));
    const flavour = process.getuid?.() === 0 ? "system" : "user";
    const install = () => sh(["bash", SCRIPT, "--binary", bin, "--prefix", prefix]);

    const first = install();
    expect(first.err).toBe("");
    expect(first.code).toBe(0);
    // A fresh embedded data dir starts from the executable's migrated template: already at this build's version.
    expect(first.out).toMatch(
      new RegExp(
        `applied migration\\(s\\) [\\d, ]*${LATEST_SCHEMA_VERSION}\\b|schema is up to date \\(version ${LATEST_SCHEMA_VERSION}\\)`,
      ),
    );
    expect(tree(prefix)).toEqual([
      "bin",
      "bin/pegas-memory",
      "etc",
      "etc/pegas-memory",
      "etc/pegas-memory/pegas-memory.env",
      "lib",
      "lib/systemd",
      `lib/systemd/${flavour}`,
      `lib/systemd/${flavour}/pegas-memory-refresh.service`,
      `lib/systemd/${flavour}/pegas-memory-refresh.timer`,
      `lib/systemd/${flavour}/pegas-memory.service`,
      "var",
      "var/lib",
      "var/lib/pegas-memory",
    ]);
    expect(readFileSync(join(prefix, "bin/pegas-memory")).equals(readFileSync(bin))).toBe(true);
    expect(statSync(join(prefix, "etc/pegas-memory/pegas-memory.env")).mode & 0o777).toBe(0o600);
    expect(readFileSync(join(prefix, "etc/pegas-memory/pegas-memory.env"), "utf8")).toMatch(
      /a user install or --prefix makes it mode 0600,/,
    );

    const data = join(prefix, "var/lib/pegas-memory");
    const env = readFileSync(join(prefix, "etc/pegas-memory/pegas-memory.env"), "utf8");
    expect(env).toContain(`\nPEGAS_DATA_DIR=${data}\n`);
    const unit = readFileSync(join(prefix, `lib/systemd/${flavour}/pegas-memory.service`), "utf8");
    expect(unit).toContain(`\nExecStart=${prefix}/bin/pegas-memory serve\n`);
    expect(unit).toContain(`\nEnvironmentFile=${prefix}/etc/pegas-memory/pegas-memory.env\n`);
    if (flavour === "system") {
      expect(unit).toContain(`\nReadWritePaths=${data}\n`);
      // No service user is created under --prefix: the unit runs as root, who owns the data dir and the env file.
      expect(unit).not.toMatch(/^(User|Group)=/m);
      expect(unit).toContain("\n# --prefix install: runs as root");
      expect(unit).toContain("\nCapabilityBoundingSet=\n");
      expect(first.out).toContain(
        `note: --prefix: no service user was created and systemctl was not called; the unit runs as root (the owner of ${data})`,
      );
    } else expect(first.out).toContain("systemctl --user link");
    const uid = process.getuid?.() ?? -1;
    expect([statSync(data).uid, statSync(data).mode & 0o777]).toEqual([uid, 0o700]);
    expect(statSync(join(prefix, "etc/pegas-memory/pegas-memory.env")).uid).toBe(uid);
    expect(verifyUnit(join(prefix, `lib/systemd/${flavour}/pegas-memory.service`))).toEqual([]);
    // The daily refresh of URL sources: a oneshot with the same paths, started by its timer.
    const refresh = readFileSync(join(prefix, `lib/systemd/${flavour}/pegas-memory-refresh.service`), "utf8");
    expect(refresh).toContain(`\nExecStart=${prefix}/bin/pegas-memory refresh\n`);
    expect(refresh).toContain(`\nEnvironmentFile=${prefix}/etc/pegas-memory/pegas-memory.env\n`);
    expect(verifyUnit(join(prefix, `lib/systemd/${flavour}/pegas-memory-refresh.service`))).toEqual([]);
    expect(verifyUnit(join(prefix, `lib/systemd/${flavour}/pegas-memory-refresh.timer`))).toEqual([]);

    // The data dir holds a migrated database that the installed executable opens.
    const stats = sh([join(prefix, "bin/pegas-memory"), "--data-dir", data, "stats", "--json"], isolatedEnv(prefix));
    expect(stats.code).toBe(0);
    expect(JSON.parse(stats.out).schema_version).toBe(MIGRATIONS);

    // A re-install changes nothing, and the owner's edit of the environment file survives it.
    appendFileSync(join(prefix, "etc/pegas-memory/pegas-memory.env"), "PEGAS_LOG_LEVEL=warn\n");
    const again = install();
    expect(again.code).toBe(0);
    expect(again.out).toContain("nothing changed");
    expect(again.out).toContain("schema is up to date");
    expect(readFileSync(join(prefix, "etc/pegas-memory/pegas-memory.env"), "utf8")).toEndWith("PEGAS_LOG_LEVEL=warn\n");

    const removed = sh(["bash", SCRIPT, "--uninstall", "--prefix", prefix]);
    expect(removed.code).toBe(0);
    expect(tree(prefix)).toEqual([
      "etc",
      "etc/pegas-memory",
      "etc/pegas-memory/pegas-memory.env",
      "var",
      "var/lib",
      "var/lib/pegas-memory",
    ]);
    expect(sh(["bash", SCRIPT, "--uninstall", "--prefix", prefix]).out).toContain("nothing changed");

    const purged = sh(["bash", SCRIPT, "--uninstall", "--purge", "--prefix", prefix]);
    expect(purged.code).toBe(0);
    expect(tree(prefix)).toEqual([]);
  }, 180_000);

  test("a refused prefix or a missing executable creates nothing, not even the prefix", () => {
    const parent = mkdtempSync(join(tmpdir(), "pegas-install-refused-"));
    const spaced = sh(["bash", SCRIPT, "--binary", bin, "--prefix", join(parent, "with space")]);
    expect(spaced.code).toBe(1);
    expect(spaced.err).toContain("holds a space");
    const missing = sh([
      "bash",
      SCRIPT,
      "--binary",
      join(parent, "no-such-binary"),
      "--prefix",
      join(parent, "new/deeper"),
    ]);
    expect(missing.code).toBe(1);
    expect(missing.err).toContain("no executable at");
    const relative = sh(["bash", "-c", `cd '${parent}' && bash '${SCRIPT}' --binary ./none --prefix rel/dir`]);
    expect(relative.code).toBe(1);
    expect(readdirSync(parent)).toEqual([]);
  });

  test("a non-root install writes a user unit without the system-only block", () => {
    if (process.getuid?.() !== 0 || !which("setpriv")) {
      console.warn("skipped: needs root and setpriv to run install.sh as another user");
      return;
    }
    const prefix = mkdtempSync(join(tmpdir(), "pegas-install-user-"));
    chownSync(prefix, 65534, 65534);
    const r = sh(
      [
        "setpriv",
        "--reuid=65534",
        "--regid=65534",
        "--clear-groups",
        "bash",
        SCRIPT,
        "--binary",
        bin,
        "--prefix",
        prefix,
      ],
      { HOME: prefix },
    );
    expect(r.err).toBe("");
    expect(r.code).toBe(0);
    const unit = readFileSync(join(prefix, "lib/systemd/user/pegas-memory.service"), "utf8");
    expect(unit).not.toMatch(/^(User|Group|StateDirectory|ProtectSystem|SystemCallFilter)=/m);
    expect(unit).toContain("\nWantedBy=default.target\n");
    expect(unit).toContain("\nNoNewPrivileges=yes\n");
    expect(verifyUnit(join(prefix, "lib/systemd/user/pegas-memory.service"))).toEqual([]);
    const refresh = readFileSync(join(prefix, "lib/systemd/user/pegas-memory-refresh.service"), "utf8");
    expect(refresh).not.toMatch(/^(User|Group|StateDirectory|ProtectSystem|SystemCallFilter)=/m);
    expect(verifyUnit(join(prefix, "lib/systemd/user/pegas-memory-refresh.service"))).toEqual([]);
    expect(existsSync(join(prefix, "var/lib/pegas-memory/PG_VERSION"))).toBe(true);
    expect(statSync(join(prefix, "var/lib/pegas-memory")).uid).toBe(65534);
  }, 180_000);
});
