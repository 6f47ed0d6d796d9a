/**
 * The real fixtures as ingest sees them: every file through the project's parser selection (selectParser), each
 * section chunked with chunkText at the given target and the section's detected language (as chunkSections in
 * src/core/documents/ingest-document.ts does), every chunk through the heuristic distiller. Loaded once per target and shared
 * by the test files of this folder (bun runs them in one process).
 */
import { readdirSync, readFileSync } from "node:fs";
import { distillText } from "../../src/adapters/distiller/heuristic/index.ts";
import { selectParser } from "../../src/adapters/parsers/select.ts";
import { chunkText } from "../../src/domain/chunk.ts";
import { detectLang } from "../../src/domain/text.ts";
import type { DistilledAtom } from "../../src/ports/models/distiller.ts";
import { fixturePath } from "../support/shared.ts";

const LIMITS = { maxBytes: 50 << 20, maxZipEntries: 10000, maxZipTotalBytes: 512 << 20, maxZipEntryBytes: 128 << 20 };

/** One atom with the chunk it came from and the section text (the parsed source) around that chunk. */
export interface Distilled {
  file: string;
  chunk: string;
  section: string;
  atom: DistilledAtom;
}

/** Everything one pass over the fixtures produced, keyed by "dir/name". */
export interface Corpus {
  atoms: Map<string, Distilled[]>;
  chunks: Map<string, string[]>;
  sections: Map<string, string[]>;
  warnings: string[];
}

const loaded = new Map<number, Promise<Corpus>>();

/** One file ("dir/name") parsed, chunked at `target` and distilled, as ingest would. */
export async function distillFile(
  file: string,
  target: number,
): Promise<{ atoms: Distilled[]; chunks: string[]; sections: string[]; warnings: string[] }> {
  const bytes = new Uint8Array(readFileSync(fixturePath(file)));
  const name = file.slice(file.indexOf("/") + 1);
  const doc = await selectParser({ bytes, name }).parse({ bytes, uri: `file://${fixturePath(file)}` }, LIMITS);
  const out = {
    atoms: [] as Distilled[],
    chunks: [] as string[],
    sections: doc.sections.map((s) => s.text),
    warnings: [] as string[],
  };
  for (const section of doc.sections) {
    const lang = detectLang(section.text);
    for (const c of chunkText(section.text, { target, lang })) {
      out.chunks.push(c.text);
      const r = distillText({ text: c.text, lang });
      out.warnings.push(...r.warnings);
      for (const atom of r.atoms) out.atoms.push({ file, chunk: c.text, section: section.text, atom });
    }
  }
  return out;
}

async function load(target: number): Promise<Corpus> {
  const corpus: Corpus = { atoms: new Map(), chunks: new Map(), sections: new Map(), warnings: [] };
  for (const dir of ["pdf", "epub", "html", "text"]) {
    for (const name of readdirSync(fixturePath(dir)).sort()) {
      const file = `${dir}/${name}`;
      const one = await distillFile(file, target);
      corpus.atoms.set(file, one.atoms);
      corpus.chunks.set(file, one.chunks);
      corpus.sections.set(file, one.sections);
      corpus.warnings.push(...one.warnings);
    }
  }
  return corpus;
}

/** The corpus chunked at `target` characters (ingest's default chunk_chars is 1200). */
export function loadCorpus(target = 1200): Promise<Corpus> {
  if (!loaded.has(target)) loaded.set(target, load(target));
  return loaded.get(target)!;
}

/** Atom counts by type of one file's atoms. */
export function countByType(list: Distilled[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const d of list) out[d.atom.type] = (out[d.atom.type] ?? 0) + 1;
  return out;
}
