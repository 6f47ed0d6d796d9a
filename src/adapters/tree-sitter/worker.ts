/**
 * The extraction worker thread of {@link ExtractorPool} (pool.ts): receives {@link ExtractRequest}s, runs the
 * in-process tree-sitter extractor on each, one at a time, and answers with an {@link ExtractReply}. The runtime and
 * grammar modules come compiled with the requests that first need them (grammars.ts adoptCompiled). A build with
 * `bun build --compile` must list this file as an extra entrypoint (package.json `build`; DESIGN.md).
 */
import { PegasError, toPegasError } from "../../errors.ts";
import { treeSitterExtractor } from "./extractor.ts";
import { adoptCompiled } from "./grammars.ts";
import type { ExtractReply, ExtractRequest } from "./pool.ts";

declare const self: Worker;

/** Requests are taken strictly one after another (the pool counts on answers in request order). */
let chain: Promise<void> = Promise.resolve();

self.onmessage = (event: MessageEvent<ExtractRequest>) => {
  chain = chain.then(() => handle(event.data));
};

async function handle({ id, path, source, language, wasm }: ExtractRequest): Promise<void> {
  for (const [which, mod] of wasm ?? []) adoptCompiled(which, mod); // compiled once by the pool, shared (grammars.ts)
  let reply: ExtractReply;
  try {
    reply = { id, ok: true, file: await treeSitterExtractor().extract(path, source, language) };
  } catch (err) {
    const e = toPegasError(err);
    // Anything but our own error (a WebAssembly trap, an abort) may leave the runtime unusable: retire the thread.
    reply = {
      id,
      ok: false,
      error: { code: e.code, message: e.message, hint: e.hint },
      fatal: !(err instanceof PegasError),
    };
  }
  postMessage(reply);
}
