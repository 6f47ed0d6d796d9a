/**
 * Memory stays flat over a 10,000-file walk (gated: PEGAS_TEST_CODE_10K=1, about a minute on PostgreSQL): generated
 * Python files with documented functions, imports and calls, stored with the real extractor; the JS heap is sampled
 * through the progress notifications and must not grow with the number of files walked.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { storeCode } from "../../src/core/code-ingest.ts";
import { codeSuite } from "./support.ts";

const FILES = 10_000;
const gate = process.env.PEGAS_TEST_CODE_10K === "1" ? null : "set PEGAS_TEST_CODE_10K=1 to run the 10,000-file memory test";
if (gate) console.warn(`skipped: ${gate}`);

describe.skipIf(gate !== null)("10,000-file walk", () => {
  const suite = codeSuite("postgres");
  const dir = mkdtempSync(join(tmpdir(), "pegas-code-10k-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test("heap after 10,000 files is within 64 MiB of the heap after 2,000", async () => {
    if (suite.skip) return console.warn(`skipped: ${suite.skip}`);
    for (let i = 0; i < FILES; i++) {
      const pkg = join(dir, `pkg${Math.floor(i / 100)}`);
      if (i % 100 === 0) mkdirSync(pkg, { recursive: true });
      writeFileSync(join(pkg, `mod${i % 100}.py`), [
        `"""Module ${i}."""`, `from .mod${(i + 1) % 100} import helper_${(i + 1) % 100}`, "",
        `def helper_${i % 100}(value):`, `    """Return value plus ${i}."""`, `    return helper_${(i + 1) % 100}(value) + ${i}`, "",
        `class Thing${i}:`, `    """A thing numbered ${i}."""`, "", "    def run(self, x):", '        """Run the thing."""', `        return self.step(x)`, "",
        "    def step(self, x):", "        return x * 2", "",
      ].join("\n"));
    }
    const heap: Array<[number, number]> = [];
    let next = 0;
    Bun.gc(true);
    const t0 = performance.now();
    const r = await storeCode(suite.s!, { path: dir }, {
      trustedPath: true,
      onProgress: (seen) => {
        if (seen < next) return;
        next = seen + 1000;
        Bun.gc(true);
        heap.push([seen, process.memoryUsage().heapUsed]);
      },
    });
    const mb = (b: number) => Math.round(b / 2 ** 20);
    console.log(`10k walk: ${r.files.parsed} parsed in ${((performance.now() - t0) / 1000).toFixed(1)} s; heap MiB by files seen: ` +
      heap.map(([n, b]) => `${n}:${mb(b)}`).join(" ") + `; rss ${mb(process.memoryUsage().rss)} MiB`);
    expect(r.files.parsed).toBe(FILES);
    const at2k = heap.find(([n]) => n >= 2000)![1];
    const last = heap.at(-1)![1];
    expect(last - at2k).toBeLessThan(64 * 2 ** 20);
  }, 900_000);
});
