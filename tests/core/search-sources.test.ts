/**
 * memory_search's sources (src/mcp/tools/search/search-render.ts): a hit citing a whole document (a note) names no
 * locator in the text or the concise JSON; a hit citing a part of a document names its locator.
 */
import { describe, expect, test } from "bun:test";
import type { SearchHit, SearchResult } from "../../src/core/search/search.ts";
import { packSearch } from "../../src/mcp/tools/search/search-render.ts";
import type { CitationView } from "../../src/ports/store/atom-reads.ts";

const cite = (doc_id: number, locator: CitationView["locator"]): CitationView => ({
  doc_id,
  uri: `text:sha256:${doc_id}`,
  title: `session ${doc_id}`,
  kind: "text",
  doc_version: 1,
  locator,
  quote: "q",
});

const hit = (atom_id: number, claim: string, c: CitationView): SearchHit => ({
  atom_id,
  type: "fact",
  status: "candidate",
  claim,
  content: claim,
  content_truncated: false,
  confidence: 0.5,
  lang: "en",
  doc_id: c.doc_id,
  score: 1,
  ranks: { lexical: atom_id },
  citations: [c],
  citation_count: 1,
});

describe("memory_search sources", () => {
  test("a note's citation names no locator; a part's names its lines", () => {
    const out: SearchResult = {
      query: "pottery class",
      hits: [
        hit(1, "Melanie signed up for a pottery class.", cite(7, {})),
        hit(2, "The pottery class meets on Sundays.", cite(9, { line_start: 3, line_end: 5 })),
      ],
      next_cursor: null,
      lexical_fallback: false,
      took_ms: 1,
    };
    const p = packSearch(out, { query: out.query });
    expect(p.text).toContain("atom 1 · fact · [1]\n");
    expect(p.text).toContain("atom 2 · fact · [2] lines 3–5\n");
    expect(p.text).not.toContain("whole document");
    const hits = (p.concise as { hits: { cited: unknown[] }[] }).hits;
    expect(hits[0].cited).toEqual([{ n: 1 }]);
    expect(hits[1].cited).toEqual([{ n: 2, locator: "lines 3–5" }]);
  });

  test("two versions of a page citing the atom at the same lines show that source once", () => {
    const v1 = cite(4, { line_start: 25, line_end: 25 });
    const h = { ...hit(3, "The mind draws a sharp line.", v1), citations: [v1, { ...v1, doc_version: 2 }] };
    const out: SearchResult = {
      query: "mind",
      hits: [{ ...h, citation_count: 2 }],
      next_cursor: null,
      lexical_fallback: false,
      took_ms: 1,
    };
    const p = packSearch(out, { query: out.query });
    expect(p.text).toContain("atom 3 · fact · [1] line 25\n");
    const hits = (p.concise as { hits: { cited: unknown[]; more_citations?: number }[] }).hits;
    expect(hits[0].cited).toEqual([{ n: 1, locator: "line 25" }]);
    expect(hits[0].more_citations).toBeUndefined();
  });
});
