/**
 * Shared set-up of the Memgraph adapter tests: a Bolt stand-in with a MemgraphGraph connected to it through the real
 * neo4j-driver, and small readers of what the stand-in recorded.
 */
import { afterAll, beforeAll, beforeEach } from "bun:test";
import { MemgraphGraph } from "../../src/adapters/memgraph/graph.ts";
import { BoltStandin, type BoltScriptEntry, type RecordedRun } from "../support/bolt-standin.ts";
import { toJs } from "../support/packstream.ts";

/** A stand-in and an adapter on it. */
export interface StandinGraph {
  standin: BoltStandin;
  graph: MemgraphGraph;
  close(): Promise<void>;
}

/** Starts a stand-in with `script` and an adapter on it (timeout `timeoutMs`, default 5 s). */
export async function openStandinGraph(script: BoltScriptEntry[] = [], timeoutMs = 5_000): Promise<StandinGraph> {
  const standin = await BoltStandin.start({ script });
  const graph = new MemgraphGraph({ url: standin.url, timeoutMs });
  return {
    standin,
    graph,
    async close() {
      await graph.close();
      await standin.stop();
    },
  };
}

/**
 * One stand-in graph for a test file, opened in beforeAll, closed in afterAll, with its recording and script cleared
 * before each test. Reading it before beforeAll ran throws.
 */
export function suiteStandinGraph(): { readonly current: StandinGraph } {
  let t: StandinGraph | undefined;
  beforeAll(async () => {
    t = await openStandinGraph();
  });
  afterAll(async () => {
    await t?.close();
  });
  beforeEach(() => {
    t!.standin.clear();
    t!.standin.script = [];
  });
  return {
    get current() {
      if (!t) throw new Error("the stand-in graph is not open");
      return t;
    },
  };
}

/** The recorded RUNs whose query text matches `re`. */
export function runsMatching(s: BoltStandin, re: RegExp): RecordedRun[] {
  return s.runs.filter((r) => re.test(r.query));
}

/** The one recorded RUN matching `re` (throws when there are none or several). */
export function onlyRun(s: BoltStandin, re: RegExp): RecordedRun {
  const found = runsMatching(s, re);
  if (found.length !== 1)
    throw new Error(`expected one RUN matching ${re}, got ${found.length}: ${s.runs.map((r) => r.query).join(" | ")}`);
  return found[0];
}

/** A parameter in plain JS (Integers as bigint). */
export function param(run: RecordedRun, name: string): unknown {
  const v = run.params[name];
  if (!v) throw new Error(`RUN has no parameter $${name}: ${run.query}`);
  return toJs(v);
}

/** Names of the messages received, in order, leaving out the connection set-up (HELLO, LOGON) and RESETs. */
export function flow(s: BoltStandin): string[] {
  return s.messages.map((m) => m.name).filter((n) => !["HELLO", "LOGON", "RESET", "GOODBYE"].includes(n));
}
