/**
 * Lint of what cannot run here (no Docker engine): the Dockerfile with dockerfile-utils' validator plus the
 * project's own rules (non-root runtime, health check, HTTP address and token, build context vs .dockerignore),
 * deploy/compose.yaml with dclint (the current compose-spec JSON schema, errors only), and the dsh profile snippet.
 * Each linter is first shown a broken input, so a linter that accepts everything fails the test.
 */
import { describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { validate } from "dockerfile-utils";
import { parse } from "yaml";
import { COMMANDS } from "../../src/cli/args.ts";

const ROOT = resolve(import.meta.dir, "../..");
const DOCKERFILE = readFileSync(join(ROOT, "Dockerfile"), "utf8");

/** Instructions of a Dockerfile with continuation lines joined: [{ op, args }]. */
function instructions(text: string): Array<{ op: string; args: string }> {
  return text
    .replace(/\\\n/g, " ")
    .split("\n")
    .filter((l) => l.trim() && !l.trim().startsWith("#"))
    .map((l) => {
      const m = /^\s*(\w+)\s+(.*)$/.exec(l)!;
      return { op: m[1]!.toUpperCase(), args: m[2]!.trim() };
    });
}

/** dclint's error-level findings for a compose file (schema violations included). */
function dclint(file: string): Array<{ rule: string; message: string }> {
  const bin = join(ROOT, "node_modules", ".bin", "dclint");
  const p = Bun.spawnSync([bin, "--quiet", "--formatter", "json", "--color=false", file], {
    stdout: "pipe",
    stderr: "pipe",
  });
  const report = JSON.parse(p.stdout.toString() || "[]") as Array<{
    messages: Array<{ rule: string; message: string }>;
  }>;
  return report.flatMap((r) => r.messages);
}

describe("Dockerfile", () => {
  test("the validator flags a broken Dockerfile", () => {
    const messages = validate("FROM node:20\nRUNN npm ci\nEXPOSE http\nHEALTHCHECK CMD\n").map((d) => d.message);
    expect(messages.length).toBeGreaterThanOrEqual(3);
  });

  test("passes dockerfile-utils' validation with no diagnostic", () => {
    expect(validate(DOCKERFILE).map((d) => `${d.range.start.line + 1}: ${d.message}`)).toEqual([]);
  });

  test("builds with npm in a Node.js stage and runs the executable alone, as a non-root user", () => {
    const ins = instructions(DOCKERFILE);
    const froms = ins.filter((i) => i.op === "FROM").map((i) => i.args);
    expect(froms).toHaveLength(2);
    expect(froms[0]).toMatch(/^node:\d+-\S+ AS build$/);
    for (const f of froms) expect(f.split(" ")[0]).toMatch(/:[\w.-]+$/); // an explicit tag, never implicit latest
    expect(ins.some((i) => i.op === "RUN" && i.args.includes("npm ci"))).toBe(true);
    expect(ins.some((i) => i.op === "RUN" && i.args.includes("npm run build"))).toBe(true);
    const runtime = ins.slice(ins.findLastIndex((i) => i.op === "FROM"));
    expect(runtime.filter((i) => i.op === "COPY").map((i) => i.args)).toEqual([
      "--from=build /src/dist/pegas-memory /usr/local/bin/pegas-memory",
    ]);
    const user = runtime.filter((i) => i.op === "USER").at(-1)?.args;
    expect(user).toBeDefined();
    expect(user).not.toMatch(/^(root|0)(:|$)/);
  });

  test("serves HTTP on the exposed port, with a health check and serve as the command", () => {
    const ins = instructions(DOCKERFILE);
    const env = ins
      .filter((i) => i.op === "ENV")
      .map((i) => i.args)
      .join(" ");
    const http = /PEGAS_HTTP=([^\s]+)/.exec(env)?.[1];
    expect(http).toBe("0.0.0.0:8765");
    expect(ins.find((i) => i.op === "EXPOSE")?.args).toBe(http!.split(":")[1]);
    const health = ins.find((i) => i.op === "HEALTHCHECK")!.args;
    const cmd = JSON.parse(health.slice(health.indexOf("CMD ") + 4)) as string[];
    expect(cmd).toEqual(["pegas-memory", "healthcheck"]);
    expect(COMMANDS).toContain("healthcheck");
    expect(JSON.parse(ins.find((i) => i.op === "ENTRYPOINT")!.args)).toEqual(["pegas-memory"]);
    expect(JSON.parse(ins.find((i) => i.op === "CMD")!.args)).toEqual(["serve"]);
    expect(ins.find((i) => i.op === "VOLUME")?.args).toContain(/PEGAS_DATA_DIR=([^\s]+)/.exec(env)![1]!);
    // 0.0.0.0 is beyond loopback: the image's documentation must say how to pass the token the server then requires.
    expect(DOCKERFILE).toContain("PEGAS_HTTP_TOKEN");
  });

  test("every path the build stage copies exists and is not excluded by .dockerignore", () => {
    const ignored = readFileSync(join(ROOT, ".dockerignore"), "utf8")
      .split("\n")
      .map((l) => l.trim())
      .filter((l) => l && !l.startsWith("#"));
    const sources = instructions(DOCKERFILE)
      .filter((i) => i.op === "COPY" && !i.args.startsWith("--from"))
      .flatMap((i) => i.args.split(/\s+/).slice(0, -1));
    expect(sources.length).toBeGreaterThanOrEqual(4);
    for (const s of sources) {
      expect(existsSync(join(ROOT, s))).toBe(true);
      expect(ignored.filter((g) => g === s || g === `${s}/` || g === `**/${s}`)).toEqual([]);
    }
    // Everything src/ imports at build time beyond src/ itself: the migrations and package.json (the version).
    expect(sources).toEqual(
      expect.arrayContaining(["package.json", "package-lock.json", "patches", "migrations", "src"]),
    );
  });
});

describe("deploy/compose.yaml", () => {
  const file = join(ROOT, "deploy", "compose.yaml");

  test("dclint flags a service key the compose spec does not know", () => {
    const bad = join(mkdtempSync(join(tmpdir(), "pegas-compose-")), "compose.yaml");
    writeFileSync(bad, readFileSync(file, "utf8").replace("stop_grace_period:", "stop_grace_perod:"));
    expect(dclint(bad).map((m) => m.rule)).toContain("invalid-schema");
  });

  test("has no dclint error (the compose-spec schema included)", () => {
    expect(dclint(file)).toEqual([]);
  });

  test("pegas-memory is built from the Dockerfile, behind the app profile, beside the engines", () => {
    const doc = parse(readFileSync(file, "utf8"));
    expect(Object.keys(doc.services).sort()).toEqual(["memgraph", "ollama", "pegas-memory", "postgres", "qdrant"]);
    const svc = doc.services["pegas-memory"];
    expect(svc.profiles).toEqual(["app"]);
    expect(existsSync(resolve(ROOT, "deploy", svc.build.context, svc.build.dockerfile))).toBe(true);
    expect(svc.environment.PEGAS_HTTP).toBe("0.0.0.0:8765");
    expect(svc.environment.PEGAS_HTTP_TOKEN).toMatch(/^\$\{PEGAS_HTTP_TOKEN/);
    expect(svc.ports).toEqual(["127.0.0.1:8765:8765"]);
    const pg = doc.services.postgres.environment;
    expect(svc.environment.PEGAS_DATABASE_URL).toBe(
      `postgres://${pg.POSTGRES_USER}:${pg.POSTGRES_PASSWORD}@postgres:5432/${pg.POSTGRES_DB}`,
    );
    expect(svc.depends_on.postgres.condition).toBe("service_healthy");
  });
});

describe("deploy/dsh-profile.yml", () => {
  test("is a dsh-mcp-client entry that runs the installed executable's serve over stdio", () => {
    const entries = parse(readFileSync(join(ROOT, "deploy", "dsh-profile.yml"), "utf8")) as Array<Record<string, any>>;
    expect(entries).toHaveLength(1);
    const [entry] = entries;
    expect(entry!.name).toBe("@deepseek-ai/dsh-mcp-client");
    const c = entry!.config;
    expect(c.serverName).toMatch(/^[A-Za-z0-9_-]{1,32}$/);
    expect(c.transport).toBe("stdio");
    expect(c.command).toBe("/usr/local/bin/pegas-memory");
    expect(c.args).toEqual(["serve"]);
    expect(Object.keys(c.env)).toContain("PROXY_URL");
    expect(Object.keys(c.env)).not.toContain("PEGAS_HTTP");
  });
});
