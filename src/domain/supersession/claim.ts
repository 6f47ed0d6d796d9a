/**
 * Reads a statement (English or Russian) into property claims: who or what it is about (the subject), which
 * property it states (domain/supersession/lexicon.ts), the value, and the markers that decide whether it replaces an
 * older value: a change ("now works at", «теперь»), an end ("no longer"), an addition ("also", «также»), the past
 * ("used to", «раньше»), a negation. Pattern-based, no model; words are compared by domain/meaning's light stems.
 * Pure; never throws; a statement that states no property gives no claim.
 */
import { lightStem } from "../meaning/light-stem.ts";
import { ENGLISH_STOP_WORDS, RUSSIAN_STOP_WORDS } from "../stopwords.ts";
import {
  ADDITIVE_MARKERS,
  CHANGE_MARKERS,
  ENDED_MARKERS,
  FRAME_WORDS,
  NEGATION,
  OCCUPATIONS,
  OFFICES,
  PAST_MARKERS,
  PRONOUNS,
  type PropertyKind,
  RELATIONSHIP_WORDS,
  SPEAKER,
  STATUS_WORDS,
  VERBS,
  type VerbPattern,
} from "./lexicon.ts";

/** One property claim of a statement. Word lists are light stems, in order. */
export interface PropertyClaim {
  property: PropertyKind | "switch";
  /** Subject words (empty for the speaker, "I"/«я»). */
  subject: string[];
  /** The subject is the speaker ("I", «я», "we"). */
  speaker: boolean;
  /** The subject's words as written, less stop words and dates ("" for the speaker): its full-text lookup key. */
  subjectText: string;
  /** The value's words; null when the statement names none («сменил работу»). */
  value: string[] | null;
  /** For a role: the organisation it is held in ("CEO of Acme" → acm), if named. */
  org: string[] | null;
  change: boolean;
  ended: boolean;
  additive: boolean;
  past: boolean;
  negated: boolean;
}

const WORD = /[\p{L}\p{N}][\p{L}\p{N}'’.-]*[\p{L}\p{N}]|[\p{L}\p{N}]/gu;
/** Where a subject phrase starts (read backwards from the verb). */
const LEFT_CUT =
  /.*(?:[,;:(—–]|\s-\s|(?<![\p{L}])(?:and|but|that|who|while|when|и|но|а|что|который|которая|когда)\s)/isu;
/** Where a value phrase ends. */
const RIGHT_CUT =
  /[,;:!?()—–]|\.(?=\s|$)|\s-\s|\s(?:and|but|since|from|until|because|after|before|when|while|in \d|as of|with|и|но|а|с \d|в \d|до|после|потому|когда|с тех пор|as a|as an)(?![\p{L}])/iu;
/** A weekday or season phrase ("last summer", "on Friday", «прошлой зимой», «в пятницу»), dropped likewise. */
const DAY_SEASON_WORDS =
  /(?<![\p{L}])(?:(?:(?:last|this|next|past|coming|on)\s+)?(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|spring|summer|autumn|winter)|(?:(?:в|во|на)\s+)?(?:прошл|эт|следующ|будущ)\p{L}*\s+(?:весн|лет|зим|осен|понедельник|вторник|сред|четверг|пятниц|суббот|воскресень)\p{L}*|во?\s+(?:понедельник|вторник|среду|четверг|пятницу|субботу|воскресенье)|весной|летом|зимой|осенью)(?![\p{L}])/giu;

/** A date or time phrase, dropped from a subject or value. */
const TIME_WORDS =
  /(?<![\p{L}\p{N}])(?:(?:in|since|from|as of|by|в|с|к)\s+)?(?:(?:january|february|march|april|may|june|july|august|september|october|november|december|январ\p{L}*|феврал\p{L}*|март\p{L}*|апрел\p{L}*|ма[йея]|июн\p{L}*|июл\p{L}*|август\p{L}*|сентябр\p{L}*|октябр\p{L}*|ноябр\p{L}*|декабр\p{L}*)\s+)?(?:1[89]\d\d|20\d\d)(?:\s*(?:году|года|год|г\.))?|(?<![\p{L}])(?:last|this|next) (?:year|month|week)|(?<![\p{L}])(?:в прошлом|в этом) (?:году|месяце)/giu;

const isStop = (w: string) => ENGLISH_STOP_WORDS.has(w) || RUSSIAN_STOP_WORDS.has(w);

/** Lower-case words of a phrase without frame words, stop words and dates; `keep` keeps digits with dots. */
function words(phrase: string): string[] {
  const clean = phrase.replace(TIME_WORDS, " ").replace(DAY_SEASON_WORDS, " ");
  return [...clean.matchAll(WORD)]
    .map((m) => m[0].toLowerCase().replace(/[’']s$/u, ""))
    .filter((w) => !FRAME_WORDS.has(w) && !isStop(w));
}

const stems = (ws: string[]) => ws.map((w) => (/\d/u.test(w) ? w.replace(/^v(?=\d)/u, "") : lightStem(w)));

/** The verb phrases compiled once, matched at a word start. */
const COMPILED = VERBS.map((p) => ({ p, re: new RegExp(`(?<![\\p{L}\\p{N}])(?:${p.verb})`, "giu") }));

const generic = (p: VerbPattern) => (p.property === "role" ? 1 : 0);

/** The earliest verb phrase of the text (the longest at one position), with its pattern. */
function firstVerb(text: string): { p: VerbPattern; start: number; end: number } | null {
  let best: { p: VerbPattern; start: number; end: number } | null = null;
  for (const { p, re } of COMPILED) {
    for (const m of text.matchAll(re)) {
      const end = m.index + m[0].length;
      if (/[\p{L}\p{N}]$/u.test(m[0]) && /^[\p{L}\p{N}]/u.test(text.slice(end))) continue;
      // At one position a specific property wins over a role's generic copula, then the longer phrase.
      const g = generic(p) - (best ? generic(best.p) : 0);
      if (!best || m.index < best.start || (m.index === best.start && (g < 0 || (g === 0 && end > best.end))))
        best = { p, start: m.index, end };
      break;
    }
  }
  return best;
}

function leftPhrase(left: string): string {
  return left.replace(LEFT_CUT, "");
}

function rightPhrase(right: string): string {
  const cut = RIGHT_CUT.exec(right);
  return (cut ? right.slice(0, cut.index) : right).trim();
}

const isOccupation = (w: string) => OCCUPATIONS.some((o) => w === o || (o.length >= 4 && w.startsWith(o)));
const isOffice = (w: string) => OFFICES.some((o) => w === o || (o.length >= 4 && w.startsWith(o)));

/** A role phrase split into the role and the organisation ("CEO of Acme", «директором Acme»). */
function splitRole(phrase: string): { role: string[]; org: string[] | null; orgText: string } {
  const of = /\s(?:of|at|for|in)\s/iu.exec(phrase);
  if (of) {
    const org = words(phrase.slice(of.index));
    return { role: stems(words(phrase.slice(0, of.index))), org: stems(org), orgText: org.join(" ") };
  }
  const ws = words(phrase);
  const at = ws.findIndex((w) => isOccupation(lightStem(w)));
  const named = phrase.match(/(?<=\s)\p{Lu}[\p{L}\p{N}&-]*(?:\s\p{Lu}[\p{L}\p{N}&-]*)*/u);
  if (at >= 0 && named && /[а-я]/iu.test(phrase))
    return { role: stems(ws.slice(0, at + 1)), org: stems(words(named[0])), orgText: words(named[0]).join(" ") };
  return { role: stems(ws), org: null, orgText: "" };
}

/** The property a copula or "became" phrase states, by its value: a status, a relationship, a role or a state. */
function kindOfValue(p: VerbPattern, verb: string, value: string): PropertyKind | "switch" {
  if (p.property !== "role") return p.property;
  const first = words(value).slice(0, 3).join(" ");
  if (STATUS_WORDS.test(first) || STATUS_WORDS.test(first.split(" ")[0] ?? "")) return "status";
  if (RELATIONSHIP_WORDS.test(first) || RELATIONSHIP_WORDS.test(first.split(" ")[0] ?? "")) return "relationship";
  const appointed = /promot|appoint|elect|назнач|избра/iu.test(verb);
  return appointed || splitRole(value).role.some(isOccupation) ? "role" : "state";
}

/** The subject of a claim: its stems, or the speaker; null when it is an uncertain pronoun or empty. */
function subjectOf(phrase: string): { subject: string[]; speaker: boolean; subjectText: string } | null {
  const raw = [...phrase.matchAll(WORD)].map((m) => m[0].toLowerCase()).filter((w) => !FRAME_WORDS.has(w));
  if (raw.length === 1 && SPEAKER.has(raw[0])) return { subject: [], speaker: true, subjectText: "" };
  if (raw.length === 1 && PRONOUNS.has(raw[0])) return null;
  const ws = words(phrase);
  return ws.length ? { subject: stems(ws), speaker: false, subjectText: ws.join(" ") } : null;
}

/** Reads one sentence's claim (and the office claim a role in an organisation implies). */
function sentenceClaims(sentence: string): PropertyClaim[] {
  const v = firstVerb(sentence);
  if (!v) return [];
  const left = sentence.slice(0, v.start);
  const right = sentence.slice(v.end);
  const [subjectPhrase, valuePhrase] =
    v.p.order === "value-verb-subject"
      ? [rightPhrase(right), leftPhrase(left)]
      : [leftPhrase(left), rightPhrase(right)];
  const subject = subjectOf(subjectPhrase);
  if (!subject) return [];
  let property = kindOfValue(v.p, sentence.slice(v.start, v.end), valuePhrase);
  let value: string[] | null = v.p.value ? [v.p.value] : stems(words(valuePhrase));
  let org: string[] | null = null;
  let orgText = "";
  if (property === "role") ({ role: value, org, orgText } = splitRole(valuePhrase));
  if ((property === "status" || property === "relationship") && !v.p.value)
    value = stems(words(valuePhrase).slice(0, 3));
  // «сменил работу» (a change of job, value unnamed); «сменил X на Y» (the value is Y)
  if (property === "switch" && /^(?:сменил|поменял)/iu.test(sentence.slice(v.start))) {
    const to = /\sна\s(.+)$/iu.exec(valuePhrase);
    if (/^(?:работу|место работы)/iu.test(valuePhrase)) property = "employer";
    else if (/^(?:адрес|квартиру|город|место жительства)/iu.test(valuePhrase)) property = "residence";
    value = to ? stems(words(to[1])) : null;
  }
  if (value && value.length === 0) value = null;
  if (value === null && property !== "employer" && property !== "residence") return [];
  if (v.p.state && value) value = [v.p.state, ...value];
  const ended = Boolean(v.p.ended) || ENDED_MARKERS.test(sentence);
  const change = Boolean(v.p.change) || CHANGE_MARKERS.test(sentence);
  const claim: PropertyClaim = {
    property,
    ...subject,
    value,
    org,
    change,
    ended,
    additive: ADDITIVE_MARKERS.test(sentence),
    past: (Boolean(v.p.past) || PAST_MARKERS.test(sentence)) && !change,
    negated: !ended && NEGATION.test(sentence),
  };
  const out = [claim];
  if (property === "role" && org?.length && value?.some(isOffice) && !subject.speaker)
    out.push({ ...claim, property: "office", subject: org, subjectText: orgText, value: subject.subject, org: null });
  return out;
}

/**
 * The property claims of a statement, one per sentence at most (plus an office). Pure; never throws. `memo` keeps
 * each sentence's claims for a batch whose texts share sentences (a chunk's passage and the atoms distilled from it).
 */
export function readClaims(text: string, memo?: Map<string, PropertyClaim[]>): PropertyClaim[] {
  const norm = text.normalize("NFKC").replaceAll("ё", "е").replaceAll("Ё", "Е").replace(/\s+/gu, " ").trim();
  // A line of a dialogue ("Caroline: I moved to …"): its "I" is the named speaker, not any speaker.
  const said = SPEAKER_LINE.exec(norm);
  const speaker = said ? words(said[1]) : null;
  return norm
    .slice(said ? said[0].length : 0)
    .split(SENTENCE_BREAK)
    .slice(0, 8)
    .flatMap((s) => {
      if (!memo) return sentenceClaims(s);
      let got = memo.get(s);
      if (!got) memo.set(s, (got = sentenceClaims(s)));
      return got;
    })
    .map((c) =>
      c.speaker && speaker?.length
        ? { ...c, subject: stems(speaker), subjectText: speaker.join(" "), speaker: false }
        : c,
    );
}

/**
 * Whether a chunk's whole passage may supersede or be superseded: only when it is one sentence (a short note). A
 * passage of several sentences holds several statements, each also distilled on its own; one newer sentence must not
 * hide the passage's other facts from default answers. Pure.
 */
export function passageDecides(text: string): boolean {
  return !SENTENCE_BREAK.test(text); // no break at all (one that trim() could remove is never a break)
}

/** Where one sentence ends and the next begins, as readClaims splits them. */
const SENTENCE_BREAK = /(?<=[.!?…])\s+(?=\p{Lu})/u;

/** "Name: " or "Name Surname: " opening a line of a dialogue. */
const SPEAKER_LINE = /^(\p{Lu}[\p{L}'’-]*(?: \p{Lu}[\p{L}'’-]*){0,2}):\s/u;
