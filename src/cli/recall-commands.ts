/**
 * CLI commands of reading, linking and forgetting: `get <atom_id | entity:<id> | name>` (memory_get), `link <src>
 * <dst> --kind K` (memory_link), `forget (--atom N | --doc N | --entity E) --reason R [--undo]` (memory_forget) and
 * `context <question>` (memory_get_context: prints the Markdown block).
 */
import { reasonLine } from "../domain/confidence/model.ts";
import type { Config } from "../config.ts";
import { getContext } from "../core/context/context.ts";
import { getAtom } from "../core/knowledge/get-atom.ts";
import { getEntity } from "../core/knowledge/get-entity.ts";
import { loadEntityCounter, renderEntity } from "../mcp/tools/knowledge/render-entity.ts";
import { quantitiesLine, quantityOut } from "../mcp/tools/knowledge/render-quantities.ts";
import { formatLocator } from "../domain/locator.ts";
import { forget, linkNodes, unlinkNodes } from "../core/knowledge/link-forget.ts";
import { UsageError, invalidInput } from "../errors.ts";
import type { Cli } from "./args.ts";
import { intOption, withServices } from "./commands.ts";
import { out, outJson } from "./output.ts";

function oneId(cli: Cli, what: string, hint: string): number {
  const [raw, extra] = cli.positionals;
  if (raw === undefined || extra !== undefined) throw new UsageError(`${cli.command} needs exactly one ${what}`, hint);
  const n = Number(raw.replace(/^atom:/, "")); // `atom:12`, as memory_link and graph ids write it
  if (!Number.isSafeInteger(n) || n < 1) throw invalidInput(`${what} must be a positive integer, got '${raw}'`, hint);
  return n;
}

const GET_HINT = '`pegas-memory get 12` (ids come from search), `get entity:7` or `get "Андрей Ефимыч"`';

/**
 * `get <atom_id | entity:<id> | name> [--limit N] [--json]`: one atom whole, or an entity's cited profile as
 * memory_get gives it (the same core and text); a name several entities answer to lists them as candidates.
 */
export async function runGet(config: Config, cli: Cli): Promise<number> {
  const [raw, extra] = cli.positionals;
  if (raw === undefined || extra !== undefined)
    throw new UsageError("get needs exactly one atom id, entity:<id> or entity name", GET_HINT);
  if (!/^(?:atom:|\d+$)/u.test(raw.trim())) return runGetEntity(config, cli, raw);
  const id = oneId(cli, "atom id", GET_HINT);
  const d = await withServices(config, (s) => getAtom(s, id, intOption(cli, "limit")));
  if (cli.values.json) {
    outJson(d);
    return 0;
  }
  const a = d.atom;
  out(
    `atom ${a.id} (${a.type}, ${a.status}, confidence ${d.confidence.value.toFixed(2)}, ${a.lang}) created ${a.created_at}`,
  );
  for (const r of d.confidence.reasons) out(`  confidence ${reasonLine(r)}`);
  out(`claim: ${a.claim}`);
  if (a.content && a.content !== a.claim) out(`content: ${a.content}`);
  if (d.quantities.length) out(quantitiesLine(d.quantities.map(quantityOut)).replace(/^Quantities/u, "quantities"));
  for (const c of a.citations)
    out(
      `  cited: ${c.title ?? c.uri} (document ${c.doc_id} v${c.doc_version}) ${formatLocator(c.locator) || "whole document"}: “${c.quote}”`,
    );
  if (d.links.mergedInto)
    out(`merged into atom ${d.links.mergedInto.atomId} (merge ${d.links.mergedInto.mergeId}; undo with \`unmerge\`)`);
  for (const l of d.links.out)
    out(`  → ${l.kind} atom ${l.atom_id} (${l.status}, ${l.source}${l.inferred ? ", inferred" : ""}): ${l.claim}`);
  for (const l of d.links.in)
    out(`  ← ${l.kind} atom ${l.atom_id} (${l.status}, ${l.source}${l.inferred ? ", inferred" : ""}): ${l.claim}`);
  for (const l of d.links.symbols)
    out(`  → ${l.kind} symbol ${l.symbol_id} ${l.qualified_name} (${l.repo} ${l.path}:${l.line})`);
  for (const h of d.history)
    out(
      `  ${h.created_at} change ${h.id} by ${h.actor}: ${h.from_status} → ${h.to_status}: ${h.reason}${h.reverted_at ? ` (undone ${h.reverted_at})` : ""}`,
    );
  return 0;
}

/** `get entity:<id>` or `get "<name>"`: memory_get's entity profile (or candidates), as text or `--json`. */
async function runGetEntity(config: Config, cli: Cli, ref: string): Promise<number> {
  if (cli.values.limit !== undefined)
    throw invalidInput("--limit applies to an atom's links, not to an entity", "drop --limit for an entity");
  const found = await withServices(config, (s) => getEntity(s, ref));
  const answer = "profile" in found ? { entity: found.profile } : { candidates: found.candidates };
  if (cli.values.json) outJson(answer);
  else {
    await loadEntityCounter();
    out(renderEntity(answer, {}));
  }
  return 0;
}

/**
 * `link <src> <dst> --kind K [--confidence C] [--json]`: the agent's relation between two nodes; with `--remove`, the
 * link src -K-> dst is deleted instead (memory_link's `remove`: what memory_infer derived from it is retracted).
 */
export async function runLink(config: Config, cli: Cli): Promise<number> {
  const [src, dst, extra] = cli.positionals;
  const kinds = (cli.values.kind as string[] | undefined) ?? [];
  if (!src || !dst || extra !== undefined || kinds.length !== 1) {
    throw new UsageError(
      "link needs two nodes and one --kind",
      "`pegas-memory link 12 40 --kind supports`; nodes are atom ids or symbol:<id>",
    );
  }
  if (cli.values.remove) {
    if (cli.values.confidence !== undefined)
      throw invalidInput("--confidence says nothing with --remove", "drop --confidence to remove the link");
    const r = await withServices(config, (s) => unlinkNodes(s, { src, dst, kind: kinds[0] }));
    if (cli.values.json) outJson(r);
    else
      out(
        `removed: ${r.src.kind}:${r.src.id} -${r.kind}-> ${r.dst.kind}:${r.dst.id} (${r.table}:${r.linkId}, ${r.source}); inferred edges retracted ${r.inferredRetracted}, kept by another justification ${r.inferredRederived}`,
      );
    return 0;
  }
  const raw = cli.values.confidence;
  const confidence = raw === undefined ? undefined : Number(raw);
  if (confidence !== undefined && !(confidence >= 0 && confidence <= 1))
    throw invalidInput(`--confidence must be a number from 0 to 1, got '${String(raw)}'`);
  const r = await withServices(config, (s) => linkNodes(s, { src, dst, kind: kinds[0], confidence }));
  if (cli.values.json) outJson(r);
  else
    out(
      `${r.created ? "linked" : "already linked"}: ${r.src.kind}:${r.src.id} -${r.kind}-> ${r.dst.kind}:${r.dst.id} (${r.table}:${r.linkId}, ${r.source}, confidence ${r.confidence.toFixed(2)})`,
    );
  return 0;
}

/**
 * `forget (--atom N | --doc N | --entity E) --reason R [--undo] [--json]`: retract (or restore) an atom, a document,
 * or an entity with its sources (E is entity:<id> or a name; an ambiguous name lists the candidates and exits 1).
 */
export async function runForget(config: Config, cli: Cli): Promise<number> {
  if (cli.positionals.length)
    throw invalidInput(
      "forget takes --atom N or --doc N, not positional arguments",
      '`pegas-memory forget --atom 12 --reason "…"`',
    );
  const reason = typeof cli.values.reason === "string" ? cli.values.reason : "";
  const undo = cli.values.undo === true;
  const r = await withServices(config, (s) =>
    forget(s, {
      atom_id: intOption(cli, "atom"),
      doc_id: intOption(cli, "doc"),
      entity: typeof cli.values.entity === "string" ? cli.values.entity : undefined,
      reason,
      undo,
    }),
  );
  if (cli.values.json) {
    outJson(r);
    return 0;
  }
  if (r.candidates) {
    out("nothing retracted: several entities answer to this name; give --entity entity:<id>");
    for (const c of r.candidates) out(`entity:${c.entity_id}\t${c.kind}\t${c.name}\t${c.atoms} atom(s)`);
    return 1;
  }
  if (r.documents?.length) out(`documents ${undo ? "restored" : "retracted"}: ${r.documents.join(", ")}`);
  out(
    `${undo ? "restored" : "retracted"} ${r.changes.length} atom(s)${r.atoms !== undefined ? ` of the document's ${r.atoms}` : ""}; ${r.links} link(s) ${undo ? "restored to" : "withdrawn from"} the projections`,
  );
  if (r.unchanged.length)
    out(
      `unchanged (${undo ? "not retracted by a forget" : "already retracted"}): ${r.unchanged.slice(0, 20).join(", ")}${r.unchanged.length > 20 ? ", …" : ""}`,
    );
  return 0;
}

/** `context <question> [--budget N] [--k N] [--depth H] [--json]`: cited context packed to a token budget. */
export async function runContext(config: Config, cli: Cli): Promise<number> {
  const question = cli.positionals.join(" ").trim();
  if (!question)
    throw new UsageError("context needs a question", '`pegas-memory context "who is Gromov?" --budget 1500`');
  const depth = cli.values.depth === undefined ? undefined : Number(cli.values.depth);
  const r = await withServices(config, (s, signal) =>
    getContext(s, { question, budget_tokens: intOption(cli, "budget"), k: intOption(cli, "k"), hops: depth }, signal),
  );
  if (cli.values.json) outJson(r);
  else {
    out(r.markdown.trimEnd());
    process.stderr.write(
      `${r.used_tokens} of ${r.budget_tokens} tokens (${r.tokenizer}); ${r.items.length} atom(s), ${r.omitted} left out for the budget\n`,
    );
  }
  return 0;
}
