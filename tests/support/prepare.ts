/**
 * Run before the tests (`npm test`'s pretest): builds the compiled executable and the migrated PGlite template
 * together, once per change of their inputs (see once.ts), so that the parallel test processes find them made
 * instead of one of them making them inside a test's time limit while the other waits. Prints what it did.
 */
import { buildBinary } from "./binary.ts";
import { pgliteTemplate } from "./services.ts";

const t0 = performance.now();
const [bin, template] = await Promise.all([buildBinary(), pgliteTemplate()]);
const s = ((performance.now() - t0) / 1000).toFixed(1);
console.log(`tests/support/prepare.ts: executable ${bin}, PGlite template ${template} (${s} s)`);
