/**
 * Entry point of the pegas-memory executable: argv → command. The only caller of process.exit.
 */
import { parseCli, HELP } from "./cli/args.ts";
import { out } from "./cli/output.ts";
import { loadConfig } from "./config.ts";
import { toPegasError } from "./errors.ts";
import { log, setLogLevel } from "./log.ts";
import { VERSION } from "./version.ts";

/** Hard limit for shutdown after stdin closed or SIGTERM, in case a close hangs (ms). */
const EXIT_DEADLINE_MS = 5000;

async function run(argv: string[]): Promise<number> {
  const cli = parseCli(argv);
  if (cli.values.help) {
    out(HELP);
    return 0;
  }
  if (cli.values.version) {
    out(`pegas-memory ${VERSION}`);
    return 0;
  }
  // One-shot commands print their result on stdout; routine info logs would only clutter the terminal.
  const defaults = cli.command === "serve" ? {} : { log_level: "warn" };
  const config = loadConfig({ flags: cli.flags, configPath: cli.configPath, defaults });
  setLogLevel(config.log_level);
  switch (cli.command) {
    case "serve": {
      const { serve } = await import("./mcp/server.ts");
      return serve(config, () => setTimeout(() => process.exit(70), EXIT_DEADLINE_MS).unref());
    }
    case "migrate":
      return (await import("./cli/commands.ts")).runMigrate(config, cli);
    case "ingest":
      return (await import("./cli/commands.ts")).runIngest(config, cli);
    case "search":
      return (await import("./cli/commands.ts")).runSearch(config, cli);
    case "stats":
      return (await import("./cli/commands.ts")).runStats(config, cli);
    case "verify":
      return (await import("./cli/commands.ts")).runVerify(config, cli);
    case "distill":
      return (await import("./cli/knowledge-commands.ts")).runDistill(config, cli);
    case "unmerge":
      return (await import("./cli/knowledge-commands.ts")).runUnmerge(config, cli);
    case "sync":
      return (await import("./cli/projection-commands.ts")).runSync(config, cli);
    case "rebuild":
      return (await import("./cli/projection-commands.ts")).runRebuild(config, cli);
    case "reembed":
      return (await import("./cli/projection-commands.ts")).runReembed(config, cli);
    case "graph":
      return (await import("./cli/projection-commands.ts")).runGraph(config, cli);
    case "code":
      return (await import("./cli/code-commands.ts")).runCode(config, cli);
    case "code-search":
      return (await import("./cli/code-commands.ts")).runCodeSearch(config, cli);
    case "get":
      return (await import("./cli/recall-commands.ts")).runGet(config, cli);
    case "link":
      return (await import("./cli/recall-commands.ts")).runLink(config, cli);
    case "forget":
      return (await import("./cli/recall-commands.ts")).runForget(config, cli);
    case "context":
      return (await import("./cli/recall-commands.ts")).runContext(config, cli);
    case "infer":
      return (await import("./cli/infer-command.ts")).runInfer(config, cli);
    case "gaps":
      return (await import("./cli/gap-commands.ts")).runGaps(config, cli);
    case "gap-add":
      return (await import("./cli/gap-commands.ts")).runGapAdd(config, cli);
    case "research":
      return (await import("./cli/research-command.ts")).runResearch(config, cli);
    case "doctor":
      return (await import("./cli/doctor-command.ts")).runDoctor(config, cli);
    case "healthcheck":
      return (await import("./cli/healthcheck-command.ts")).runHealthcheck(config, cli);
    case "export":
      return (await import("./cli/export-commands.ts")).runExport(config, cli);
    case "import":
      return (await import("./cli/export-commands.ts")).runImport(config, cli);
    case "code-graph":
      return (await import("./cli/code-commands.ts")).runCodeGraph(config, cli);
  }
  return 64;
}

/**
 * Ends the process with `code` once stdout and stderr have delivered what was written: under Bun, writes to a pipe
 * are asynchronous and `process.exit` right after them cut a slow reader's output at 64 KiB. The event loop ends by
 * itself when the command closed everything; a handle left open (a bug) is cut after {@link EXIT_GRACE_MS}.
 */
function exitFlushed(code: number): void {
  process.exitCode = code;
  setTimeout(() => process.exit(code), EXIT_GRACE_MS).unref();
}

/** Longest wait for the event loop to end after a command (ms). */
const EXIT_GRACE_MS = 3000;

run(process.argv.slice(2)).then(
  (code) => exitFlushed(code),
  (err) => {
    const e = toPegasError(err);
    if (e.code === "INTERNAL") log.error("failed", { err: e.cause instanceof Error ? e.cause : e });
    process.stderr.write(`pegas-memory: ${e.code}: ${e.userMessage}\n`);
    return exitFlushed(e.exitCode);
  },
);
