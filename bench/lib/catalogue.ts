/**
 * A synthetic catalogue corpus for the false-contested measure of issue 21 (the failure as it was reported: many
 * numbered things of one kind, each with its own value — "Widget 5 weighs 22 kilograms." / "Widget 6 weighs 25
 * kilograms."). Documents of {@link PER_DOC} one-line statements, English and Russian, about numbered items; every
 * item is stated once, except that a later document states some items again: the same sentence (a repeat, to be
 * merged) or the same item with another value (a real conflict: both statements should end `contested`). Truth is
 * known by construction; the dedup_pairs benchmark ingests the documents, runs memory_verify and compares.
 */
import { ingest } from "../../src/core/documents/ingest.ts";
import { verifyAtoms } from "../../src/core/verify/verify.ts";
import type { BenchServices } from "./env.ts";
import { mulberry32 } from "../../tests/support/prng.ts";
import { allAtomRows } from "./atom-rows.ts";

/** Statements per document. */
export const PER_DOC = 20;

/** One generated corpus: the documents' texts, and which statements conflict. */
export interface Catalogue {
  docs: string[];
  /** Statements (exact text) that conflict with another statement of the corpus. */
  conflicting: Set<string>;
  /** Every statement, each once. */
  statements: Set<string>;
}

type Template = (n: number, v: number) => string;

const TEMPLATES: Template[] = [
  (n, v) => `Widget ${n} weighs ${v} kilograms.`,
  (n, v) => `Sensor ${n} reads ${v} degrees.`,
  (n, v) => `Pump ${n} delivers ${v} litres per hour.`,
  (n, v) => `Room ${n} has ${v} beds.`,
  (n, v) => `Line ${n} is ${v} km long.`,
  (n, v) => `Датчик ${n} показывает ${v} градусов.`,
  (n, v) => `Насос ${n} подаёт ${v} литров в час.`,
  (n, v) => `Изделие ${n} весит ${v} килограммов.`,
];

/**
 * `docs` documents: the first half states new items only; in the second half each statement is, with probability
 * `conflicts`, an earlier item with another value, with probability `repeats` an earlier statement again, else a new
 * item. Item numbers and values are drawn without repeating a (template, number) pair for new items.
 */
export function makeCatalogue(docs = 40, conflicts = 0.08, repeats = 0.08, seed = 21): Catalogue {
  const random = mulberry32(seed);
  const pick = (n: number) => Math.floor(random() * n);
  const used = new Set<string>();
  const stated: Array<{ t: number; n: number; v: number; text: string }> = [];
  const out: Catalogue = { docs: [], conflicting: new Set(), statements: new Set() };
  const fresh = () => {
    for (;;) {
      const t = pick(TEMPLATES.length);
      const n = 1 + pick(500);
      if (used.has(`${t}:${n}`)) continue;
      used.add(`${t}:${n}`);
      const s = { t, n, v: 10 + pick(90), text: "" };
      s.text = TEMPLATES[t](s.n, s.v);
      stated.push(s);
      return s.text;
    }
  };
  for (let d = 0; d < docs; d++) {
    const lines: string[] = [];
    for (let i = 0; i < PER_DOC; i++) {
      const r = random();
      const later = d >= docs / 2 && stated.length > 0;
      if (later && r < conflicts) {
        const old = stated[pick(stated.length)];
        const v = old.v + 1 + pick(40);
        const text = TEMPLATES[old.t](old.n, v);
        out.conflicting.add(old.text);
        out.conflicting.add(text);
        lines.push(text);
      } else if (later && r < conflicts + repeats) lines.push(stated[pick(stated.length)].text);
      else lines.push(fresh());
    }
    for (const l of lines) out.statements.add(l);
    out.docs.push(lines.join("\n"));
  }
  return out;
}

/** How the statements of a catalogue ended after ingest and memory_verify. */
export interface CatalogueOutcome {
  documents: number;
  /** Atoms whose text is one generated statement (passages of several lines are not counted). */
  statement_atoms: number;
  /** Statement atoms that should be contested (they conflict with another statement). */
  conflicting_atoms: number;
  contested_right: number;
  contested_wrong: number;
  /** Conflicting statement atoms left uncontested. */
  missed: number;
  /** Share of statement atoms contested without a conflict. */
  false_contested_share: number;
  contested_recall: number | null;
  ingest_ms: number;
  verify_ms: number;
}

/**
 * Ingests a {@link makeCatalogue} corpus into fresh services (`open`), verifies every atom, and compares each
 * statement atom's status with the truth. The services are disposed of at the end.
 */
export async function measureCatalogue(
  open: () => Promise<BenchServices>,
  cat = makeCatalogue(),
): Promise<CatalogueOutcome> {
  const b = await open();
  try {
    const s = b.services;
    const t0 = performance.now();
    for (const [i, text] of cat.docs.entries()) await ingest(s, { text, title: `catalogue ${i + 1}` });
    const t1 = performance.now();
    for (let round = 0; round < 20; round++) if ((await verifyAtoms(s, { limit: 1000 })).remaining === 0) break;
    const t2 = performance.now();
    const rows = await allAtomRows(s.changeFeed);
    const live = rows.filter((r) => r.status !== "stale" && r.status !== "retracted");
    const o = { right: 0, wrong: 0, missed: 0, atoms: 0, conflicting: 0 };
    for (let i = 0; i < live.length; i += 500)
      for (const a of await s.verification.verificationSubjects(live.slice(i, i + 500).map((r) => r.id))) {
        const text = (a.content || a.claim).trim();
        if (!cat.statements.has(text)) continue;
        o.atoms++;
        const should = cat.conflicting.has(text);
        if (should) o.conflicting++;
        if (a.status === "contested") should ? o.right++ : o.wrong++;
        else if (should) o.missed++;
      }
    return {
      documents: cat.docs.length,
      statement_atoms: o.atoms,
      conflicting_atoms: o.conflicting,
      contested_right: o.right,
      contested_wrong: o.wrong,
      missed: o.missed,
      false_contested_share: o.atoms ? o.wrong / o.atoms : 0,
      contested_recall: o.conflicting ? o.right / o.conflicting : null,
      ingest_ms: Math.round(t1 - t0),
      verify_ms: Math.round(t2 - t1),
    };
  } finally {
    await b.dispose();
  }
}
