/**
 * Ingest with the Ollama distiller against the stand-in chat server (ollama-chat-stub.ts; it is not Ollama and runs
 * no model: it answers from a script). Valid answers become cited atoms; every broken answer (truncated JSON, wrong
 * schema, a length stop, a context-length error) ends in quarantine with its reason after the retry the adapter
 * allows, and none of that chunk's atoms exists; a later retry with good answers stores them and closes the entry.
 */
import { describe, expect, test } from "bun:test";
import { ingest } from "../../src/core/documents/ingest.ts";
import { retryQuarantine } from "../../src/core/documents/quarantine.ts";
import type { SqlCanonicalStore } from "../../src/adapters/sql/store.ts";
import {
  STUB_CHAT_MODEL,
  startOllamaChatStub,
  type ChatScript,
  type StubChatRequest,
} from "../support/ollama-chat-stub.ts";
import { STUB_MODEL } from "../support/ollama-stub.ts";
import { rejectsWith } from "../support/errors.ts";
import { pgSkipReason } from "../support/pg.ts";
import { suiteServices } from "../support/services.ts";

const skip = await pgSkipReason();
const stub = startOllamaChatStub();
const t = suiteServices(
  "postgres",
  { ollama_host: stub.url, embed_model: STUB_MODEL, llm_model: STUB_CHAT_MODEL, chunk_chars: 160 },
  { skip, after: () => stub.stop() },
);

const PARAS = {
  good: "Глава первая. Больничная палата номер шесть стоит во дворе больницы. Её окружает лес репейника и крапивы.",
  truncated:
    "The ward had five patients in nineteen hundred. One of them was a Jew called Moiseika, the only one allowed out.",
  schema: "Ivan Dmitritch Gromov was a man of thirty-three. He came of a good family and was once a court usher.",
  length:
    "Андрей Ефимыч Рагин — замечательный человек в своём роде. Говорят, что в ранней молодости он был очень набожен.",
  context:
    "The doctor came to the town in 1874 and found the hospital in a terrible state, which he accepted as a given.",
};
const TEXT = Object.values(PARAS).join("\n\n");

const userText = (req: StubChatRequest) =>
  req.messages
    .filter((m) => m.role === "user")
    .map((m) => m.content)
    .join("\n");
const valid = (claim: string, quote: string): ChatScript => ({
  content: JSON.stringify({ atoms: [{ type: "fact", claim, content: claim, confidence: 0.8, quote, links: [] }] }),
});

/** Answers by chunk: the good chunk gets two linked atoms, the others their broken answer every time. */
function brokenScript(req: StubChatRequest): ChatScript {
  const u = userText(req);
  if (u.includes("Больничная палата")) {
    return {
      content: JSON.stringify({
        atoms: [
          {
            type: "fact",
            claim: "Палата номер шесть стоит во дворе больницы.",
            content: "Палата номер шесть стоит во дворе больницы.",
            confidence: 0.9,
            quote: "Больничная палата номер шесть стоит во дворе больницы.",
            links: [{ to: 1, kind: "reference" }],
          },
          {
            type: "text",
            claim: "Палату окружает лес репейника.",
            content: "Палату окружает лес репейника и крапивы.",
            confidence: 0.7,
            quote: "Её окружает лес репейника и крапивы.",
            links: [],
          },
        ],
      }),
    };
  }
  if (u.includes("Moiseika"))
    return {
      content: '{"atoms": [{"type": "fact", "claim": "The ward had five patients", "quote": "The ward had five',
    };
  if (u.includes("Gromov"))
    return { content: JSON.stringify({ atoms: [{ type: "opinion", claim: "x", quote: "Ivan Dmitritch Gromov" }] }) };
  if (u.includes("Рагин"))
    return { content: '{"atoms": [{"type": "definition", "claim": "Андрей Ефимыч', done_reason: "length" };
  return { status: 500, error: "input length exceeds the context length" };
}

describe.skipIf(skip !== null)("ingest with the Ollama distiller (stand-in chat server)", () => {
  let docId = 0;

  test("valid answers become cited atoms; each broken answer quarantines its chunk with the reason", async () => {
    for (let i = 0; i < 20; i++) stub.script(brokenScript);
    const r = await ingest(t.services, { text: TEXT, title: "Палата" });
    docId = r.doc_id!;
    expect(r.chunks).toBe(5);
    expect(r.chunks_quarantined).toBe(4);
    // The good chunk's passage and its two atoms; nothing of the four quarantined chunks.
    expect(r.atoms_distilled).toBe(3);
    expect(r.atoms_created).toBe(3);
    expect(r.links_added).toBeGreaterThanOrEqual(1);
    const sql = (t.services.maintenance as SqlCanonicalStore).db.sql;
    const q =
      await sql`SELECT q.reason, c.text FROM pm_distill_quarantine q JOIN pm_chunk c ON c.id = q.chunk_id WHERE q.doc_id = ${docId} ORDER BY q.chunk_ord`;
    const reasons = Object.fromEntries(
      q.map((row) => [
        Object.entries(PARAS).find(([, p]) => String(row.text).includes(p.slice(0, 20)))![0],
        row.reason,
      ]),
    );
    expect(reasons).toEqual({ truncated: "json", schema: "schema", length: "length", context: "context_length" });
    // Broken answers were retried once (two requests each); the context-length error is not retried.
    const perChunk = (needle: string) => stub.requests.filter((req) => userText(req).includes(needle)).length;
    expect([perChunk("Moiseika"), perChunk("Gromov"), perChunk("Рагин"), perChunk("1874")]).toEqual([2, 2, 2, 1]);
    // No atom cites a quarantined chunk: nothing half-stored.
    const cited =
      await sql`SELECT c.text, ci.quoted_text FROM pm_citation ci JOIN pm_chunk c ON c.id = ci.chunk_id WHERE ci.doc_id = ${docId}`;
    expect(cited.length).toBe(3);
    for (const row of cited) {
      expect(String(row.text)).toContain("Больничная палата");
      expect(String(row.text)).toContain(String(row.quoted_text));
    }
    const atoms =
      await sql`SELECT metadata->>'distiller' AS d FROM pm_atom WHERE doc_id = ${docId} AND NOT metadata ? 'passage'`;
    expect(atoms.map((a) => a.d)).toEqual([`ollama:${STUB_CHAT_MODEL}`, `ollama:${STUB_CHAT_MODEL}`]);
    const link =
      await sql`SELECT kind, source FROM pm_atom_link l JOIN pm_atom a ON a.id = l.src_atom_id WHERE a.doc_id = ${docId}`;
    expect(link.map((l) => [l.kind, l.source])).toContainEqual(["reference", "extraction"]);
  });

  test("a retry with good answers stores the chunks' atoms and closes their entries; a failing one stays open", async () => {
    stub.reset();
    for (let i = 0; i < 4; i++) stub.script(retryScript);
    const r = await retryQuarantine(t.services, { doc_id: docId });
    expect(r.retried).toBe(4);
    expect(r.resolved).toBe(3);
    expect(r.failed.map((f) => f.reason)).toEqual(["context_length"]);
    expect(r.atoms_created).toBe(6); // three passages and three atoms
    const open = await t.services.ingestWrites.openQuarantine(10, docId);
    expect(open.length).toBe(1);
    expect(open[0].attempts).toBe(2);
    expect(open[0].chunkText).toContain("1874");
    await rejectsWith(retryQuarantine(t.services, { doc_id: 999_999 }), "NOT_FOUND");
  });
});

/** The retry's answers: good atoms for three of the chunks, the context-length error again for the fourth. */
function retryScript(req: StubChatRequest): ChatScript {
  const u = userText(req);
  if (u.includes("Moiseika"))
    return valid("The ward had five patients.", "The ward had five patients in nineteen hundred.");
  if (u.includes("Gromov"))
    return valid("Gromov was thirty-three.", "Ivan Dmitritch Gromov was a man of thirty-three.");
  if (u.includes("Рагин"))
    return valid("Рагин — замечательный человек.", "Андрей Ефимыч Рагин — замечательный человек в своём роде.");
  return { status: 500, error: "input length exceeds the context length" };
}
