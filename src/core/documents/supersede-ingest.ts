/**
 * Supersession of an ingest's atoms (issue 22), decided before its transaction and recorded inside it: the rule of
 * memory_store (core/knowledge/supersession.ts, domain/supersession) applied to every statement atom of the documents,
 * against the stored atoms and within the documents — the newer statement of the same exclusive property of the same
 * subject supersedes the older one, by event time else by observed time; "also works at" and an old event reported
 * later supersede nothing. Cost stays linear in the atoms: each sentence's claims are read once (a chunk's passage
 * and its distilled atoms share sentences); stored candidates come from the in-process BM25 index for each distinct
 * subject (its inverted lists; one round trip analyses every subject), read in ONE query; and atoms of the documents
 * meet only those that share a subject word and a property (a hash map), never every other atom. Measured on 2 MB
 * of generated prose (bench/lib/large-texts.ts): 0.43 CPU-s into an empty store, 0.70 CPU-s into one holding 2 MB
 * more (of ≈ 10 CPU-s for the whole ingest); a full-text query per subject over the GIN index took 6–12 s there,
 * as subjects read from prose ("men", "saying") match thousands of passages and a bitmap scan cannot stop early.
 */
import { type PropertyClaim, readClaims } from "../../domain/supersession/claim.ts";
import { type DatedStatement, decideSupersession, effectiveTime } from "../../domain/supersession/decide.ts";
import type { PlannedAtom } from "../../ports/store/atom-writes.ts";
import type { PlannedSupersession } from "../../ports/store/ingest.ts";
import type { SearchProjection } from "../../ports/projections/search-projection.ts";
import type { SearchReads } from "../../ports/store/search-reads.ts";
import type { SupersessionStore, SupersessionSubject } from "../../ports/store/supersession.ts";
import { SUPERSESSION_CANDIDATES, takesPart } from "../knowledge/supersession.ts";
import { processedText } from "../../platform/gc.ts";

/** Atom types that state facts (code, rules and tables supersede nothing), as for memory_store. */
const STATEMENT_LIST = ["text", "fact", "definition"] as const;
const STATEMENT_TYPES: ReadonlySet<string> = new Set(STATEMENT_LIST);
/** Statuses a stored atom can be superseded from. */
const LIVE = ["candidate", "verified", "contested"] as const;
/** Most distinct subjects looked up in the store per ingest (a book names thousands; the first ones are kept). */
export const MAX_SUBJECTS = 2000;
/**
 * Stored candidates read per ingest at most: each subject gets an equal share of them, between 3 and
 * SUPERSESSION_CANDIDATES (memory_store's 20), so that a book naming a thousand people reads no 20,000 atoms.
 */
export const MAX_STORED_CANDIDATES = 2000;
/** Atoms of the documents met per bucket (subject word × property); beyond, a name said everywhere decides nothing. */
const MAX_BUCKET = 50;

/** A chunk's whole passage (distill.ts marks it `metadata.passage`) of more than one sentence: see passageDecides. */
function isPassage(p: PlannedAtom): boolean {
  return !takesPart({ passage: p.atom.metadata?.passage === true, content: p.atom.content });
}

/** A planned atom's property group: "switch" ("switched to") meets employers and tools, as decide.ts pairs them. */
function groupsOf(c: PropertyClaim): string[] {
  return c.property === "switch" ? ["uses", "employer"] : [c.property];
}

/** The buckets a claim falls in: each subject word (or the speaker) with each property group. */
function bucketsOf(c: PropertyClaim): string[] {
  const subjects = c.speaker ? ["@speaker"] : c.subject;
  return groupsOf(c).flatMap((g) => subjects.map((w) => `${g}\u0000${w}`));
}

/** A planned atom as decided, its claims and time read once. */
function datedPlanned(p: PlannedAtom, claims: PropertyClaim[], now: string): DatedStatement {
  const d = { text: p.atom.content, observedAt: p.atom.time?.observedAt ?? now, eventAt: p.atom.time?.event?.start };
  return { ...d, claims, at: effectiveTime(d) };
}

/** A stored atom as decided, its claims and time read once. */
function datedStored(s: SupersessionSubject): DatedStatement {
  const d = { text: s.content, observedAt: s.observedAt ?? s.createdAt, eventAt: s.eventStart };
  return { ...d, claims: readClaims(s.content), at: effectiveTime(d) };
}

/**
 * What planning a document written in parts carries from part to part (core/documents/ingest-parts.ts): the buckets of
 * its statements so far (global indexes, at most MAX_BUCKET each, as in one plan) and those statements, each with the
 * atom that holds it once its part is written. The next part's atoms meet them as they would in one plan.
 */
export class SupersessionCarry {
  /** Bucket → global indexes of the document's atoms in it. */
  readonly buckets = new Map<string, number[]>();
  /** Global index → a statement in some bucket: its content hash, as decided, and the atom holding it (once written). */
  readonly earlier = new Map<number, { hash: string; dated: DatedStatement; atomId?: number }>();
  /** Global index of the current part's first atom. */
  offset = 0;

  /** The current part (`heldBy[i]`: the atom holding its atom i) is written: its statements get their atom ids. */
  written(heldBy: readonly number[]): void {
    for (let i = 0; i < heldBy.length; i++) {
      const e = this.earlier.get(this.offset + i);
      if (e) e.atomId = heldBy[i];
    }
    this.offset += heldBy.length;
  }
}

/** Pairs of the documents' own atoms that share a bucket, decided in text order (refs index `atoms`; see carry). */
function planWithin(
  atoms: PlannedAtom[],
  claims: PropertyClaim[][],
  dated: Array<DatedStatement | null>,
  carry?: SupersessionCarry,
) {
  const out: PlannedSupersession[] = [];
  const buckets = carry?.buckets ?? new Map<string, number[]>();
  const offset = carry?.offset ?? 0;
  for (const [i, cs] of claims.entries()) {
    const met = new Set<number>();
    for (const b of cs.flatMap(bucketsOf)) {
      const list = buckets.get(b) ?? [];
      for (const j of list) met.add(j);
      if (list.length < MAX_BUCKET) {
        buckets.set(b, list.concat(offset + i));
        carry?.earlier.set(offset + i, { hash: atoms[i].atom.contentHash, dated: dated[i]! });
      }
    }
    for (const g of met) {
      const j = g - offset;
      const e = j < 0 ? carry?.earlier.get(g) : undefined;
      if (j < 0 && e?.atomId === undefined) continue;
      if ((e?.hash ?? atoms[j].atom.contentHash) === atoms[i].atom.contentHash) continue;
      const v = decideSupersession(e?.dated ?? dated[j]!, dated[i]!);
      const other = e ? { atomId: e.atomId } : { planned: j };
      if (v.outcome === "b_supersedes_a") out.push({ newer: { planned: i }, older: other, reason: v.reason });
      if (v.outcome === "a_supersedes_b") out.push({ newer: other, older: { planned: i }, reason: v.reason });
    }
  }
  return out;
}

/** What planning an ingest's supersessions reads: text analysis, the BM25 projection, the candidates' rows. */
export interface IngestSupersessionReads {
  searchReads: Pick<SearchReads, "analyzeMany">;
  projection: Pick<SearchProjection, "sync" | "lexical">;
  supersession: Pick<SupersessionStore, "supersessionSubjects">;
}

/**
 * The supersessions to record for `atoms` (the ingest's planned atoms, dated; refs index this list): pairs within the
 * list that share a bucket, and each atom against the stored atoms about its subjects — the top of the in-process
 * BM25 index for the subject's words (memory_store's candidates too), live statement atoms only, at most
 * {@link MAX_STORED_CANDIDATES} in all. An atom merged into another (a near-duplicate) takes no part. With `carry`,
 * `atoms` are one part of a document and also meet its earlier parts' statements ({@link SupersessionCarry}).
 * @throws PegasError STORE_UNAVAILABLE.
 */
export async function planIngestSupersessions(
  services: IngestSupersessionReads,
  atoms: PlannedAtom[],
  now = new Date().toISOString(),
  carry?: SupersessionCarry,
): Promise<PlannedSupersession[]> {
  const memo = new Map<string, PropertyClaim[]>();
  const claims = atoms.map((p) => {
    processedText(4 * p.atom.content.length); // the normalized text and its sentences: garbage once read
    return STATEMENT_TYPES.has(p.atom.type) && !p.mergeInto && !isPassage(p) ? readClaims(p.atom.content, memo) : [];
  });
  const dated = atoms.map((p, i) => (claims[i].length ? datedPlanned(p, claims[i], now) : null));
  const out = planWithin(atoms, claims, dated, carry);
  const about = new Map<string, number[]>();
  for (const [i, cs] of claims.entries())
    for (const c of cs) {
      if (!c.subjectText || (!about.has(c.subjectText) && about.size >= MAX_SUBJECTS)) continue;
      const list = about.get(c.subjectText) ?? [];
      if (list.at(-1) !== i) list.push(i);
      about.set(c.subjectText, list);
    }
  if (!about.size) return out;
  const phrases = [...about.keys()];
  const k = Math.max(3, Math.min(SUPERSESSION_CANDIDATES, Math.floor(MAX_STORED_CANDIDATES / phrases.length)));
  const [lexemes] = await Promise.all([services.searchReads.analyzeMany(phrases), services.projection.sync()]);
  const found = lexemes.map((l) =>
    services.projection.lexical(l, k, { status: [...LIVE], types: [...STATEMENT_LIST] }, { neighbours: false }),
  );
  const ids = [...new Set(found.flatMap((hits) => hits.map((h) => h.atomId)))];
  const subjects = await services.supersession.supersessionSubjects(ids);
  const passages = new Set(subjects.filter((s) => !takesPart(s)).map((s) => s.id));
  const stored = new Map(subjects.map((s) => [s.id, datedStored(s)]));
  const seen = new Set<string>();
  for (const [n, phrase] of phrases.entries())
    for (const i of about.get(phrase)!)
      for (const { atomId } of found[n]) {
        const s = stored.get(atomId);
        const key = `${atomId}:${i}`;
        if (!s || passages.has(atomId) || seen.has(key) || s.text === atoms[i].atom.content) continue;
        seen.add(key);
        const v = decideSupersession(s, dated[i]!);
        if (v.outcome === "b_supersedes_a") out.push({ newer: { planned: i }, older: { atomId }, reason: v.reason });
        if (v.outcome === "a_supersedes_b") out.push({ newer: { atomId }, older: { planned: i }, reason: v.reason });
      }
  return out;
}

/** The plans' share of `planned` (refs index the plans' concatenated atoms): each by the plan of its newer atom. */
export function splitByPlan(planned: PlannedSupersession[], sizes: number[]): PlannedSupersession[][] {
  let sum = 0;
  const ends = sizes.map((n) => (sum += n));
  const out: PlannedSupersession[][] = sizes.map(() => []);
  for (const p of planned) {
    const at = p.newer.planned ?? p.older.planned ?? 0;
    const plan = ends.findIndex((e) => at < e);
    out[Math.max(plan, 0)].push(p);
  }
  return out;
}
