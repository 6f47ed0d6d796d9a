/**
 * Entities from the Ollama distiller against the stand-in chat server (ollama-chat-stub.ts: it is not Ollama and runs
 * no model; it answers from a script): the structured-output format asks for the chunk's entities with a kind from
 * the vocabulary, a canonical name and a verbatim quote; valid entities come back with the atoms; invalid ones are
 * dropped one by one with a warning; a missing, empty or broken list gives none (the write then falls back to the
 * heuristic extractor) and never costs the chunk its atoms.
 */
import { afterAll, afterEach, describe, expect, test } from "bun:test";
import { DISTILL_SYSTEM_PROMPT } from "../../src/adapters/llm/prompt.ts";
import { ENTITY_KINDS } from "../../src/domain/entities/types.ts";
import { startOllamaChatStub } from "../support/ollama-chat-stub.ts";
import { stubDistiller } from "./support.ts";

const stub = startOllamaChatStub();
afterAll(() => stub.stop());
afterEach(() => stub.reset());

const RU = "Доктор Андрей Ефимыч Рагин служил в уездной больнице. В палате № 6 жил Иван Дмитрич Громов.";
const ATOM = { type: "fact", claim: RU.split(". ")[0], content: RU, confidence: 0.8, quote: RU, links: [] };
const answer = (entities?: unknown) => ({
  content: JSON.stringify(entities === undefined ? { atoms: [ATOM] } : { atoms: [ATOM], entities }),
});

describe("entities of the LLM distiller", () => {
  test("the format requires entities with a kind from the vocabulary, a name and a quote; the prompt asks", async () => {
    stub.script(answer([]));
    await stubDistiller(stub).distill({ text: RU, lang: "ru" });
    const format = stub.requests[0].format as any;
    expect(format.required).toEqual(["atoms", "entities"]);
    const item = format.properties.entities.items;
    expect(item.properties.kind.enum).toEqual([...ENTITY_KINDS]);
    expect(item.required).toEqual(["kind", "name", "quote"]);
    expect(DISTILL_SYSTEM_PROMPT).toContain("quote the name\n   exactly as written in the chunk");
  });

  test("valid entities come back; each invalid one is dropped with a warning", async () => {
    stub.script(
      answer([
        { kind: "person", name: "Андрей Ефимыч Рагин", quote: "Андрей Ефимыч Рагин" },
        { kind: "person", name: "Андрей Ефимыч Рагин", quote: "Андрей Ефимыч Рагин" },
        { kind: "person", name: "Иван Дмитрич Громов", quote: "Иван Дмитрич Громов" },
        { kind: "organization", name: "Больница", quote: "больнице" },
        { kind: "place", name: "Москва", quote: "Москве" },
        { kind: "person", name: "", quote: "Рагин" },
        "Громов",
      ]),
    );
    const r = await stubDistiller(stub).distill({ text: RU, lang: "ru" });
    expect(r.atoms).toHaveLength(1);
    expect(r.entities).toEqual([
      { kind: "person", name: "Андрей Ефимыч Рагин", quote: "Андрей Ефимыч Рагин" },
      { kind: "person", name: "Иван Дмитрич Громов", quote: "Иван Дмитрич Громов" },
    ]);
    expect(r.warnings).toHaveLength(4);
    expect(r.warnings[0]).toStartWith("entity 3 dropped: kind:");
    expect(r.warnings[1]).toBe('entity 4 dropped: its quote "Москве" is not in the chunk');
    expect(r.warnings[2]).toStartWith("entity 5 dropped: name:");
    expect(r.warnings[3]).toStartWith("entity 6 dropped:");
  });

  test("a missing or empty list gives no entities quietly; a broken one with a warning; the atoms stay", async () => {
    for (const [list, warned] of [
      [undefined, false],
      [[], false],
      ["Андрей Ефимыч", true],
      [[{ kind: "hero", name: "Рагин", quote: "Рагин" }], true],
    ] as const) {
      stub.script(answer(list));
      const r = await stubDistiller(stub).distill({ text: RU, lang: "ru" });
      expect(r.atoms).toHaveLength(1);
      expect(r.entities).toBeUndefined();
      expect(r.warnings.some((w) => w.includes("heuristic extractor"))).toBe(warned);
    }
    expect(stub.requests).toHaveLength(4); // no retry: a bad entity list is not a bad answer
  });
});
