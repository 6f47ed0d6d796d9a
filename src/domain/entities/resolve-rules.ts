/**
 * The evidence rules of alias resolution (domain/entities/resolve.ts): which keys contain which, patronymic variants,
 * short forms, key statistics over a corpus, and the union-find that keeps the merged sets. Pure.
 */
import type { EntityKind, EntityMention } from "./types.ts";

/** The mentions found in one document (or atom). */
export interface DocumentMentions {
  docId: string;
  mentions: readonly EntityMention[];
}

const PATRONYMIC_ROOT = /(?:ьевич|ьевна|евич|евна|ович|овна|ич|ыч|ична|ишна)$/u;

/** The words of a key. */
const words = (key: string) => key.split(" ");

/**
 * True when `short` is a proper in-order subsequence of `long`'s words («андрей ефимыч» in «андрей ефимыч рагин»). A
 * lone word counts anywhere in the same document (`anywhere`, "Alice" of "Alice Smith"), else only as the surname.
 */
export function contains(long: string, short: string, anywhere: boolean): boolean {
  const lw = words(long);
  const sw = words(short);
  if (sw.length >= lw.length) return false;
  let i = 0;
  for (const w of lw) if (w === sw[i]) i++;
  if (i < sw.length) return false;
  return sw.length > 1 || anywhere || lw[lw.length - 1] === sw[0];
}

/** The root of a patronymic («федорович», «федорыч» → «федор»; «дмитриевич», «дмитрич» → «дмитр»). */
function patronymicRoot(w: string): string | null {
  if (!PATRONYMIC_ROOT.test(w) || w.length < 5) return null;
  return w.replace(PATRONYMIC_ROOT, "").replace(/[иь]$/u, "");
}

/** True when two keys are one name with the full and the colloquial patronymic. */
export function patronymicVariant(a: string, b: string): boolean {
  const aw = words(a);
  const bw = words(b);
  if (a === b || aw.length !== bw.length || aw.length < 2) return false;
  return aw.every((w, i) => {
    if (w === bw[i]) return true;
    const ra = patronymicRoot(w);
    return ra !== null && ra === patronymicRoot(bw[i]);
  });
}

/** Statistics of one key over the corpus. */
export interface KeyInfo {
  key: string;
  names: Map<string, number>;
  kinds: Map<EntityKind, number>;
  docs: Set<string>;
}

/** Names, kinds (weighted by confidence) and documents of every key. */
export function keyInfos(docs: readonly DocumentMentions[]): Map<string, KeyInfo> {
  const out = new Map<string, KeyInfo>();
  for (const d of docs)
    for (const m of d.mentions) {
      let k = out.get(m.key);
      if (!k) out.set(m.key, (k = { key: m.key, names: new Map(), kinds: new Map(), docs: new Set() }));
      k.names.set(m.name, (k.names.get(m.name) ?? 0) + 1);
      k.kinds.set(m.kind, (k.kinds.get(m.kind) ?? 0) + m.confidence);
      k.docs.add(d.docId);
    }
  return out;
}

/** The kind with the largest weight. */
export function topKind(kinds: ReadonlyMap<EntityKind, number>): EntityKind {
  return [...kinds].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0][0];
}

/** Keys can name one entity only when their kinds agree (a person "Washington" is not the place). */
export function sameKind(a: KeyInfo, b: KeyInfo): boolean {
  return topKind(a.kinds) === topKind(b.kinds);
}

/**
 * True when a shorter name may be an alias of a longer one at all: both name a person. A place, work or institution
 * inside a longer name is usually another thing ("Mozilla" / "Mozilla Foundation", "Project Gutenberg License").
 */
export function personPair(a: KeyInfo, b: KeyInfo): boolean {
  return topKind(a.kinds) === "person" && topKind(b.kinds) === "person";
}

/**
 * True when `short` is a shortened form of the single word `long` in the same document ("caro" of "caroline"): at
 * least three letters, and three letters shorter, so that a plural or a case ending ("kazans", «громовых») is not.
 */
export function prefixForm(long: string, short: string): boolean {
  return (
    !long.includes(" ") &&
    !short.includes(" ") &&
    short.length >= 3 &&
    long.length >= short.length + 3 &&
    long.startsWith(short)
  );
}

/** A union-find over keys; the root of a set is its canonical key. */
export class KeyUnion {
  private readonly parent = new Map<string, string>();
  /** The canonical key of `k`'s set. */
  find(k: string): string {
    let r = k;
    while (this.parent.has(r) && this.parent.get(r) !== r) r = this.parent.get(r)!;
    return r;
  }
  /** Joins `alias`'s set to `into`'s set (`into`'s root stays canonical). */
  join(alias: string, into: string): void {
    const a = this.find(alias);
    const b = this.find(into);
    if (a !== b) this.parent.set(a, b);
  }
}
