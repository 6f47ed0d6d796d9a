/**
 * Verb forms and hedges for comparing statements (domain/meaning/statement.ts). A negation with do-support puts the
 * bare verb where the plain statement has its past or third-person form ("chose" vs "did not choose", "cried" vs
 * "did not cry"): both are read as the base form so that the rest of the two statements is the same. Hedges
 * ("may", "might", «может», «возможно») mark a claim as possible rather than stated: a hedged and a plain claim are
 * not the same statement, and not a contradiction either. Pure.
 */

/** English irregular past and past-participle forms → base form (the common verbs of prose and documentation). */
const IRREGULAR_TEXT = `
arise arose arisen|awake awoke awoken|be was were been|bear bore borne|beat beat beaten|become became become|
begin began begun|bend bent|bet bet|bind bound|bite bit bitten|bleed bled|blow blew blown|break broke broken|
breed bred|bring brought|build built|burn burnt|buy bought|catch caught|choose chose chosen|come came|cost cost|
creep crept|cut cut|deal dealt|dig dug|do did done|draw drew drawn|drink drank drunk|drive drove driven|eat ate eaten|
fall fell fallen|feed fed|feel felt|fight fought|find found|flee fled|fly flew flown|forbid forbade forbidden|
forget forgot forgotten|forgive forgave forgiven|freeze froze frozen|get got gotten|give gave given|go went gone|
grow grew grown|hang hung|have had|hear heard|hide hid hidden|hit hit|hold held|hurt hurt|keep kept|know knew known|
lay laid|lead led|leave left|lend lent|let let|lie lay lain|light lit|lose lost|make made|mean meant|meet met|pay paid|
put put|quit quit|read read|ride rode ridden|ring rang rung|rise rose risen|run ran|say said|see saw seen|seek sought|
sell sold|send sent|set set|shake shook shaken|shine shone|shoot shot|show showed shown|shut shut|sing sang sung|
sink sank sunk|sit sat|sleep slept|slide slid|speak spoke spoken|spend spent|spin spun|split split|spread spread|
stand stood|steal stole stolen|stick stuck|sting stung|strike struck|swear swore sworn|sweep swept|swim swam swum|
swing swung|take took taken|teach taught|tear tore torn|tell told|think thought|throw threw thrown|
understand understood|wake woke woken|wear wore worn|weep wept|win won|wind wound|withdraw withdrew withdrawn|
write wrote written|rewrite rewrote rewritten|undergo underwent undergone|overcome overcame|
`;

const IRREGULAR: ReadonlyMap<string, string> = (() => {
  const m = new Map<string, string>();
  for (const group of IRREGULAR_TEXT.split("|")) {
    const [base, ...forms] = group.trim().split(/\s+/u);
    for (const f of forms) if (f !== base && !m.has(f)) m.set(f, base);
  }
  // "left" and "found" are common adjectives/nouns too, but as words of one statement pair they are the verb.
  return m;
})();

/**
 * The base form of an English verb form when it can be told without a dictionary of every verb: an irregular past
 * ("chose" → "choose"), or "-ied" → "-y" ("cried" → "cry", "applied" → "apply"), "-ies" → "-y". Other words are
 * returned unchanged (the light stemmer then strips "-ed", "-es", "-s").
 */
export function verbBase(lower: string): string {
  const irregular = IRREGULAR.get(lower);
  if (irregular) return irregular;
  if (lower.length > 4 && /^[a-z]+i(?:ed|es)$/u.test(lower)) return `${lower.slice(0, -3)}y`;
  return lower;
}

/**
 * Hedges: words that state a claim as possible, not as fact: "may", "might", "could", "perhaps" and the Russian
 * «может», «мог», «возможно», «вероятно», «наверное», «по-видимому». "May" next to a number is the month (statement.ts
 * reads dates first). "likely" is left out: "unlikely" is its prefix negation. "can" is {@link ABILITY}.
 */
export const HEDGES: ReadonlySet<string> = new Set([
  "may",
  "might",
  "could",
  "possibly",
  "perhaps",
  "probably",
  "maybe",
  "presumably",
  "может",
  "могут",
  "мог",
  "могла",
  "могло",
  "могли",
  "можем",
  "возможно",
  "вероятно",
  "наверное",
  "наверно",
  "видимо",
  "видимому",
  "пожалуй",
  "предположительно",
]);

/**
 * "can": an ability, which a plain statement does not contradict ("can be used" ≈ "is used"), but a hedge's
 * negation: "may delay" vs "cannot delay" is a contradiction. It counts as a hedge only against a hedged statement.
 */
export const ABILITY: ReadonlySet<string> = new Set(["can"]);
