/**
 * Supersession of an ingest's atoms (issue 22), decided before its transaction and recorded inside it: the rule of
 * memory_store (core/knowledge/supersession.ts, domain/supersession) applied to every statement atom of the documents,
 * against the stored atoms and within the documents — the newer statement of the same exclusive property of the same
 * subject supersedes the older one, by event time else by observed time; "also works at" and an old event reported
 * later supersede nothing. Cost stays linear in the atoms: each atom's claims are read once; stored candidates come
 * from ONE full-text query over the distinct subjects (SupersessionStore.atomsAbout, the GIN index), and atoms of the
 * documents meet only those that share a subject word and a property (a hash map), never every other atom.
 */
import { type PropertyClaim, readClaims } from "../../domain/supersession/claim.ts";
import { type DatedStatement, decideSupersession, effectiveTime } from "../../domain/supersession/decide.ts";
import type { PlannedAtom } from "../../ports/store/atom-writes.ts";
import type { PlannedSupersession } from "../../ports/store/ingest.ts";
import type { SupersessionSubject } from "../../ports/store/supersession.ts";
import type { Services } from "../services.ts";
import { SUPERSESSION_CANDIDATES } from "../knowledge/supersession.ts";

/** Atom types that state facts (code, rules and tables supersede nothing), as for memory_store. */
const STATEMENT_TYPES = new Set(["text", "fact", "definition"]);
/** Most distinct subjects looked up in the store per ingest (a book names thousands; the first ones are kept). */
export const MAX_SUBJECTS = 2000;
/** Atoms of the documents met per bucket (subject word × property); beyond, a name said everywhere decides nothing. */
const MAX_BUCKET = 50;

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

type Ref = PlannedSupersession["newer"];

/**
 * The supersessions to record for `atoms` (the ingest's planned atoms, dated; refs index this list): pairs within the
 * list that share a bucket, and each atom against the stored atoms about its subjects. An atom merged into another
 * (a near-duplicate) takes no part. @throws PegasError STORE_UNAVAILABLE.
 */
export async function planIngestSupersessions(
  services: Pick<Services, "supersession">,
  atoms: PlannedAtom[],
  now = new Date().toISOString(),
): Promise<PlannedSupersession[]> {
  const claims = atoms.map((p) => (STATEMENT_TYPES.has(p.atom.type) && !p.mergeInto ? readClaims(p.atom.content) : []));
  const dated = atoms.map((p, i) => (claims[i].length ? datedPlanned(p, claims[i], now) : null));
  const out: PlannedSupersession[] = [];
  const seen = new Set<string>();
  const decide = (a: DatedStatement, b: DatedStatement, ra: Ref, rb: Ref) => {
    const v = decideSupersession(a, b);
    if (v.outcome === "none") return;
    const [newer, older] = v.outcome === "b_supersedes_a" ? [rb, ra] : [ra, rb];
    out.push({ newer, older, reason: v.reason });
  };
  const buckets = new Map<string, number[]>();
  const subjects = new Map<string, number[]>();
  for (const [i, cs] of claims.entries()) {
    const met = new Set<number>();
    for (const c of cs) {
      if (c.subjectText && (subjects.has(c.subjectText) || subjects.size < MAX_SUBJECTS))
        subjects.set(c.subjectText, [...(subjects.get(c.subjectText) ?? []), i]);
      for (const b of bucketsOf(c)) {
        const list = buckets.get(b) ?? [];
        for (const j of list) met.add(j);
        if (list.length < MAX_BUCKET) buckets.set(b, [...list, i]);
      }
    }
    for (const j of met) {
      const key = `${j}:${i}`;
      if (j === i || seen.has(key) || atoms[j].atom.contentHash === atoms[i].atom.contentHash) continue;
      seen.add(key);
      decide(dated[j]!, dated[i]!, { planned: j }, { planned: i });
    }
  }
  if (!subjects.size) return out;
  const phrases = [...subjects.keys()];
  const found = await services.supersession.atomsAbout(phrases, SUPERSESSION_CANDIDATES);
  const ids = [...new Set(found.flat())];
  const stored = new Map((await services.supersession.supersessionSubjects(ids)).map((s) => [s.id, s]));
  const storedDated = new Map([...stored].map(([id, s]) => [id, datedStored(s)]));
  for (const [k, phrase] of phrases.entries()) {
    for (const i of new Set(subjects.get(phrase))) {
      for (const id of found[k]) {
        const s = stored.get(id);
        const key = `s${id}:${i}`;
        if (!s || seen.has(key) || s.content === atoms[i].atom.content) continue;
        seen.add(key);
        decide(storedDated.get(id)!, dated[i]!, { atomId: id }, { planned: i });
      }
    }
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
    out[
      Math.max(
        0,
        ends.findIndex((e) => at < e),
      )
    ].push(p);
  }
  return out;
}
