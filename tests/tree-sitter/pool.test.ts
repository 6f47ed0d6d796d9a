/**
 * ExtractorPool (src/adapters/tree-sitter/pool.ts): extraction on worker threads gives exactly the in-process
 * result, errors cross the thread boundary with their code and message, a worker that dies or traps fails only the
 * file it was on (the files queued behind it are extracted by a new worker), compiled WebAssembly modules are posted
 * to each worker once, idle workers stop, close() cancels.
 */
import { afterEach, expect, test } from "bun:test";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { treeSitterExtractor } from "../../src/adapters/tree-sitter/extractor.ts";
import { ExtractorPool, PER_WORKER } from "../../src/adapters/tree-sitter/pool.ts";
import { PegasError } from "../../src/errors.ts";
import type { CodeLanguage } from "../../src/ports/models/symbol-extractor.ts";
import { HERE, snippet } from "./support.ts";

const CRASHING = join(HERE, "fixtures", "crashing-worker.ts");
const PROBE = join(HERE, "fixtures", "probe-worker.ts");
const PY = 'def f(x):\n    """Double x."""\n    return g(x) * 2\n';

const pools: ExtractorPool[] = [];
function pool(size: number, opts: { idleMs?: number; script?: string } = {}): ExtractorPool {
  const p = new ExtractorPool(size, opts);
  pools.push(p);
  return p;
}
afterEach(async () => {
  await Promise.all(pools.splice(0).map((p) => p.close()));
});

async function rejection(p: Promise<unknown>): Promise<PegasError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(PegasError);
  return err as PegasError;
}

test("every language's snippet, many at once on two workers, equals the in-process extraction", async () => {
  const cases = readdirSync(join(HERE, "snippets"))
    .sort()
    .flatMap((lang) =>
      readdirSync(join(HERE, "snippets", lang)).map((name): [CodeLanguage, string] => [
        lang as CodeLanguage,
        `${lang}/${name}`,
      ]),
    );
  expect(cases.length).toBe(12);
  const p = pool(2);
  const texts = cases.map(([, file]) => snippet(file));
  const viaPool = await Promise.all(cases.map(([lang, file], i) => p.extract(file, texts[i], lang)));
  const inProcess = treeSitterExtractor();
  for (let i = 0; i < cases.length; i++) {
    expect(viaPool[i]).toEqual(await inProcess.extract(cases[i][1], texts[i], cases[i][0]));
    expect(viaPool[i].symbols.length).toBeGreaterThan(0);
  }
  expect(p.running).toBe(2);
});

test("errors cross the thread with their code and message: unknown language, source over 8 MiB", async () => {
  const p = pool(1);
  const unknown = await rejection(p.extract("x.cob", "IDENTIFICATION DIVISION.", "cobol" as CodeLanguage));
  expect(unknown.code).toBe("UNSUPPORTED_MEDIA");
  expect(unknown.message).toContain("'cobol'");
  expect(unknown.hint).toContain("python");
  const huge = await rejection(p.extract("big.py", "x = 1\n".repeat(1_500_000), "python"));
  expect(huge.code).toBe("INVALID_INPUT");
  expect(huge.message).toContain("big.py");
  // A reported error does not cost the worker: the next file is extracted by the same thread.
  expect((await p.extract("ok.py", PY, "python")).symbols.map((s) => s.name)).toEqual(["f"]);
});

for (const [path, what] of [
  ["exit.py", "a worker that exits"],
  ["throw.py", "an uncaught error in a worker"],
  ["trap.py", "a fatal (non-PegasError) failure"],
] as const) {
  test(`${what} fails only that file; the files queued behind it go on in a new worker`, async () => {
    const p = pool(1, { script: CRASHING });
    const before = p.extract("a.py", PY, "python");
    const bad = p.extract(path, PY, "python");
    const after = Array.from({ length: PER_WORKER + 2 }, (_, i) => p.extract(`after${i}.py`, PY, "python"));
    expect((await before).symbols).toHaveLength(1);
    const err = await rejection(bad);
    expect(err.code).toBe("INTERNAL");
    expect(err.message).toContain(path === "trap.py" ? "unreachable" : `'${path}'`);
    for (const f of await Promise.all(after)) expect(f.symbols.map((s) => s.name)).toEqual(["f"]);
    expect(p.running).toBe(1);
  }, 30_000);
}

test("each worker is posted the compiled runtime and each grammar once, with the first file that needs them; a new worker gets them again", async () => {
  const p = pool(1, { script: PROBE });
  const sent = async () => JSON.parse((await p.extract("probe.py", "", "python")).module) as Array<[string, boolean]>;
  expect((await p.extract("a.py", PY, "python")).symbols.map((s) => s.name)).toEqual(["f"]);
  expect((await p.extract("b.js", "function g() {}\n", "javascript")).symbols.map((s) => s.name)).toEqual(["g"]);
  expect((await p.extract("c.py", PY, "python")).symbols.map((s) => s.name)).toEqual(["f"]);
  expect(await sent()).toEqual([
    ["runtime", true],
    ["python", true],
    ["javascript", true],
  ]);
  expect((await rejection(p.extract("exit.py", PY, "python"))).code).toBe("INTERNAL");
  expect(await sent()).toEqual([
    ["runtime", true],
    ["python", true],
  ]);
}, 30_000);

test("an idle worker stops after idleMs and starts again on demand", async () => {
  const p = pool(1, { idleMs: 100 });
  expect(p.running).toBe(0);
  expect((await p.extract("a.py", PY, "python")).symbols).toHaveLength(1);
  expect(p.running).toBe(1);
  await Bun.sleep(600);
  expect(p.running).toBe(0);
  expect((await p.extract("b.py", PY, "python")).symbols).toHaveLength(1);
  expect(p.running).toBe(1);
});

test("close() cancels what is queued and in flight; later calls fail with CANCELLED", async () => {
  const p = pool(1);
  const big = "def f(x):\n    return g(x)\n".repeat(20_000);
  const pending = Array.from({ length: 5 }, (_, i) => p.extract(`f${i}.py`, big, "python"));
  await p.close();
  for (const r of pending) expect((await rejection(r)).code).toBe("CANCELLED");
  expect((await rejection(p.extract("late.py", PY, "python"))).code).toBe("CANCELLED");
  expect(p.running).toBe(0);
});

test("a pool needs at least one worker", () => {
  expect(() => new ExtractorPool(0)).toThrow(/at least one worker/);
});
