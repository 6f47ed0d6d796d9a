/**
 * deploy/pegas-memory.env stays complete and valid: every environment variable the configuration reads is
 * documented there with an example, the examples pass the configuration's own validation, and no secret is active.
 */
import { describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { envLayer, loadConfig } from "../../src/config.ts";

const ROOT = resolve(import.meta.dir, "../..");
const TEMPLATE = readFileSync(join(ROOT, "deploy", "pegas-memory.env"), "utf8");

/**
 * The variables of config.ts's ENV_KEYS, found without a copy of the list: every upper-case string literal in
 * config.ts that envLayer maps to a configuration key. A variable added to ENV_KEYS is found here at once.
 */
function configEnvVars(): string[] {
  const source = readFileSync(join(ROOT, "src", "config.ts"), "utf8");
  const literals = new Set([...source.matchAll(/"([A-Z][A-Z0-9_]{2,})"/g)].map((m) => m[1]!));
  return [...literals].filter((name) => Object.keys(envLayer({ [name]: "x" })).length === 1).sort();
}

/** KEY=value lines of the template: active ones, and commented examples (`# KEY=value`). */
function templateLines(): { active: Map<string, string>; examples: Map<string, string> } {
  const active = new Map<string, string>();
  const examples = new Map<string, string>();
  for (const line of TEMPLATE.split("\n")) {
    const a = /^([A-Z_][A-Z0-9_]*)=(.*)$/.exec(line);
    if (a) active.set(a[1]!, a[2]!);
    const e = /^# ([A-Z_][A-Z0-9_]*)=(.*)$/.exec(line);
    if (e) examples.set(e[1]!, e[2]!);
  }
  return { active, examples };
}

describe("deploy/pegas-memory.env", () => {
  test("the discovery finds ENV_KEYS (a sanity floor, not the list itself)", () => {
    const vars = configEnvVars();
    expect(vars).toContain("PEGAS_DATABASE_URL");
    expect(vars).toContain("PEGAS_HTTP_TOKEN");
    expect(vars.length).toBeGreaterThanOrEqual(20);
  });

  test("every variable of ENV_KEYS has an example line and a description", () => {
    const { active, examples } = templateLines();
    const comments = TEMPLATE.split("\n").filter((l) => l.startsWith("#") && !/^# [A-Z_][A-Z0-9_]*=/.test(l));
    const missing = configEnvVars().filter((name) => !active.has(name) && !examples.has(name));
    const undocumented = configEnvVars().filter((name) => !comments.some((c) => new RegExp(`\\b${name}\\b`).test(c)));
    expect({ missing, undocumented }).toEqual({ missing: [], undocumented: [] });
  });

  test("the template names no variable that the configuration does not read", () => {
    const { active, examples } = templateLines();
    const known = new Set(configEnvVars());
    const stray = [...active.keys(), ...examples.keys()].filter((k) => !known.has(k));
    expect(stray).toEqual([]);
  });

  test("active lines and every example pass the configuration's validation", () => {
    const { active, examples } = templateLines();
    const dir = mkdtempSync(join(tmpdir(), "pegas-envtpl-"));
    const unquote = (v: string) => v.replace(/^"(.*)"$/, "$1");
    const env = Object.fromEntries([...examples, ...active].map(([k, v]) => [k, unquote(v)]));
    const cfg = loadConfig({ env: { ...env, HOME: dir, XDG_CONFIG_HOME: join(dir, "config") } });
    expect(cfg.data_dir).toBe(active.get("PEGAS_DATA_DIR")!);
    expect(cfg.http).toBe(active.get("PEGAS_HTTP")!);
    expect(cfg.http_token).toBe(examples.get("PEGAS_HTTP_TOKEN")!);
    expect(cfg.database_url).toBe(examples.get("PEGAS_DATABASE_URL")!);
    expect(cfg.ingest_roots).toEqual(examples.get("PEGAS_INGEST_ROOTS")!.split(":"));
  });

  test("secrets are commented out", () => {
    const { active } = templateLines();
    const secrets = [...active].filter(([k, v]) => /(TOKEN|PASSWORD|API_KEY)$/.test(k) || /\/\/[^/@]*:[^/@]*@/.test(v));
    expect(secrets).toEqual([]);
  });
});
