/**
 * The heuristic distiller over the real fixtures: every file parsed by the project's parsers, chunked as ingest
 * chunks (target 1200), every chunk distilled. Expectations below were checked by reading the parsed fixtures.
 */
import { beforeAll, describe, expect, test } from "bun:test";
import { quoteOccurs } from "../../src/domain/quote.ts";
import type { DistilledAtom } from "../../src/ports/models/distiller.ts";
import { loadCorpus, type Distilled } from "./corpus.ts";

let byFile = new Map<string, Distilled[]>();
let chunkCount = new Map<string, number>();
let warnings: string[] = [];

beforeAll(async () => {
  const corpus = await loadCorpus(1200);
  byFile = corpus.atoms;
  chunkCount = new Map([...corpus.chunks].map(([f, c]) => [f, c.length]));
  warnings = corpus.warnings;
}, 120_000);

function atoms(filter: (file: string) => boolean): Distilled[] {
  return [...byFile].filter(([f]) => filter(f)).flatMap(([, a]) => a);
}

function types(list: Distilled[]): Set<string> {
  return new Set(list.map((d) => d.atom.type));
}

function claims(file: string, type: DistilledAtom["type"]): string[] {
  return (byFile.get(file) ?? []).filter((d) => d.atom.type === type).map((d) => d.atom.claim);
}

describe("heuristic distiller on the real fixtures", () => {
  test("every fixture was read, and at least four atom types come out overall", () => {
    expect(byFile.size).toBe(13);
    expect(types(atoms(() => true)).size).toBeGreaterThanOrEqual(4);
    expect(types(atoms(() => true))).toEqual(new Set(["text", "fact", "definition", "table", "code"]));
  });

  test("every quote occurs in its chunk (verbatim, and by the quote check)", () => {
    const all = atoms(() => true);
    expect(all.length).toBeGreaterThan(5000);
    const bad = all.filter((d) => !d.chunk.includes(d.atom.quote) || !quoteOccurs(d.atom.quote, d.chunk));
    expect(bad).toEqual([]);
  });

  test("links stay inside their chunk's atom list and use single-token kinds", () => {
    for (const d of atoms(() => true)) for (const l of d.atom.links) expect(l.kind).toBe("reference");
  });

  test("definition, fact and text atoms from the PDFs and from the texts", () => {
    for (const group of ["pdf/", "text/"]) {
      const t = types(atoms((f) => f.startsWith(group)));
      for (const type of ["definition", "fact", "text"])
        expect([group, type, t.has(type)]).toEqual([group, type, true]);
    }
  });

  test("the scanned PDF without a text layer gives no atoms (nothing to quote)", () => {
    expect(byFile.get("pdf/en_scanned_image_only_huckfinn_p22.pdf")).toEqual([]);
  });

  test("a definition from a paper (MDPI Toxins review)", () => {
    expect(claims("pdf/en_paper_mdpi_toxins_2016_ligatures.pdf", "definition")).toContain(
      "Ricin: a plant ribosome-inactivating protein consisting of a cell-binding B chain and a catalytic A chain",
    );
  });

  test("abbreviation-list definitions from a paper (PLOS Medicine)", () => {
    const defs = claims("pdf/en_paper_plosmed_2022_single_column.pdf", "definition");
    expect(defs).toContain("WHO: World Health Organization");
    expect(defs).toContain("AMR: antimicrobial resistance");
  });

  test("a fact with a number and a unit (npj two-column paper)", () => {
    const fact = (byFile.get("pdf/en_paper_npj_2020_two_column_ligatures.pdf") ?? []).find((d) =>
      d.atom.claim.includes("was continuously recorded for 24 h after one week"),
    );
    expect(fact?.atom.type).toBe("fact");
    expect(fact?.atom.confidence).toBe(0.65);
  });

  test("a fact with a percentage and one with a date (Wikipedia)", () => {
    const facts = claims("html/en_wikipedia_mozilla.html", "fact");
    expect(facts).toContain(
      "Mozilla noted that roughly 85% of their revenue comes from their contract with Google.[16]",
    );
    expect(facts).toContain("On March 24, 2014, Mozilla promoted Brendan Eich to the role of CEO.");
  });

  test("a Russian definition (Chekhov, «Палата № 6»), and Russian facts from the paper", () => {
    expect(claims("text/ru_chekhov_palata_no6.txt", "definition")).toContain("Жизнь: досадная ловушка");
    expect(claims("pdf/ru_paper_iccsde_2024_geoacoustics.pdf", "fact")).toContain(
      "При этом точность определения местоположения составила не хуже 1%.",
    );
  });

  test("table atoms from the Wikipedia page's tables: the infobox whole, with its caption", () => {
    const tables = (byFile.get("html/en_wikipedia_mozilla.html") ?? []).filter((d) => d.atom.type === "table");
    expect(tables.map((d) => d.atom.claim)).toEqual([
      "Table: Mozilla — Industry, Founded, Founder, Products, Divisions, Website",
    ]);
    const content = tables[0].atom.content;
    for (const row of [
      "| Industry | Open-source software |",
      "| Founded | February 28, 1998; 18 years ago |",
      "| Divisions | Mozilla Corporation; Mozilla Foundation |",
      "| Website | mozilla.org",
    ]) {
      expect(content).toContain(row);
    }
  });

  test("table atoms from the Docker docs' platform tables, with their header", () => {
    expect(claims("html/en_docs_docker_install_engine.html", "table")).toEqual([
      "Table: Platform | x86_64 / amd64 | arm64 (Apple Silicon)",
      "Table: Platform | x86_64 / amd64 | arm64 / aarch64 | arm (32-bit) | s390x",
    ]);
  });

  test("code atoms from the v8 blog's code blocks: all ten <pre> blocks, whole, with the page's languages", () => {
    const code = (byFile.get("html/en_blog_v8dev_emscripten_standalone_wasm.html") ?? []).filter(
      (d) => d.atom.type === "code",
    );
    expect(code).toHaveLength(10);
    const add = code.find((d) => d.atom.content.startsWith("// add.c"));
    expect(add?.atom.content).toBe(
      "// add.c\n#include <emscripten.h>\n\nEMSCRIPTEN_KEEPALIVE\nint add(int x, int y) {\n  return x + y;\n}",
    );
    expect(add?.atom.claim.startsWith("Code (c): ")).toBe(true);
    expect(code.map((d) => d.atom.claim)).toContain("Code (js): For example, we can do this in Node.js");
    // A <pre> without a language class: the language is guessed from the code.
    expect(code.map((d) => d.atom.claim)).toContain("Code (shell): Instead, let's ask emcc to only emit Wasm");
    expect(code.every((d) => d.atom.confidence === 0.9)).toBe(true);
    expect(code.some((d) => d.atom.content.startsWith("(func $add (param $0 i32)"))).toBe(true);
  });

  test("no code or table atoms where there is none (PDFs, books, novels)", () => {
    const none = atoms((f) => f.startsWith("pdf/") || f.startsWith("epub/") || f.startsWith("text/"));
    expect(none.filter((d) => d.atom.type === "code" || d.atom.type === "table")).toEqual([]);
  });

  test("no chunk hit the atom cap, and no quote was dropped (none missing from its chunk, none too short to be evidence)", () => {
    expect(warnings).toEqual([]);
    expect([...chunkCount.values()].reduce((a, b) => a + b, 0)).toBeGreaterThan(1000);
  });
});
