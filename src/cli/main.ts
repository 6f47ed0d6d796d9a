/**
 * The commands of the pegas-memory executable: argv → command → exit code. main.ts at the root calls {@link main}
 * and is the only caller of process.exit.
 */
import { parseCli } from "./args.ts";
import { out } from "./output.ts";
import { toPegasError } from "../errors.ts";
import { log, setLogLevel } from "../log.ts";
import { VERSION } from "../version.ts";

/** Hard limit for shutdown after stdin closed or SIGTERM, in case a close hangs (ms). */
const EXIT_DEADLINE_MS = 5000;

async function run(argv: string[], exit: (code: number) => void): Promise<number> {
  const cli = parseCli(argv);
  // `--version` loads nothing more (no configuration, no schema library): it answers in the runtime's own start time.
  if (cli.values.version && !cli.values.help) {
    out(`pegas-memory ${VERSION}`);
    return 0;
  }
  const [{ checkUsage }, { loadConfig }] = await Promise.all([import("./help/usage.ts"), import("../config.ts")]);
  checkUsage(cli);
  if (cli.values.help) {
    out((await import("./help/render.ts")).helpText(cli));
    return 0;
  }
  // One-shot commands print their result on stdout; routine info logs would only clutter the terminal.
  const defaults = cli.command === "serve" ? {} : { log_level: "warn" };
  const config = loadConfig({ flags: cli.flags, configPath: cli.configPath, defaults });
  setLogLevel(config.log_level);
  // The embedded engine compiles while the command's modules load (src/wiring/prewarm.ts).
  if (!NO_STORE.has(cli.command)) await (await import("../wiring/prewarm.ts")).prewarmDatabase(config);
  switch (cli.command) {
    case "serve": {
      const { serve } = await import("./serve.ts");
      return serve(config, () => setTimeout(() => exit(70), EXIT_DEADLINE_MS).unref());
    }
    case "migrate":
      return (await import("./commands.ts")).runMigrate(config, cli);
    case "ingest":
      return (await import("./commands.ts")).runIngest(config, cli);
    case "search":
      return (await import("./commands.ts")).runSearch(config, cli);
    case "stats":
      return (await import("./commands.ts")).runStats(config, cli);
    case "verify":
      return (await import("./commands.ts")).runVerify(config, cli);
    case "distill":
      return (await import("./knowledge-commands.ts")).runDistill(config, cli);
    case "unmerge":
      return (await import("./knowledge-commands.ts")).runUnmerge(config, cli);
    case "sync":
      return (await import("./projection-commands.ts")).runSync(config, cli);
    case "rebuild":
      return (await import("./projection-commands.ts")).runRebuild(config, cli);
    case "reembed":
      return (await import("./projection-commands.ts")).runReembed(config, cli);
    case "graph":
      return (await import("./projection-commands.ts")).runGraph(config, cli);
    case "refresh":
      return (await import("./refresh-command.ts")).runRefresh(config, cli);
    case "reindex":
      return (await import("./entity-commands.ts")).runReindex(config, cli);
    case "code":
      return (await import("./code-commands.ts")).runCode(config, cli);
    case "code-search":
      return (await import("./code-commands.ts")).runCodeSearch(config, cli);
    case "get":
      return (await import("./recall-commands.ts")).runGet(config, cli);
    case "link":
      return (await import("./recall-commands.ts")).runLink(config, cli);
    case "forget":
      return (await import("./recall-commands.ts")).runForget(config, cli);
    case "context":
      return (await import("./recall-commands.ts")).runContext(config, cli);
    case "infer":
      return (await import("./infer-command.ts")).runInfer(config, cli);
    case "gaps":
      return (await import("./gap-commands.ts")).runGaps(config, cli);
    case "gap-add":
      return (await import("./gap-commands.ts")).runGapAdd(config, cli);
    case "research":
      return (await import("./research-command.ts")).runResearch(config, cli);
    case "doctor":
      return (await import("./doctor-command.ts")).runDoctor(config, cli);
    case "healthcheck":
      return (await import("./healthcheck-command.ts")).runHealthcheck(config, cli);
    case "export":
      return (await import("./export-commands.ts")).runExport(config, cli);
    case "import":
      return (await import("./export-commands.ts")).runImport(config, cli);
    case "code-graph":
      return (await import("./code-commands.ts")).runCodeGraph(config, cli);
  }
  return 64;
}

/** Commands that do not open the store at once: the server opens it on first use, the others never or themselves. */
const NO_STORE = new Set(["serve", "healthcheck", "doctor"]);

/**
 * Runs the command `argv` names and resolves to the process's exit code (0 ok, 64 usage, else the error's
 * {@link PegasError.exitCode}); an error is printed as one line `pegas-memory: CODE: message` on stderr.
 * `exit` ends the process at once; it is called only when a server's shutdown outlives its deadline.
 */
export async function main(argv: string[], exit: (code: number) => void): Promise<number> {
  try {
    return await run(argv, exit);
  } catch (err) {
    const e = toPegasError(err);
    if (e.code === "INTERNAL") log.error("failed", { err: e.cause instanceof Error ? e.cause : e });
    process.stderr.write(`pegas-memory: ${e.code}: ${e.userMessage}\n`);
    return e.exitCode;
  }
}
