/**
 * The pegas-memory executable: argv → command (src/cli/main.ts). The only caller of process.exit.
 */
import { main } from "./src/cli/main.ts";

/** Longest wait for the event loop to end by itself after a command (ms); a handle left open (a bug) is cut then. */
const EXIT_GRACE_MS = 3000;

// Under Bun, writes to a pipe are asynchronous: exiting right after them would cut a slow reader's output at 64 KiB.
main(process.argv.slice(2), (code) => process.exit(code)).then((code) => {
  process.exitCode = code;
  setTimeout(() => process.exit(code), EXIT_GRACE_MS).unref();
});
