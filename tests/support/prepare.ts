/**
 * Run before the tests (`npm test`'s pretest; `.ci/run` starts it while the checks run): builds the compiled
 * executable, the bare and the migrated PGlite templates and the fixtures store together, once per change of their
 * inputs (see once.ts), so that the parallel test processes find them made instead of one of them making them inside
 * a test's time limit while the other waits. Prints what it did.
 */
import { buildBinary } from "./binary.ts";
import { fixturesStoreTemplate } from "./fixtures-store.ts";
import { pgliteBareTemplate, pgliteTemplate } from "./services.ts";

const t0 = performance.now();
// The fixtures store is made from the migrated template, which is made from the bare one: one initdb in all.
const [bin, bare, template, fixtures] = await Promise.all([
  buildBinary(),
  pgliteBareTemplate(),
  pgliteTemplate(),
  fixturesStoreTemplate(),
]);
const s = ((performance.now() - t0) / 1000).toFixed(1);
console.log(
  `tests/support/prepare.ts: executable ${bin}, PGlite templates ${bare} (bare) and ${template}, fixtures store ${fixtures} (${s} s)`,
);
