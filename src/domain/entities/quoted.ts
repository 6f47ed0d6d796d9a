/**
 * Names in quotation marks: works («Палата № 6», "Botchan"), organisations after «компания»/«ООО», projects after
 * «проект». A quotation counts as a name only when it is short, opens with a capital or digit and does not read as a
 * sentence (dialogue ends in punctuation), and something says so: a cue word before it, Russian guillemets around a
 * title, or English title case. Pure.
 */
import { nameKey } from "./names.ts";
import { ENGLISH_STOP_WORDS } from "../stopwords.ts";
import { hasCue, NOT_NAMES, ORG_PREFIXES, PROJECT_CUES, SOFTWARE_CUES, WORK_CUES } from "./lexicon.ts";
import { everydayWord } from "./common-words.ts";
import type { EntityKind, EntityMention } from "./types.ts";

const QUOTED =
  /«([^«»\n]{1,80})»|“([^“”\n]{1,80})”|„([^„“”\n]{1,80})[“”]|"([^"\n]{1,80})"|(?<![\p{L}\p{N}])['‘]([^'‘’\n]{2,80})['’](?![\p{L}\p{N}])/gu;
const SPEECH = new Set(
  "said says say saying asked asks replied answered cried shouted exclaimed muttered whispered added called yelled sang".split(
    " ",
  ),
);
const SMALL_WORDS = new Set(
  "a an the of and or in on at to for by with from into is are was be но и в на с по за из к о the".split(" "),
);

/** The lower-case words right before `start` (at most two), nearest last. */
function wordsBefore(text: string, start: number): string[] {
  const head = text.slice(Math.max(0, start - 40), start);
  return (
    head
      .toLowerCase()
      .replaceAll("ё", "е")
      .match(/[\p{L}-]+/gu) ?? []
  ).slice(-2);
}

/** Every longer word of an English quotation starts with a capital ("The Old Man and the Sea"). */
function titleCase(inner: string): boolean {
  const words = inner.split(/\s+/u).filter((w) => /\p{L}/u.test(w));
  return words.length > 0 && words.every((w) => SMALL_WORDS.has(w.toLowerCase()) || /^\P{L}*[\p{Lu}\d]/u.test(w));
}

/** The kind of a quotation, with confidence, or null when it is not a name. */
function quotedKind(text: string, start: number, inner: string, guillemets: boolean): [EntityKind, number] | null {
  if (!/^[\p{Lu}\d]/u.test(inner) || /[.!?,;:…]$/u.test(inner) || /[.!?]\s/u.test(inner)) return null;
  const words = inner.split(/\s+/u);
  if (words.length > 8) return null;
  if (words.length === 1 && (ENGLISH_STOP_WORDS.has(inner.toLowerCase()) || NOT_NAMES.has(inner.toLowerCase())))
    return null;
  const before = wordsBefore(text, start);
  const cue = (s: ReadonlySet<string>) => before.some((w) => hasCue(s, w));
  if (cue(ORG_PREFIXES)) return ["organisation", 0.9];
  if (cue(PROJECT_CUES)) return ["project", 0.85];
  if (cue(WORK_CUES)) return ["work", 0.9];
  if (cue(SOFTWARE_CUES)) return ["software", 0.7];
  // Russian quotes dialogue and titles alike with guillemets: without a cue only a title-like quotation counts
  // (a number, «Палата № 6», or a second capitalised word); «Совершенно верно» is a line of speech.
  if (guillemets && (/[\d№]/u.test(inner) || words.slice(1).some((w) => /^\p{Lu}/u.test(w)))) return ["work", 0.65];
  if (guillemets) return null;
  // An English quotation without a cue is a title only when it has two to six title-case words and no comma
  // (one capitalised word in quotes is as often a line of dialogue: "Yes", "Noodles").
  if (words.length >= 2 && words.length <= 6 && !inner.includes(",") && titleCase(inner)) return ["work", 0.55];
  // One capitalised word quoted inside a sentence (`watch "Elf"`, `such as “Kubuntu”`) is a name; at a sentence's
  // start it is as often a line of dialogue.
  const spoken = before.length > 0 && SPEECH.has(before[before.length - 1]);
  // A list of quoted names (`“Kubuntu”, “Lubuntu”`) counts the same.
  // An everyday word quoted alone with no cue is a word cited, a label or a sign ("Values" section, in “News”),
  // unless someone's ("Ed Sheeran's "Perfect"").
  const everyday = everydayWord(inner.toLowerCase()) && !/['’]s\s*$/u.test(text.slice(Math.max(0, start - 4), start));
  if (
    words.length === 1 &&
    !spoken &&
    !everyday &&
    /[\p{L}"”»][\s,]*$/u.test(text.slice(Math.max(0, start - 3), start))
  )
    return ["work", 0.5];
  return null;
}

/** Mentions named by quotation marks in `text`, in order. */
export function quotedMentions(text: string): EntityMention[] {
  const out: EntityMention[] = [];
  for (const m of text.matchAll(QUOTED)) {
    const group = m[1] ?? m[2] ?? m[3] ?? m[4] ?? m[5];
    // Single quotes also mark speech and nicknames ('Badger'): only a title of two or more title-case words counts.
    if (
      m[5] !== undefined &&
      !(m[5].trim().split(/\s+/u).length >= 2 && /^\p{Lu}/u.test(m[5]) && titleCase(m[5].trim()))
    )
      continue;
    // American style keeps a list's comma inside the quotes ("Pushing to the Front,"): a title of two or more
    // capitalised words keeps its name without it; one word with a comma is a line of dialogue ("Nonsense,").
    let inner = group.trim();
    // So does a sentence's full stop after a naming word (a piece called "Finding Freedom."); without one a quoted
    // line ending so is speech ("I'm from Aizu.").
    const naming = /\b(?:called|named|titled|entitled)\s*$/iu.test(
      text.slice(Math.max(0, (m.index ?? 0) - 20), m.index),
    );
    if (
      (/,$/u.test(inner) || (naming && /\.$/u.test(inner))) &&
      inner.split(/\s+/u).length >= 2 &&
      titleCase(inner.slice(0, -1))
    )
      inner = inner.slice(0, -1);
    if (inner.length < 2) continue;
    const start = (m.index ?? 0) + 1 + group.indexOf(inner);
    const kind = quotedKind(text, m.index ?? 0, inner, m[1] !== undefined);
    if (!kind) continue;
    const name = inner.replace(/\s+/gu, " ");
    out.push({
      start,
      end: start + inner.length,
      surface: inner,
      name,
      key: nameKey(name),
      kind: kind[0],
      confidence: kind[1],
    });
  }
  return out;
}
