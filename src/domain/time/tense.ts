/**
 * Which way a bare weekday points ("on Friday", «в пятницу»): the tense of its sentence, as HeidelTime resolves
 * undirected weekdays in news and narratives (J. Strötgen, M. Gertz, "Multilingual and cross-domain temporal
 * tagging", Language Resources and Evaluation 47(2), 2013, §4: the tense of the sentence decides between the
 * previous and the next such day). Marker lists, no parser; English and Russian. Pure.
 */

/** The way a sentence points in time: back (the latest such day before) or ahead (the first after). */
export type Direction = -1 | 1;

/** An English future: will, 'll, shall, going to, gonna, plans/hopes/wants to, can't wait, looking forward. */
const FUTURE_EN =
  /(?<![\p{L}])(?:will|won['’]t|shall|going\s+to|gonna|plan(?:s|ning)?\s+to|hop(?:e|es|ing)\s+to|want(?:s)?\s+to|would\s+like\s+to|can['’]t\s+wait|looking\s+forward)(?![\p{L}])|['’]ll(?![\p{L}])/iu;
/** English past: be/do/have in the past and the commonest irregular pasts; regular pasts are `-ed` (see ED_NOT_PAST). */
const PAST_EN =
  /(?<![\p{L}])(?:was|were|did|didn['’]t|had|went|came|got|saw|made|took|met|ran|gave|told|said|found|left|felt|bought|brought|thought|won|lost|spent|began|wrote|sent|held|heard|kept|sat|stood|paid|built|caught|taught|ate|drove|flew|slept|threw|broke|chose|forgot|became|knew|rode|swam|sang|wore|fell|led|fed|hid|shot|sold|understood|woke)(?![\p{L}])/iu;
const ED = /(?<![\p{L}])(\p{L}{3,}ed)(?![\p{L}])/giu;
/** `-ed` words that are adjectives or no past at all ("I'm excited", "a red car", "we need"). */
const ED_NOT_PAST = new Set([
  "excited",
  "interested",
  "tired",
  "scared",
  "worried",
  "bored",
  "pleased",
  "thrilled",
  "stressed",
  "supposed",
  "need",
  "feed",
  "speed",
  "seed",
  "shed",
  "indeed",
  "proceed",
  "exceed",
  "succeed",
  "scheduled",
  "planned",
]);
/** English present (the weekday then lies ahead: "the party is on Friday", "we have a meeting on Friday"). */
const PRESENT_EN = /(?<![\p{L}])(?:is|are|am|have|has)(?![\p{L}])|['’](?:m|re)(?![\p{L}])/iu;

/** A Russian future or intention: быть in the future, собираться, планировать, хотеть, пойти/поехать/приехать. */
const FUTURE_RU =
  /(?<![\p{L}])(?:буд(?:у|ешь|ет|ем|ете|ут)|собира\p{L}*|планиру\p{L}*|хоч(?:у|ешь|ет)|хотим|хотят|пойд[уеё]\p{L}*|поед[уе]\p{L}*|приед[уе]\p{L}*|уед[уе]\p{L}*|завтра)(?![\p{L}])/iu;
/** A Russian past verb (-л, -ла, -ло, -ли, reflexive -ся/-сь) after a vowel, less common words shaped alike. */
const PAST_RU = /(?<![\p{L}])(\p{L}*[аеёиоуыяю]л(?:а|о|и)?(?:сь|ся)?|шёл|шел|мог|смог|пришёл|ушёл|нашёл)(?![\p{L}])/giu;
const PAST_RU_NOT = new Set([
  "или",
  "стол",
  "пол",
  "угол",
  "дела",
  "дело",
  "мало",
  "тело",
  "сила",
  "школа",
  "села",
  "зла",
]);

const hasEd = (s: string) => [...s.matchAll(ED)].some((m) => !ED_NOT_PAST.has(m[1].toLowerCase()));
const hasPastRu = (s: string) => [...s.matchAll(PAST_RU)].some((m) => !PAST_RU_NOT.has(m[1].toLowerCase()));

/** The sentence of `text` around UTF-16 offset `at` (between sentence ends or line breaks). */
export function sentenceAround(text: string, at: number): string {
  const before = text.slice(0, at);
  const start = Math.max(before.search(/[^.!?…\n]*$/u), 0);
  const rest = text.slice(at);
  const end = rest.search(/[.!?…\n]/u);
  return text.slice(start, end < 0 ? text.length : at + end);
}

/** The tense of a sentence by its markers: future, past, present, or null when none shows. */
export type Tense = "future" | "past" | "present" | null;

/**
 * The tense of `sentence`: a future marker wins; else a past verb; else present (English "is/are/have"; in Russian,
 * whose past is always marked by -л, any sentence without a past form); else null.
 */
export function sentenceTense(sentence: string): Tense {
  if (FUTURE_EN.test(sentence) || FUTURE_RU.test(sentence)) return "future";
  if (/[а-яё]/iu.test(sentence)) return hasPastRu(sentence) ? "past" : "present";
  if (PAST_EN.test(sentence) || hasEd(sentence)) return "past";
  return PRESENT_EN.test(sentence) ? "present" : null;
}

/**
 * Which way a bare weekday in `sentence` points: future or present → ahead ("the party is on Friday"); past or no
 * marker → back, since what people tell a memory is mostly what was (the tie rule of rules.ts's nearestYear).
 */
export function weekdayDirection(sentence: string): Direction {
  const t = sentenceTense(sentence);
  return t === "future" || t === "present" ? 1 : -1;
}
