/**
 * The command line is checked whole before anything runs (src/cli/args.ts, src/cli/help/usage.ts): an unknown
 * command or option, an option the command does not take and an argument too many are usage errors (exit 64) naming
 * what is wrong, and what each command's help lists is accepted.
 */
import { describe, expect, test } from "bun:test";
import { COMMANDS, parseCli as parseOnly } from "../../src/cli/args.ts";
import { COMMAND_HELP } from "../../src/cli/help/commands.ts";
import { checkUsage, MAX_POSITIONALS, optionsOf } from "../../src/cli/help/usage.ts";
import { UsageError } from "../../src/errors.ts";

/** What main() does with argv before running a command: parse it, then check that the command takes it. */
function parseCli(argv: string[]) {
  const cli = parseOnly(argv);
  checkUsage(cli);
  return cli;
}

/** The usage error of `argv`, or a failure of the test when it parsed. */
function refusal(argv: string[]): UsageError {
  try {
    parseCli(argv);
  } catch (err) {
    if (err instanceof UsageError) return err;
    throw err;
  }
  throw new Error(`'${argv.join(" ")}' was accepted`);
}

describe("stray arguments", () => {
  test("an argument too many is refused, naming it", () => {
    const e = refusal(["stats", "now"]);
    expect(e.userMessage).toContain("stats takes no arguments; unexpected 'now'");
    expect(e.userMessage).toContain("pegas-memory stats --help");
    expect(e.exitCode).toBe(64);
    expect(e.code).toBe("INVALID_INPUT");
    expect(refusal(["get", "12", "13"]).message).toBe("get takes at most 1 argument; unexpected '13'");
    expect(refusal(["link", "1", "2", "3", "--kind", "supports"]).message).toContain("unexpected '3'");
    expect(refusal(["serve", "extra"]).message).toContain("serve takes no arguments");
    expect(refusal(["import", "a.jsonl", "b.jsonl"]).message).toContain("unexpected 'b.jsonl'");
  });

  test("an option the command does not take is refused, listing the ones it takes", () => {
    const e = refusal(["stats", "--k", "3"]);
    expect(e.message).toBe("stats does not take --k (its options: --json)");
    expect(e.exitCode).toBe(64);
    expect(refusal(["healthcheck", "--json"]).message).toBe("healthcheck does not take --json (its options: --url)");
    expect(refusal(["search", "палата", "--limit", "3"]).message).toContain("search does not take --limit");
  });

  test("unknown options and commands are usage errors too", () => {
    expect(refusal(["search", "x", "--top", "3"]).exitCode).toBe(64);
    expect(refusal(["serach", "x"]).message).toBe("unknown command 'serach'");
  });

  test("words of a query, several sources to ingest and global options are accepted", () => {
    expect(parseCli(["search", "больничная", "палата", "--k", "3"]).positionals).toEqual(["больничная", "палата"]);
    expect(parseCli(["ingest", "a.txt", "b.pdf", "https://example.org/"]).positionals).toHaveLength(3);
    expect(parseCli(["--data-dir", "/tmp/x", "stats", "--json", "--log-level", "warn"]).command).toBe("stats");
    expect(parseCli(["graph", "--path", "atom:1", "atom:2"]).positionals).toEqual(["atom:1", "atom:2"]);
    expect(parseCli(["stats", "--help"]).values.help).toBe(true);
  });

  test("every option a command's help lists is taken, and every command has a limit", () => {
    for (const command of COMMANDS) {
      expect(MAX_POSITIONALS[command]).toBeGreaterThanOrEqual(0);
      for (const o of COMMAND_HELP[command].options ?? []) expect(optionsOf(command).has(o.name)).toBe(true);
    }
  });
});
