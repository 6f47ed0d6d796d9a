/**
 * One text's mentions made consistent: a Russian word whose case ending was ambiguous alone («Хоботова»: a man's
 * genitive or a woman's nominative) takes the name another mention of the same text gives its stem («Хоботов»),
 * and every mention of one key takes the kind its most confident mention has. Pure.
 */
import { recase } from "./russian-names.ts";
import type { EntityMention } from "./types.ts";

const ENDINGS: ReadonlyArray<readonly [string, string]> = [
  ["ым", ""],
  ["ом", ""],
  ["а", ""],
  ["у", ""],
  ["е", ""],
  ["я", "й"],
  ["ю", "й"],
  ["ы", "а"],
  ["е", "а"],
  ["у", "а"],
  ["ой", "а"],
];

/** The single-word names a text gives, by key, with every last word of a longer name (a surname). */
function wordNames(ms: readonly EntityMention[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of ms) {
    const words = m.name.split(" ");
    if (words.length === 1) out.set(m.key, m.name);
    else if (words.length === 3) out.set(words[2].toLowerCase().replaceAll("ё", "е"), words[2]);
  }
  return out;
}

/** A Russian single-word mention's name as a stem another mention of the text confirms, or null. */
function confirmedStem(m: EntityMention, names: ReadonlyMap<string, string>): string | null {
  if (m.key.includes(" ") || !/\p{Script=Cyrillic}/u.test(m.key)) return null;
  for (const [ending, repl] of ENDINGS) {
    if (!m.key.endsWith(ending) || m.key.length - ending.length < 3) continue;
    const stem = m.key.slice(0, m.key.length - ending.length) + repl;
    if (stem !== m.key && names.has(stem)) return stem;
  }
  return null;
}

/** The mentions of one text with ambiguous Russian forms resolved and kinds agreed per key. */
export function unifyDocument(ms: readonly EntityMention[]): EntityMention[] {
  const names = wordNames(ms);
  const out = ms.map((m) => {
    const stem = confirmedStem(m, names);
    return stem ? { ...m, name: recase(m.surface, stem), key: stem } : m;
  });
  const best = new Map<string, EntityMention>();
  for (const m of out) {
    const b = best.get(m.key);
    if (!b || m.confidence > b.confidence) best.set(m.key, m);
  }
  return out.map((m) => {
    const b = best.get(m.key);
    return b && b.kind !== m.kind ? { ...m, kind: b.kind } : m;
  });
}
