/**
 * Which entity a question asks about, when it asks what or who something is: "Who is Kiyo?", "What is ricin?",
 * «Кто такой Андрей Ефимыч?», «Что такое Байконур?», «Расскажи об Иване Дмитриче», «Кем был Рагин?», or a bare name.
 * The subject is the phrase after the question words; its proper names come from the mention extractor (so «Иване
 * Дмитриче» is «Иван Дмитрич»). A subject that is a name (with articles and titles) or a plain term ("photochemical
 * internalization") is a focus; a subject that relates a name to something else ("the only friend of Андрей
 * Ефимыч", «отец Ивана Дмитрича») is a one-hop focus: its answer is not the name's introduction but another
 * entity's, met beside the name.
 */
import { extractMentions } from "../../../domain/entities/mentions.ts";
import {
  hasCue,
  ORG_SUFFIXES,
  PLACE_SUFFIXES,
  PROJECT_SUFFIXES,
  RU_PLACE_HEADS,
  SOFTWARE_CUES,
  WORK_AFTER,
} from "../../../domain/entities/lexicon.ts";
import { nameKey } from "../../../domain/entities/names.ts";
import { detectLang } from "../../../domain/text.ts";

/**
 * What a question is about: display names to look for (first: as asked) and their matching keys. `hop`: the
 * question asks who or what stands in some relation to the named one («Кем был отец Ивана Дмитрича?», "Who is the
 * friend of Kiyo?"): its answer introduces another entity beside this one.
 */
export interface Focus {
  names: string[];
  keys: string[];
  hop?: boolean;
}

const PATTERNS: RegExp[] = [
  /^what\s+is\s+meant\s+by\s+(.+)$/iu,
  /^(?:who|what)(?:\s+(?:exactly|really))?(?:\s+(?:is|was|are|were)|'s)\s+(.+)$/iu,
  /^(?:tell\s+me\s+about|describe|define)\s+(.+)$/iu,
  /^what\s+(?:does|did)\s+(.+?)\s+(?:mean|stand\s+for)$/iu,
  /^(?:кто|что)\s+(?:такой|такая|такое|такие|это|этот|эта|означает|значит)\s+(.+)$/iu,
  /^(?:кем|кто)\s+(?:был|была|было|были|является|являлся|являлась)\s+(.+)$/iu,
  /^(?:расскажи(?:те)?(?:\s+мне)?|что\s+(?:известно|ты\s+знаешь|вы\s+знаете))\s+(?:о|об|обо|про)\s+(.+)$/iu,
];

/** Relations between people and what they make or run: a subject holding one asks one hop away from the name. */
const RELATION =
  /^(?:(?:father|mother|parent|son|daughter|child|wife|husband|brother|sister|uncle|aunt|nephew|niece|friend|colleague|partner|boss|employer|owner|founder|author|creator|teacher|student|assistant|neighbou?r)(?:s|ren)?$|отц|отец|мат|сын|доч|жен|муж|брат|сестр|дяд|тет|племянни|друг|друз|приятел|товарищ|коллег|помощни|начальни|хозя|основател|автор|создател|учител|учени|сосед)/iu;

/** Words that may stand beside a name in a subject without changing whom it names (and kind nouns, below). */
const BESIDE = new Set(
  (
    "the a an mr mrs ms miss dr doctor prof professor sir lady lord mister madam saint st " +
    "доктор профессор господин госпожа мистер миссис мещанин мещанка чиновник товарищ"
  ).split(" "),
);

/**
 * Where the asker says which text the name comes from ("… in the novel", "… in Botchan", «… в рассказе Чехова»): a
 * trailing place in the text, not part of the name.
 */
const WHERE_ASKED =
  /\s+(?:(?:in|from)\s+(?:(?:the|this|that)\s+)?(?:(?:story|novel|book|text|article|paper|page|document|post|docs?|wiki(?:pedia)?)(?:\s.*)?|["“«]?\p{Lu}.*)|(?:в|из)\s+(?:(?:рассказ|роман|повест|стать|книг|текст|документ|пьес)\p{L}*(?:\s.*)?|[«"]\p{Lu}.*))$/u;

function subjectOf(question: string): string | null {
  const q = question.trim().replace(/[?!.…\s]+$/u, "");
  for (const p of PATTERNS) {
    const m = p.exec(q);
    if (m) return m[1].replace(WHERE_ASKED, "").trim();
  }
  return null;
}

/** The words of `text` outside the spans, punctuation dropped, articles and titles left out. */
function residue(text: string, spans: { start: number; end: number }[]): string[] {
  let rest = text;
  for (const s of [...spans].sort((a, b) => b.start - a.start)) rest = `${rest.slice(0, s.start)} ${rest.slice(s.end)}`;
  return (rest.match(/[\p{L}\p{N}]+/gu) ?? []).filter((w) => !BESIDE.has(w.toLowerCase()) && !kindNoun(w));
}

/** Generic nouns that only say what kind of thing a name is, in lower case ("the Nozeri river", «полигон Байконур»). */
const KIND_NOUNS = [ORG_SUFFIXES, PLACE_SUFFIXES, PROJECT_SUFFIXES, SOFTWARE_CUES, WORK_AFTER];

/** True when `w` is a lower-case kind noun beside a name: it does not change which thing the name names. */
function kindNoun(w: string): boolean {
  if (!/^\p{Ll}/u.test(w)) return false;
  return KIND_NOUNS.some((set) => set.has(w)) || hasCue(RU_PLACE_HEADS, w);
}

/** A Russian lower-case head noun (or two words) before one capitalised name: «метод Качмажа», «закон Ома». */
const EPONYM_TERM = /^\p{Ll}[\p{Ll}-]+(?:\s+\p{Ll}[\p{Ll}-]+)?\s+\p{Lu}[\p{L}-]+$/u;

/** The subject without a leading article or title ("the Madonna" → "Madonna"). */
function bare(subject: string): string {
  let t = subject.trim();
  for (let m = /^([\p{L}]+)\.?\s+/u.exec(t); m && BESIDE.has(m[1].toLowerCase()); m = /^([\p{L}]+)\.?\s+/u.exec(t))
    t = t.slice(m[0].length);
  return t;
}

/**
 * The focus of `question` (see module doc), or null when it does not ask what or who one thing is — then ranking
 * stays exactly as without this module.
 */
export function questionFocus(question: string): Focus | null {
  const subject = subjectOf(question);
  const text = subject ?? question.trim().replace(/[?!.…\s]+$/u, "");
  if (!text || text.length > 80) return null;
  const mentions = extractMentions(text, detectLang(text));
  const rest = residue(text, mentions);
  // Capitalised words the extractor left out belong to the name ("Firefox OS"): then the subject is the name.
  const named = rest.length > 0 && rest.every((w) => /^[\p{Lu}\p{N}]/u.test(w));
  if (mentions.length > 0 && (rest.length === 0 || named)) {
    // A part the extractor found inside that name ("Firefox" of "Firefox OS") is another entity, not a form of it.
    const names = named ? [bare(text)] : [...new Set(mentions.map((m) => m.name))];
    // The surface as asked first: it is what the texts most likely hold («Рагин», "Mr. Koga" → "Koga").
    const surfaces = named ? [] : mentions.map((m) => m.surface).filter((s) => !names.includes(s));
    return { names: [...names, ...surfaces], keys: [...new Set(names.map(nameKey))] };
  }
  // A name beside a relation word after "who is": answered one hop away from the name.
  if (subject && mentions.length > 0 && rest.some((w) => RELATION.test(w))) {
    const names = [...new Set(mentions.map((m) => m.name))];
    return { names, keys: [...new Set(names.map(nameKey))], hop: true };
  }
  // «Что такое метод Качмажа?», «теорема Пифагора»: a Russian term named after someone — a lower-case head noun and
  // a name in the genitive — is one term; its introduction names both.
  const eponym = subject && /\p{Script=Cyrillic}/u.test(subject) && EPONYM_TERM.test(subject);
  if (eponym && mentions.length === 1 && mentions[0].end === subject.length)
    return { names: [subject], keys: [nameKey(subject)] };
  // No proper name: a plain term is a focus only when the question asks what it is, and it is short.
  if (!subject || mentions.length > 0) return null;
  const term = subject.replace(/^(?:the|a|an)\s+/iu, "");
  const words = term.match(/[\p{L}\p{N}_-]+/gu) ?? [];
  if (words.length === 0 || words.length > 4) return null;
  return { names: [term], keys: [nameKey(term)] };
}
