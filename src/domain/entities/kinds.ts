/**
 * The kind of a found name from the words around it: a title or patronymic makes a person, "Inc"/«ООО» an
 * organisation, a version or "library" software, "project" a project, a preposition or gazetteer a place. Each
 * cue carries a confidence; with no cue a short name is guessed a person, with low confidence. Pure.
 */
import type { EntityKind } from "./types.ts";
import {
  FIRST_NAMES,
  hasCue,
  INSTITUTION_HEADS,
  ORG_PREFIXES,
  ORG_SUFFIXES,
  PLACE_PREPOSITIONS,
  PLACE_SUFFIXES,
  PROJECT_CUES,
  PROJECT_SUFFIXES,
  RU_PLACE_HEADS,
  WORK_AFTER,
  WORK_SUFFIXES,
  SOFTWARE_CUES,
  TITLES,
  WORK_CUES,
} from "./lexicon.ts";
import { KNOWN_SOFTWARE, PLACES } from "./gazetteer.ts";
import { HONORIFIC_SUFFIX } from "./names.ts";
import { patronymic } from "./russian-names.ts";
import type { Token } from "./tokens.ts";

/** A run of name words with the tokens around it and what the extractor already knows about it. */
export interface RunContext {
  run: readonly Token[];
  /** The token right before the run (after stripping), if any. */
  before?: Token;
  /** The token before `before`, if any ("went to Rome": "went"). */
  before2?: Token;
  /** The token right after the run, if any. */
  after?: Token;
  /** The run lost a leading title ("Dr.", «доктор»). */
  titled: boolean;
  /** The canonical name's key. */
  key: string;
  /** The text between the run and the next token. */
  gapAfter: string;
}

/** A guessed kind with its confidence in (0, 1]. */
export interface KindGuess {
  kind: EntityKind;
  confidence: number;
}

/** Japanese place words: wards, towns, villages, prefectures (-ku, -machi, -mura, -ken), inns and shops (-ya). */
const JAPANESE_PLACE = /\p{L}(?:-ku|-machi|machi|-cho|-mura|-ken|-ya)$/u;
const VERSION = /^v?\d+(?:\.\d+)*$/u;
const ENGLISH_PLACE_PREPOSITIONS = new Set(["in", "near", "into", "inside", "outside", "across", "throughout"]);
/** Russian pet names: «Дарьюшка», «Мойсейка», «Ванька», «Машенька». */
const RU_PET_NAME = /^[\p{L}]+(?:ушка|юшка|енька|онька|ечка|очка|йка|нька|ша|ня)$/u;
const RUSSIAN_PERSON_PREPOSITIONS = new Set(["у", "к", "ко", "с", "со"]);
/** Words of motion before "to" that make its object a place ("went to Rome", "a trip to Ireland"). */
const MOTION = new Set(
  "go goes went gone going come came coming move moved moving travel traveled travelled trip trips flew fly flight drove drive back off way return returned returning visit visited moved headed heading road journey".split(
    " ",
  ),
);

/** True when the run reads as a person's name by its own words. */
export function personShaped(run: readonly Token[]): boolean {
  if (run.some((t) => t.initial || HONORIFIC_SUFFIX.test(t.text))) return true;
  if (run.slice(1).some((t) => patronymic(t.lower) !== null)) return true;
  return FIRST_NAMES.has(run[0].lower.replace(/['’]s$/u, ""));
}

/** An organisation, software or project cue, else null. */
function institutional(x: RunContext): KindGuess | null {
  const first = x.run[0].lower;
  const last = x.run[x.run.length - 1].lower.replace(/\.$/u, "");
  const before = x.before?.lower ?? "";
  const after = x.after?.lower ?? "";
  const adjacent = x.gapAfter.trim() === "";
  if (ORG_SUFFIXES.has(last) || (x.run.length > 1 && ORG_PREFIXES.has(first)))
    return { kind: "organisation", confidence: 0.9 };
  if (hasCue(ORG_PREFIXES, before)) return { kind: "organisation", confidence: 0.8 };
  if (hasCue(PROJECT_CUES, before) || PROJECT_CUES.has(first) || (adjacent && PROJECT_CUES.has(after)))
    return { kind: "project", confidence: 0.75 };
  if (hasCue(WORK_CUES, before) || (adjacent && WORK_AFTER.has(after))) return { kind: "work", confidence: 0.75 };
  if (x.run.length > 1 && WORK_SUFFIXES.has(last)) return { kind: "work", confidence: 0.8 };
  if (x.run.length > 1 && INSTITUTION_HEADS.has(first)) return { kind: "organisation", confidence: 0.8 };
  if (hasCue(RU_PLACE_HEADS, before)) return { kind: "place", confidence: 0.8 };
  if (x.run.length > 1 && PROJECT_SUFFIXES.has(last)) return { kind: "project", confidence: 0.8 };
  if (KNOWN_SOFTWARE.has(x.key) || KNOWN_SOFTWARE.has(first)) return { kind: "software", confidence: 0.85 };
  if (x.run.length > 1 && SOFTWARE_CUES.has(last)) return { kind: "software", confidence: 0.8 };
  if (adjacent && (SOFTWARE_CUES.has(after) || (x.after && VERSION.test(x.after.text) && /\./u.test(x.after.text))))
    return { kind: "software", confidence: 0.8 };
  if (x.run.some((t) => /\p{Ll}\p{Lu}|\.js$|\p{L}\d|\d\p{L}/u.test(t.text)))
    return { kind: "software", confidence: 0.6 };
  return null;
}

/** The kind of a run of name words and how sure the guess is. */
export function guessKind(x: RunContext): KindGuess {
  const inst = institutional(x);
  if (inst && inst.confidence >= 0.8) return inst;
  if (x.titled || personShaped(x.run)) return { kind: "person", confidence: 0.9 };
  if (inst) return inst;
  const last = x.run[x.run.length - 1].lower;
  if (x.run.length > 1 && PLACE_SUFFIXES.has(last)) return { kind: "place", confidence: 0.85 };
  if (PLACES.has(x.key)) return { kind: "place", confidence: 0.85 };
  if (JAPANESE_PLACE.test(x.key)) return { kind: "place", confidence: 0.7 };
  const before = x.before?.lower ?? "";
  const cyrillic = /\p{Script=Cyrillic}/u.test(x.run[0].text);
  if (cyrillic && (RUSSIAN_PERSON_PREPOSITIONS.has(before) || RU_PET_NAME.test(x.key)))
    return { kind: "person", confidence: 0.7 };
  if (before === "to" && MOTION.has(x.before2?.lower ?? "")) return { kind: "place", confidence: 0.7 };
  // "in WASI", "in JS": an acronym after "in" is a technology or a body more often than a place.
  if (!x.run[0].allCaps && (cyrillic ? PLACE_PREPOSITIONS.has(before) : ENGLISH_PLACE_PREPOSITIONS.has(before)))
    return { kind: "place", confidence: 0.6 };
  if (x.run.length === 1 && x.run[0].allCaps) return { kind: "organisation", confidence: 0.5 };
  return { kind: "person", confidence: 0.55 };
}

/** True when `lower` is a title or honorific ("mr", "dr.", «доктор»). */
export function isTitle(lower: string): boolean {
  return TITLES.has(lower.replace(/\.$/u, ""));
}
