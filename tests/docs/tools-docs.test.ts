/**
 * One definition per tool: docs/tools.md and the CLI's help data are what scripts/gen-docs.ts makes of the tool
 * definitions, every tool and field is described, every command and option has help, and printing help loads
 * neither zod nor the services.
 */
import { describe, expect, test } from "bun:test";
import { resolve } from "node:path";
import { elementText, fieldRows, typeText } from "../../scripts/docs/schema-text.ts";
import { mdText } from "../../scripts/docs/tools-md.ts";
import { loadToolsets } from "../../scripts/docs/toolsets.ts";
import { generatedFiles, staleFiles } from "../../scripts/gen-docs.ts";
import { COMMANDS, type Command, OPTIONS } from "../../src/cli/args.ts";
import { COMMAND_HELP, GLOBAL_OPTIONS } from "../../src/cli/help/commands.ts";
import { commandHelp, commandSummary, helpText, TOOL_HELP, topLevelHelp } from "../../src/cli/help/render.ts";
import { TOOLS } from "../../src/mcp/registry.ts";

const ROOT = resolve(import.meta.dir, "../..");

describe("generated files", () => {
  test("docs/tools.md and src/cli/help/tools.generated.json are up to date", async () => {
    const stale = await staleFiles();
    if (stale.length) throw new Error(`out of date: ${stale.join(", ")}; run \`npm run docs\` and commit the result`);
    expect(stale).toEqual([]);
  });

  test("docs/tools.md has a contents entry and a section for every tool, under its folder's toolset", async () => {
    const md = (await generatedFiles()).find((f) => f.path === "docs/tools.md")?.text ?? "";
    const sets = await loadToolsets();
    expect(sets.map((s) => s.name)).toEqual(["knowledge", "search", "code", "research", "traces"]);
    for (const set of sets) {
      const section = md.slice(md.indexOf(`\n## ${set.name}\n`));
      for (const t of set.tools) {
        expect(md).toContain(`  - [${t.name}](#${t.name}) — ${t.title}`);
        expect(section).toContain(`\n### ${t.name}\n`);
      }
    }
    expect(sets.flatMap((s) => s.tools).length).toBe(TOOLS.length);
    expect(md).toContain("CLI: `pegas-memory search`");
  });
});

describe("tool definitions", () => {
  test("every tool has a title, a description and a description of each input field", () => {
    for (const t of TOOLS) {
      expect(t.title.length).toBeGreaterThan(0);
      expect(t.description.length).toBeGreaterThan(0);
      const undescribed = Object.entries(TOOL_HELP[t.name].fields)
        .filter(([, f]) => !f.description)
        .map(([name]) => name);
      expect({ tool: t.name, undescribed }).toEqual({ tool: t.name, undescribed: [] });
    }
  });
});

describe("CLI help", () => {
  test("every command has help; the top-level help lists each in one line", () => {
    expect(Object.keys(COMMAND_HELP).sort()).toEqual([...COMMANDS].sort());
    const top = topLevelHelp();
    for (const c of COMMANDS) {
      const summary = commandSummary(c);
      expect(summary.length).toBeGreaterThan(0);
      const line = top.split("\n").find((l) => l.startsWith(`  ${c} `));
      expect({ c, line: line?.slice(2).replace(/ +/, " ") }).toEqual({ c, line: `${c} ${summary}` });
      const help = commandHelp(c);
      expect(help.startsWith(`Usage: pegas-memory ${COMMAND_HELP[c].usage[0]}\n`)).toBe(true);
    }
  });

  test("a command that mirrors a tool names a registered tool and only fields it has", () => {
    const names = new Set(TOOLS.map((t) => t.name));
    for (const [command, help] of Object.entries(COMMAND_HELP)) {
      if (!help.tool) {
        expect({ command, summary: Boolean(help.summary) }).toEqual({ command, summary: true });
        continue;
      }
      expect(names.has(help.tool)).toBe(true);
      const fields = Object.keys(TOOL_HELP[help.tool].fields);
      for (const item of [...(help.args ?? []), ...(help.options ?? [])]) {
        if (item.field) expect(fields).toContain(item.field);
        else expect(item.text ?? "").not.toBe("");
      }
    }
  });

  test("every option of the parser is documented, and the help names no option the parser lacks", () => {
    const documented = new Set([
      ...GLOBAL_OPTIONS.map((o) => o.name),
      ...Object.values(COMMAND_HELP).flatMap((h) => (h.options ?? []).map((o) => o.name)),
    ]);
    expect([...documented].sort()).toEqual(Object.keys(OPTIONS).sort());
  });

  test("per-command help carries the tool's field descriptions and types", () => {
    const search = commandHelp("search");
    expect(search).toContain("Search memory — the MCP tool memory_search.");
    expect(search).toMatch(/--k N +hits per page, default 10 \(integer 1\.\.50\)/);
    expect(search).toMatch(/--type T +only these atom types \(one of text, definition, .*repeatable\)/s);
    // --kind of link fills a single string: it is not repeatable there.
    expect(commandHelp("link")).not.toMatch(/--kind K[^\n]*repeatable/);
  });

  test("`<command> --help` shows that command's help, `--help` alone the top-level text", () => {
    expect(helpText({ command: "gaps", named: true })).toBe(commandHelp("gaps" as Command));
    expect(helpText({ command: "serve", named: false })).toBe(topLevelHelp());
    expect(helpText({ command: "nonsense", named: true })).toBe(topLevelHelp());
  });

  test("the executable prints them: `search --help` the command's, `--data-dir D --help` the top-level text", () => {
    const run = (...args: string[]) => Bun.spawnSync([process.execPath, resolve(ROOT, "main.ts"), ...args]);
    const search = run("search", "--help");
    expect({ code: search.exitCode, out: search.stdout.toString() }).toEqual({ code: 0, out: commandHelp("search") });
    const top = run("--data-dir", "/nonexistent", "--help");
    expect({ code: top.exitCode, out: top.stdout.toString() }).toEqual({ code: 0, out: topLevelHelp() });
  });

  test("printing help loads neither zod nor the services", async () => {
    const build = await Bun.build({
      entrypoints: [resolve(ROOT, "src/cli/help/render.ts")],
      target: "bun",
      metafile: true,
    } as Parameters<typeof Bun.build>[0]);
    const inputs = Object.keys((build as unknown as { metafile: { inputs: object } }).metafile.inputs);
    expect(inputs).toContain("src/cli/help/tools.generated.json");
    expect(inputs.filter((p) => !/^src\/(cli\/|errors\.ts$)/.test(p))).toEqual([]);
  });
});

describe("schema text", () => {
  test("types read as short text", () => {
    expect(typeText({ type: "integer", minimum: 1, maximum: 50 })).toBe("integer 1..50");
    expect(typeText({ type: "integer", exclusiveMinimum: 0, maximum: Number.MAX_SAFE_INTEGER })).toBe("integer ≥ 1");
    expect(typeText({ type: "string", minLength: 1, maxLength: 40 })).toBe("string of 1..40 chars");
    expect(typeText({ anyOf: [{ type: "integer" }, { type: "null" }] })).toBe("integer or null");
    expect(typeText({ type: ["string", "null"] })).toBe("string or null");
    expect(typeText({ type: "array", maxItems: 5, items: { type: "string", enum: ["a", "b"] } })).toBe(
      "array of ≤ 5 items of one of a, b",
    );
    expect(typeText({ type: "object", additionalProperties: { type: "number" } })).toBe("map of string → number");
    const either = {
      anyOf: [
        { type: "string", enum: ["x"] },
        { type: "array", items: { type: "string" } },
      ],
    };
    expect(elementText(either)).toBe("one of x");
  });

  test("nested fields are dotted, and objects past the depth are listed by their keys", () => {
    const schema = {
      type: "object",
      required: ["hits"],
      properties: {
        hits: {
          type: "array",
          items: {
            type: "object",
            properties: { loc: { type: "object", properties: { line: { type: "integer" }, page: {} } } },
          },
        },
      },
    };
    expect(fieldRows(schema, 2).map((r) => [r.path, r.type, r.required])).toEqual([
      ["hits", "array of object", true],
      ["hits[].loc", "object {line, page}", false],
    ]);
  });

  test("Markdown text escapes what would read as tags or emphasis, outside code spans", () => {
    expect(mdText("symbol:<id> and `a<b>` and *_total")).toBe("symbol:\\<id\\> and `a<b>` and \\*_total");
  });
});
