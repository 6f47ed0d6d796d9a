/**
 * Ingest with the Ollama distiller against the stand-in chat server (ollama-chat-stub.ts: it is not Ollama and runs
 * no model; it answers from a script), embedded database: the entities the model names become the mentions of every
 * atom of their chunk, passage included, with the model's kinds and canonical names («Мелихово», not the heuristic's
 * «Мелихов»); a chunk whose answer omits its entities, or whose entities are all invalid, gets the heuristic
 * extractor's mentions, as the heuristic distiller's chunks do.
 */
import { describe, expect, test } from "bun:test";
import { ingest } from "../../src/core/documents/ingest.ts";
import { sqlOf } from "../code/support.ts";
import { STUB_CHAT_MODEL, type StubChatRequest, startOllamaChatStub } from "../support/ollama-chat-stub.ts";
import { STUB_MODEL } from "../support/ollama-stub.ts";
import { suiteServices } from "../support/services.ts";

const stub = startOllamaChatStub();
const t = suiteServices(
  "pglite",
  { ollama_host: stub.url, embed_model: STUB_MODEL, llm_model: STUB_CHAT_MODEL, chunk_chars: 100 },
  { after: () => stub.stop() },
);

const NAMED = "Повесть «Палата № 6» написал Антон Чехов в 1892 году в Мелихове.";
const OMITTED = "Доктор Андрей Ефимыч Рагин служил в уездной больнице много лет подряд.";
const INVALID = "Иван Дмитрич Громов жил в палате вместе с другими больными.";

/** One fact atom quoting the whole paragraph, and the entities this paragraph's answer names. */
function script(req: StubChatRequest) {
  const user = req.messages.map((m) => m.content).join("\n");
  const para = [NAMED, OMITTED, INVALID].find((p) => user.includes(p)) ?? "";
  const atoms = para ? [{ type: "fact", claim: para, content: para, confidence: 0.8, quote: para, links: [] }] : [];
  const entities =
    para === NAMED
      ? [
          { kind: "work", name: "Палата № 6", quote: "Палата № 6" },
          { kind: "person", name: "Антон Павлович Чехов", quote: "Антон Чехов" },
          { kind: "place", name: "Мелихово", quote: "Мелихове" },
        ]
      : para === INVALID
        ? [{ kind: "hero", name: "Громов", quote: "Громов" }]
        : undefined;
  return { content: JSON.stringify(entities ? { atoms, entities } : { atoms }) };
}

describe("entities of an LLM-distilled ingest", () => {
  test("named entities label every atom of their chunk; the others fall back to the heuristic", async () => {
    for (let i = 0; i < 6; i++) stub.script(script);
    const r = await ingest(t.services, { text: [NAMED, OMITTED, INVALID].join("\n\n"), title: "Заметки" });
    expect(r.chunks).toBe(3);
    expect(r.chunks_quarantined ?? 0).toBe(0);
    const rows = await sqlOf(t.services)`
      SELECT a.id, a.claim, a.metadata ? 'passage' AS passage, e.kind, e.name, m.surface
        FROM pm_atom a JOIN pm_entity_mention m ON m.atom_id = a.id JOIN pm_entity e ON e.id = m.entity_id
       WHERE a.doc_id = ${r.doc_id} ORDER BY a.id, m.span_start`;
    const of = (para: string, passage: boolean) =>
      rows
        .filter((x) => String(x.claim) === para && x.passage === passage)
        .map((x) => `${x.kind}:${x.name}:${x.surface}`);
    const named = ["work:Палата № 6:Палата № 6", "person:Антон Павлович Чехов:Антон Чехов", "place:Мелихово:Мелихове"];
    expect(of(NAMED, false)).toEqual(named);
    expect(of(NAMED, true)).toEqual(named);
    expect(of(OMITTED, false)).toEqual(["person:Андрей Ефимыч Рагин:Андрей Ефимыч Рагин"]);
    expect(of(INVALID, false)).toEqual(["person:Иван Дмитрич Громов:Иван Дмитрич Громов"]);
  }, 60_000);
});
