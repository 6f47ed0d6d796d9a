/**
 * Doctor's checks of the HTTP and TCP dependencies: Ollama (`GET /api/version`; `GET /api/tags` for whether
 * embed_model and llm_model are pulled; nothing is loaded), the search backend (search_url answers HTTP) and the
 * proxy (proxy_url accepts a connection; a SOCKS5 proxy also answers the greeting).
 */
import { createConnection } from "node:net";
import type { Config } from "../../config.ts";
import { maskUrl } from "../../config-redact.ts";
import {
  check,
  describeError,
  type DoctorCheck,
  failed,
  PROBE_TIMEOUT_MS,
  ProbeTimeout,
  withTimeout,
} from "./check.ts";

/** GET `url` within the deadline; the response with its body read as text (at most what fits the deadline). */
async function httpGet(url: string): Promise<{ status: number; body: string }> {
  const res = await fetch(url, { signal: AbortSignal.timeout(PROBE_TIMEOUT_MS), redirect: "manual" }).catch((err) => {
    throw (err as Error)?.name === "TimeoutError" ? new ProbeTimeout(maskUrl(url), PROBE_TIMEOUT_MS) : err;
  });
  return { status: res.status, body: await res.text() };
}

/** Ollama names a model without a tag `<name>:latest`. */
function tagged(model: string): string {
  return /:[^/]*$/.test(model) ? model : `${model}:latest`;
}

/** The models Ollama at `base` holds (names with tags), from /api/tags. */
async function pulledModels(base: string): Promise<Set<string>> {
  const r = await httpGet(`${base}/api/tags`);
  if (r.status !== 200) throw new Error(`GET /api/tags answered HTTP ${r.status}`);
  const models = (JSON.parse(r.body) as { models?: Array<{ name?: string; model?: string }> }).models ?? [];
  return new Set(
    models
      .flatMap((m) => [m.name, m.model])
      .filter((n): n is string => typeof n === "string")
      .map(tagged),
  );
}

/** The `ollama_models` check: every model the configuration names must be pulled. */
async function checkModels(config: Config, base: string, shown: string): Promise<DoctorCheck> {
  const wanted = [
    ["embed_model", config.embed_model],
    ...(config.llm_model ? [["llm_model", config.llm_model]] : []),
  ] as Array<[string, string]>;
  let pulled: Set<string>;
  try {
    pulled = await pulledModels(base);
  } catch (err) {
    return failed("ollama_models", err, "check Ollama's log", `cannot list the models of Ollama at ${shown}: `);
  }
  const missing = wanted.filter(([, m]) => !pulled.has(tagged(m)));
  const named = wanted.map(([k, m]) => `${k} '${m}'`).join(", ");
  if (!missing.length) return check("ollama_models", "ok", `pulled: ${named}`);
  const list = missing.map(([k, m]) => `${k} '${m}'`).join(", ");
  return check("ollama_models", "fail", `not pulled on ${shown}: ${list} (it holds ${pulled.size} model(s))`, {
    hint: `run ${missing.map(([, m]) => `\`ollama pull ${m}\``).join(" and ")} there, or set PEGAS_EMBED_MODEL / PEGAS_LLM_MODEL to models it holds`,
  });
}

/** The `ollama` and `ollama_models` checks; "not configured" when ollama_host is unset. */
export async function probeOllama(config: Config): Promise<DoctorCheck[]> {
  if (!config.ollama_host) {
    return [
      check(
        "ollama",
        "info",
        "not configured: the local lexical embedder and the heuristic distiller are used (no model weights)",
      ),
    ];
  }
  const base = config.ollama_host.replace(/\/+$/, "");
  const shown = maskUrl(base);
  const hint = "start Ollama (`ollama serve`), or fix OLLAMA_HOST (ollama_host)";
  try {
    const r = await httpGet(`${base}/api/version`);
    if (r.status !== 200)
      return [failed("ollama", new Error(`GET /api/version answered HTTP ${r.status}`), hint, `Ollama at ${shown}: `)];
    const version = String((JSON.parse(r.body) as { version?: unknown }).version ?? "unknown");
    return [
      check("ollama", "ok", `Ollama ${version} at ${shown}`, { version }),
      await checkModels(config, base, shown),
    ];
  } catch (err) {
    return [
      failed("ollama", err, hint, `cannot reach Ollama at ${shown}: `),
      check("ollama_models", "info", "skipped: Ollama is unreachable"),
    ];
  }
}

/** The `search` check: the search backend answers HTTP below 500 at its base URL. */
export async function probeSearch(config: Config): Promise<DoctorCheck[]> {
  if (!config.search_url)
    return [
      check(
        "search",
        "info",
        "not configured: `pegas-memory research` needs PEGAS_SEARCH_URL (a SearxNG-compatible backend)",
      ),
    ];
  const shown = maskUrl(config.search_url);
  const hint = "start the search backend, or fix PEGAS_SEARCH_URL (search_url)";
  try {
    const r = await httpGet(config.search_url);
    if (r.status >= 500)
      return [failed("search", new Error(`HTTP ${r.status}`), hint, `the search backend at ${shown} answered `)];
    return [check("search", "ok", `the search backend at ${shown} answered HTTP ${r.status}`)];
  } catch (err) {
    return [failed("search", err, hint, `cannot reach the search backend at ${shown}: `)];
  }
}

/** Connects to `host:port`; for SOCKS5 sends the greeting (methods: none, user/password) and expects version 5 back. */
function tcpProbe(host: string, port: number, socks: boolean): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = createConnection({ host, port });
    const done = (err: Error | null, what = "") => {
      clearTimeout(timer);
      socket.destroy();
      if (err) reject(err);
      else resolve(what);
    };
    const timer = setTimeout(() => done(new ProbeTimeout(`${host}:${port}`, PROBE_TIMEOUT_MS)), PROBE_TIMEOUT_MS);
    socket.once("error", (err) => done(err));
    socket.once("connect", () => {
      if (!socks) return done(null, "accepts connections");
      socket.write(Buffer.from([5, 2, 0, 2]));
      socket.once("data", (b: Buffer) =>
        b[0] === 5
          ? done(null, "answers as a SOCKS5 proxy")
          : done(new Error(`answered the SOCKS5 greeting with byte ${b[0]}, not 5: not a SOCKS5 proxy`)),
      );
    });
  });
}

/** The `proxy` check (proxy_url, used by URL ingest and research). */
export async function probeProxy(config: Config): Promise<DoctorCheck[]> {
  if (!config.proxy_url) return [check("proxy", "info", "not configured: URL ingest connects directly")];
  const shown = maskUrl(config.proxy_url);
  const url = new URL(config.proxy_url);
  const socks = url.protocol.startsWith("socks");
  const port = Number(url.port) || (socks ? 1080 : url.protocol === "https:" ? 443 : 80);
  const host = url.hostname.replace(/^\[|\]$/g, "");
  try {
    const what = await withTimeout(tcpProbe(host, port, socks), PROBE_TIMEOUT_MS + 500, shown);
    return [check("proxy", "ok", `the proxy at ${shown} ${what}`)];
  } catch (err) {
    return [
      check("proxy", "fail", `cannot use the proxy at ${shown}: ${describeError(err)}`, {
        hint: "start the proxy, or fix PROXY_URL (proxy_url)",
      }),
    ];
  }
}
