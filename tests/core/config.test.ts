import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DEFAULT_EMBED_MODEL, loadConfig } from "../../src/config.ts";
import { maskUrl, redactConfig } from "../../src/config-redact.ts";
import { PegasError } from "../../src/errors.ts";

const home = mkdtempSync(join(tmpdir(), "pegas-config-"));
const baseEnv = { HOME: home };
afterAll(() => rmSync(home, { recursive: true, force: true }));

function withFile(toml: string): string {
  const dir = join(home, Math.random().toString(36).slice(2));
  mkdirSync(dir);
  const p = join(dir, "config.toml");
  writeFileSync(p, toml);
  return p;
}

describe("loadConfig", () => {
  test("defaults: embedded PGlite under XDG_DATA_HOME, local embedder, DESIGN's model name", () => {
    const c = loadConfig({ env: { ...baseEnv, XDG_DATA_HOME: "/srv/xdg" } });
    expect(c.data_dir).toBe("/srv/xdg/pegas-memory");
    expect(c.database_url).toBeUndefined();
    expect(c.ollama_host).toBeUndefined();
    expect(c.embed_model).toBe(DEFAULT_EMBED_MODEL);
    expect(c.migrate).toBe(true);
  });

  test("precedence: flags > config file > environment > defaults", () => {
    const file = withFile('data_dir = "/from/file"\nembed_model = "file-model"\nrrf_k = 30\n');
    const env = {
      ...baseEnv,
      PEGAS_DATA_DIR: "/from/env",
      PEGAS_EMBED_MODEL: "env-model",
      OLLAMA_HOST: "http://127.0.0.1:11434",
    };
    const c = loadConfig({ env, configPath: file, flags: { data_dir: "/from/flag" } });
    expect(c.data_dir).toBe("/from/flag");
    expect(c.embed_model).toBe("file-model");
    expect(c.rrf_k).toBe(30);
    expect(c.ollama_host).toBe("http://127.0.0.1:11434");
  });

  test("store_wait_ms: 5 s by default, PEGAS_STORE_WAIT_MS sets it, zero or a word is refused naming the key", () => {
    expect(loadConfig({ env: baseEnv }).store_wait_ms).toBe(5000);
    expect(loadConfig({ env: { ...baseEnv, PEGAS_STORE_WAIT_MS: "500" } }).store_wait_ms).toBe(500);
    for (const bad of ["0", "soon"]) {
      const err = (() => {
        try {
          loadConfig({ env: { ...baseEnv, PEGAS_STORE_WAIT_MS: bad } });
        } catch (e) {
          return e as PegasError;
        }
      })();
      expect([err?.code, err?.message.includes("store_wait_ms")]).toEqual(["INVALID_INPUT", true]);
    }
  });

  test("the default config file is read from XDG_CONFIG_HOME when it exists", () => {
    const dir = join(home, "xdg");
    const file = join(dir, "pegas-memory", "config.toml");
    mkdirSync(join(dir, "pegas-memory"), { recursive: true });
    writeFileSync(file, 'log_level = "debug"\n');
    expect(loadConfig({ env: { ...baseEnv, XDG_CONFIG_HOME: dir } }).log_level).toBe("debug");
  });

  test("PEGAS_DATABASE_URL wins over DATABASE_URL; ingest roots split on ':' and resolved", () => {
    const c = loadConfig({
      env: {
        ...baseEnv,
        DATABASE_URL: "postgres://a@h/db1",
        PEGAS_DATABASE_URL: "postgres://b@h/db2",
        PEGAS_INGEST_ROOTS: "/srv/docs:rel",
      },
    });
    expect(c.database_url).toBe("postgres://b@h/db2");
    expect(c.ingest_roots).toEqual(["/srv/docs", join(process.cwd(), "rel")]);
  });

  test("invalid values are refused naming the key", () => {
    const err = (() => {
      try {
        loadConfig({ env: { ...baseEnv, PROXY_URL: "ftp://x" } });
      } catch (e) {
        return e as PegasError;
      }
    })();
    expect(err).toBeInstanceOf(PegasError);
    expect(err!.message).toContain("proxy_url");
    expect(() => loadConfig({ env: baseEnv, configPath: withFile("unknown_key = 1\n") })).toThrow(PegasError);
    expect(() => loadConfig({ env: baseEnv, configPath: withFile("not = [valid") })).toThrow("not valid TOML");
    expect(() => loadConfig({ env: baseEnv, configPath: "/nonexistent/config.toml" })).toThrow("does not exist");
  });

  test("OLLAMA_HOST may omit the scheme, as Ollama itself allows", () => {
    expect(loadConfig({ env: { ...baseEnv, OLLAMA_HOST: "127.0.0.1:11434" } }).ollama_host).toBe(
      "http://127.0.0.1:11434",
    );
  });

  test("secrets are masked for display", () => {
    const c = loadConfig({
      env: { ...baseEnv, PEGAS_DATABASE_URL: "postgres://u:secret@h/db", PROXY_URL: "socks5://u:pw@127.0.0.1:1080" },
    });
    const shown = JSON.stringify(redactConfig(c));
    expect(shown).not.toContain("secret");
    expect(shown).not.toContain(":pw@");
  });

  test("maskUrl: a password with an unencoded @, secrets in the query string; URLs without secrets unchanged", () => {
    expect(maskUrl("postgres://x:p@ss_SECRET@127.0.0.1:1/y")).toBe("postgres://x:***@127.0.0.1:1/y");
    expect(maskUrl("postgres://x@127.0.0.1:1/y?password=SECRET&sslmode=require")).toBe(
      "postgres://x@127.0.0.1:1/y?password=***&sslmode=require",
    );
    expect(maskUrl("http://h:6333/?api_key=K1&x=1")).toBe("http://h:6333/?api_key=***&x=1");
    expect(maskUrl("bolt://neo:pw@h:7687")).toBe("bolt://neo:***@h:7687");
    expect(maskUrl("http://127.0.0.1:6333")).toBe("http://127.0.0.1:6333");
    expect(maskUrl("not a url://u:se@cret@h")).not.toContain("se@cret");
    const c = loadConfig({
      env: {
        ...baseEnv,
        PEGAS_DATABASE_URL: "postgres://u:p@ss_SECRET@h/db?sslpassword=TOPSECRET",
        PEGAS_HTTP_TOKEN: "token-of-sixteen-chars",
      },
    });
    const shown = JSON.stringify(redactConfig(c));
    for (const secret of ["ss_SECRET", "TOPSECRET", "token-of-sixteen-chars"]) expect(shown).not.toContain(secret);
  });
});
