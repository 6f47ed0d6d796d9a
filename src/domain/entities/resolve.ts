/**
 * Alias resolution over a corpus of mentions (issue 22 item 1): mentions with one key are one name; a shorter name
 * joins a longer one only on evidence — the longer name contains it in the same document («Андрей Ефимыч» in a text
 * that also says «Андрей Ефимыч Рагин», "Caro" beside "Caroline"), it is contained in exactly one name of the whole
 * corpus (a surname alone: «Хоботов» → «Евгений Федорыч Хоботов»), or it is the same person with the full or the
 * colloquial patronymic («Евгений Федорович» = «Евгений Федорыч»). A name that two entities could own (a surname
 * shared by two people) stays its own entity with the candidates listed, never guessed. Every merge is returned with
 * its rule and documents so that storage can audit and undo it. Pure and deterministic (input order does not matter).
 */
import {
  contains,
  type DocumentMentions,
  KeyUnion,
  type KeyInfo,
  keyInfos,
  patronymicVariant,
  personPair,
  prefixForm,
  sameKind,
  topKind,
} from "./resolve-rules.ts";
import type { EntityKind, EntityMention } from "./types.ts";

/** The words of a key. */
const words = (key: string) => key.split(" ");

export type { DocumentMentions } from "./resolve-rules.ts";

/** Why a name was joined to another. */
export type MergeRule = "contains-same-document" | "prefix-same-document" | "contained-unique" | "patronymic-variant";

/** One merge: `alias` (a key) was joined to the entity of `into` (its canonical key), with the evidence. */
export interface MergeEvidence {
  alias: string;
  into: string;
  rule: MergeRule;
  /** Documents where the evidence was seen (empty for corpus-wide rules). */
  docIds: string[];
  detail: string;
}

/** A mention placed in its document. */
export interface PlacedMention {
  docId: string;
  mention: EntityMention;
}

/** One resolved entity: canonical name and key, kind, the other names it goes by, and every mention. */
export interface ResolvedEntity {
  key: string;
  name: string;
  kind: EntityKind;
  aliases: string[];
  mentions: PlacedMention[];
  /** Set when the name is ambiguous: the keys of the entities it could be; the mentions stay here. */
  candidates?: string[];
}

/** The resolution of a corpus: entities (ambiguous ones flagged), the merges made, and their evidence. */
export interface Resolution {
  entities: ResolvedEntity[];
  merges: MergeEvidence[];
}

/** Where each mention goes: an entity root, or an ambiguous name with its candidate roots. */
type Target = { root: string } | { ambiguous: string; candidates: string[] };

/** Collects merges, one line per (alias, into, rule) with the documents that showed it. */
class MergeLog {
  private readonly rows = new Map<string, MergeEvidence>();
  add(alias: string, into: string, rule: MergeRule, docId: string | null, detail: string): void {
    const id = `${alias}\u0000${into}\u0000${rule}`;
    const row = this.rows.get(id) ?? { alias, into, rule, docIds: [], detail };
    if (docId !== null && !row.docIds.includes(docId)) row.docIds.push(docId);
    this.rows.set(id, row);
  }
  list(): MergeEvidence[] {
    return [...this.rows.values()].map((r) => ({ ...r, docIds: [...r.docIds].sort() }));
  }
}

/** Corpus-wide rules: patronymic variants, then names contained in exactly one other entity (longest first). */
function corpusMerges(infos: ReadonlyMap<string, KeyInfo>, union: KeyUnion, log: MergeLog): Map<string, string[]> {
  const keys = [...infos.keys()].sort((a, b) => words(b).length - words(a).length || a.localeCompare(b));
  const mentions = (k: string) => [...infos.get(k)!.names.values()].reduce((x, y) => x + y, 0);
  // Index: word → the keys holding it, so each key is compared only with keys that share a word (not all pairs).
  const byWord = wordIndex(keys);
  for (const a of keys)
    for (const b of byWord.get(words(a)[0]) ?? []) {
      if (a >= b || !patronymicVariant(a, b) || !sameKind(infos.get(a)!, infos.get(b)!)) continue;
      const [alias, into] = mentions(a) > mentions(b) || (mentions(a) === mentions(b) && a < b) ? [b, a] : [a, b];
      union.join(alias, into);
      log.add(alias, into, "patronymic-variant", null, `«${alias}» and «${into}»: one patronymic, full and colloquial`);
    }
  const ambiguous = new Map<string, string[]>();
  for (const k of keys) {
    const near = byWord.get(words(k)[words(k).length - 1]) ?? [];
    const containers = near.filter((l) => contains(l, k, false) && personPair(infos.get(l)!, infos.get(k)!));
    const roots = [...new Set(containers.map((l) => union.find(l)))].sort();
    if (roots.length === 1) {
      union.join(k, roots[0]);
      log.add(k, roots[0], "contained-unique", null, `only «${roots[0]}» in the corpus contains «${k}»`);
    } else if (roots.length > 1) ambiguous.set(k, roots);
  }
  return ambiguous;
}

/** Word → the keys holding it, in the order of `keys` (so a scan of one list meets keys as a scan of all would). */
function wordIndex(keys: readonly string[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const k of keys)
    for (const w of new Set(words(k))) {
      const list = out.get(w);
      if (list) list.push(k);
      else out.set(w, [k]);
    }
  return out;
}

/** The shortest form {@link prefixForm} accepts, by which one-word keys are indexed. */
const PREFIX_MIN = 3;

/**
 * The target of every mention of one document: its in-document container, else the corpus-wide decision. The
 * target depends only on the mention's key, so it is decided once per distinct key, and the containers of a key are
 * looked up among the keys sharing its first word (every container holds it) or, for a one-word key's short forms,
 * among the one-word keys sharing its first three letters, each list in first-mention order: a scan of every key per
 * mention made a 20 MB text's resolution quadratic.
 */
function documentTargets(
  doc: DocumentMentions,
  infos: ReadonlyMap<string, KeyInfo>,
  union: KeyUnion,
  corpusAmbiguous: ReadonlyMap<string, string[]>,
  log: MergeLog,
): Target[] {
  const here = [...new Set(doc.mentions.map((m) => m.key))];
  const byWord = wordIndex(here);
  const byPrefix = new Map<string, string[]>();
  for (const l of here)
    if (!l.includes(" ") && l.length >= PREFIX_MIN) {
      const list = byPrefix.get(l.slice(0, PREFIX_MIN));
      if (list) list.push(l);
      else byPrefix.set(l.slice(0, PREFIX_MIN), [l]);
    }
  const decided = new Map<string, Target>();
  const decide = (key: string): Target => {
    const kind = (l: string) => personPair(infos.get(l)!, infos.get(key)!);
    const full = (byWord.get(words(key)[0]) ?? []).filter((l) => contains(l, key, true) && kind(l));
    const rule: MergeRule = full.length ? "contains-same-document" : "prefix-same-document";
    const containers = full.length
      ? full
      : (byPrefix.get(key.slice(0, PREFIX_MIN)) ?? []).filter((l) => prefixForm(l, key) && kind(l));
    const roots = [...new Set(containers.map((l) => union.find(l)))].sort();
    if (roots.length === 1 && union.find(key) !== roots[0]) {
      const into = containers.find((l) => union.find(l) === roots[0])!;
      log.add(key, into, rule, doc.docId, `«${key}» and «${into}» in one document`);
      return { root: roots[0] };
    }
    if (roots.length > 1) return { ambiguous: key, candidates: roots };
    const wide = corpusAmbiguous.get(key);
    if (wide && union.find(key) === key) return { ambiguous: key, candidates: wide };
    return { root: union.find(key) };
  };
  return doc.mentions.map((m) => {
    let t = decided.get(m.key);
    if (!t) decided.set(m.key, (t = decide(m.key)));
    return t;
  });
}

/** The entity of one group of placed mentions: the longest, most used name is canonical, the others aliases. */
function entityOf(group: readonly PlacedMention[]): ResolvedEntity {
  const byKey = new Map<string, PlacedMention[]>();
  for (const p of group) {
    const list = byKey.get(p.mention.key);
    if (list) list.push(p);
    else byKey.set(p.mention.key, [p]);
  }
  const key = [...byKey.keys()].sort(
    (a, b) =>
      words(b).length - words(a).length ||
      b.length - a.length ||
      byKey.get(b)!.length - byKey.get(a)!.length ||
      a.localeCompare(b),
  )[0];
  const names = new Map<string, number>();
  for (const p of byKey.get(key)!) names.set(p.mention.name, (names.get(p.mention.name) ?? 0) + 1);
  const name = [...names].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0][0];
  const kinds = new Map<EntityKind, number>();
  for (const p of group) kinds.set(p.mention.kind, (kinds.get(p.mention.kind) ?? 0) + p.mention.confidence);
  const aliases = [...new Set(group.map((p) => p.mention.name))].filter((n) => n !== name).sort();
  return { key, name, kind: topKind(kinds), aliases, mentions: [...group] };
}

/**
 * Resolves the mentions of a corpus into entities: `docs` as {docId, mentions}; returns every entity (canonical
 * key and name, kind, aliases, placed mentions; `candidates` when the name is ambiguous) and every merge with its
 * rule, alias, target and documents. Entities are sorted by key. Method: union-find over name keys with the
 * evidence rules of resolve-rules.ts (containment, patronymic variants, unique surnames, in-document short forms).
 */
export function resolveEntities(docs: readonly DocumentMentions[]): Resolution {
  const sorted = [...docs].sort((a, b) => a.docId.localeCompare(b.docId));
  const infos = keyInfos(sorted);
  const union = new KeyUnion();
  const log = new MergeLog();
  const corpusAmbiguous = corpusMerges(infos, union, log);
  const groups = new Map<string, PlacedMention[]>();
  const ambiguity = new Map<string, string[]>();
  for (const doc of sorted) {
    const targets = documentTargets(doc, infos, union, corpusAmbiguous, log);
    doc.mentions.forEach((mention, i) => {
      const t = targets[i];
      const id = "root" in t ? t.root : `?${t.ambiguous}\u0000${t.candidates.join("\u0000")}`;
      if (!("root" in t)) ambiguity.set(id, t.candidates);
      const group = groups.get(id);
      if (group) group.push({ docId: doc.docId, mention });
      else groups.set(id, [{ docId: doc.docId, mention }]);
    });
  }
  const canonical = new Map<string, string>();
  const entities: ResolvedEntity[] = [];
  for (const [id, group] of groups) {
    const e = entityOf(group);
    if (!ambiguity.has(id)) canonical.set(id, e.key);
    entities.push(e);
  }
  for (const [i, [id]] of [...groups].entries()) {
    const cands = ambiguity.get(id);
    if (cands) entities[i].candidates = [...new Set(cands.map((r) => canonical.get(r) ?? r))].sort();
  }
  entities.sort((a, b) => a.key.localeCompare(b.key) || (a.candidates ? 1 : 0) - (b.candidates ? 1 : 0));
  const merges = log.list().map((m) => ({ ...m, into: canonical.get(union.find(m.into)) ?? m.into }));
  return { entities, merges: merges.sort((a, b) => a.alias.localeCompare(b.alias) || a.into.localeCompare(b.into)) };
}
