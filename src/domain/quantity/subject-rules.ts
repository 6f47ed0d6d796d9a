/**
 * Clause patterns that name what a measurement measures before the positional reading of subject.ts is tried
 * (English and Russian). Pure. Each rule is a fixed pattern around the number, no parser:
 * - an abbreviation with a digit that names the measured span right after it: "after 7 weeks (HDBR49)";
 * - a number alone in brackets names the noun after the bracket: "27 out of 136 (20%) countries";
 * - a duration before or after an event: "17 years after approval", "two days previous to his departure",
 *   «через год после запуска», «за пять минут до взрыва»;
 * - a role: "600 yen as capital", «триста рублей в качестве пособия»;
 * - a relative clause measures its antecedent: "our maid Kiyo, who had been with us for ten years", «вопросы,
 *   которые он задает уже двадцать лет»;
 * - the pronoun "it" («оно») as the clause's subject stands for the subject of the sentence's first clause: "the
 *   fare was cheap; it cost only three sen" → "fare".
 * The event and role rules are skipped when the number is the value of the phrase before it ("a delay of 2 h after
 * waking", «задержка составила 2 часа после запуска»).
 * Limits: the antecedent of "it" is only looked for at the start of the same sentence; other pronouns ("he", "they")
 * are not resolved (in narrative they mostly name a person, and the measured thing is the event).
 */

import { unitAt } from "./units.ts";
import { clauseStart, LINK, NP_END, sentenceStart, trimRight, weak, words } from "./subject-lexicon.ts";

const DET = /^(?:the|a|an|his|her|its|their|our|my|your|this|that|these|those|его|её|ее|их|этого|этой|этих)$/iu;

/** A noun phrase opening `s`: determiners dropped, cut at a linking word or a preposition, at most `max` words. */
function leadingPhrase(s: string, max: number): string[] {
  const ws = words(s.split(NP_END)[0]);
  while (ws.length && DET.test(ws[0])) ws.shift();
  const out: string[] = [];
  for (const w of ws) {
    if (LINK.has(w.toLowerCase()) || out.length === max) break;
    out.push(w);
    // A Russian noun phrase in the genitive ends at its noun: «после запуска сервис упал» → «запуска».
    if (/\p{Script=Cyrillic}/u.test(w) && !/(?:ого|его|ой|ей|ых|их)$/u.test(w)) break;
  }
  return out.length && !weak(out[0], false) ? out : [];
}

const AFTER =
  /^\s+(?:after|before|since|following|previous\s+to|prior\s+to|после|до|с\s+момента)\s+(?![\p{N}])([^.;,()!?]{1,80})/iu;
const AS = /^\s+(?:as|в\s+качестве)\s+(?:(?:a|an|the)\s+)?([^.;,()!?]{1,60})/iu;
const NOT_ROLE =
  /^(?:much|many|well|long|soon|far|possible|usual|before|follows|such|high|low|little|if|though|result|reported|shown|described|compared|opposed|measured|expected|indicated|part)$/iu;
const VALUE_OF =
  /(?:^|\s)(?:of|by|was|is|were|are|be|been|to|составил[аио]?|составляет|на|в)\s+(?:(?:only|just|about|nearly|almost|approximately|around|over|under|some|less|more|than|около|примерно|почти|всего|лишь|только|более|менее)\s+)*$|[:=]\s*$/iu;
const ACRONYM = /^\s*\(([\p{Lu}][\p{L}\p{N}-]{1,11})\)/u;
const RELATIVE = /^\s*(?:which|who|которы[йеехм]|котор(?:ая|ое|ой|ого|ую|ым|ыми))(?![\p{L}])/iu;
const CONJ = /^(?:as|that|because|since|when|but|and|so|though|although|while|if|и|а|но|так|как|потому|что|хотя)$/iu;
const AUX =
  /^(?:was|is|were|are|cannot|can|could|will|would|has|have|had|did|does|do|must|should|may|might|был|была|было|были|будет|не)$/iu;

/**
 * The subject a clause pattern names for the measurement at [start, end) of `text`, or null when none applies.
 * `dimension` is the quantity's dimension ("time" enables the before/after rule).
 */
export function patternSubject(text: string, start: number, end: number, dimension: string): string | null {
  const after = text.slice(end, end + 120);
  const acr = ACRONYM.exec(after);
  // Only a name with a digit ("HDBR49", "W2"), not a statistic's ("SD", "IQR").
  if (acr && /\p{N}/u.test(acr[1])) return acr[1];
  const cs = clauseStart(text, start);
  const left = text.slice(cs, start);
  // "27 out of 136 (20%) countries": a share restating a count names the noun after the bracket.
  if (!left.trim() && text[cs - 1] === "(" && /\p{N}\s*$/u.test(text.slice(0, cs - 1))) {
    const out = /^\s*\)\s*([^.;,()!?]{1,60})/u.exec(after);
    const np = out ? leadingPhrase(out[1], 2) : [];
    if (np.length) return np.join(" ");
  }
  const it = pronounAntecedent(text, cs, left);
  if (it) return it;
  // Not when the number is the value of what stands before it: "a delay of 2 h after waking", "delayed by 18 min".
  const isValueOf = VALUE_OF.test(left);
  const ev = dimension === "time" && !isValueOf ? AFTER.exec(after) : null;
  // Not a clause ("after CBT reached its minimum"): an event noun, not a subject with its verb.
  const event = ev && !quantityFirst(ev[1]) ? leadingPhrase(ev[1], 3) : [];
  const next = ev ? words(ev[1]).filter((w) => !DET.test(w))[1] : undefined;
  if (next && /(?:ed|^was|^were|^is|^are|^had|^has|^took|^began|^came|^went|^got)$/iu.test(next)) event.length = 0;
  if (event.length) return event.join(" ");
  const as = isValueOf ? null : AS.exec(after);
  const role = as && !NOT_ROLE.test(words(as[1])[0] ?? "") ? leadingPhrase(as[1], 2) : [];
  if (role.length) return role.join(" ");
  return null;
}

/**
 * The antecedent of a short relative clause the number stands in, with the clause's own words ("our maid Kiyo, who
 * had been with us for ten years" → "maid Kiyo"), or null. Tried after "of X" ("which neutralizes 98% of tested
 * viruses" measures the viruses).
 */
export function relativeSubject(text: string, start: number): string | null {
  const cs = clauseStart(text, start);
  const left = text.slice(cs, start);
  if (!RELATIVE.test(left) || text[cs - 1] !== ",") return null;
  // Only a short relative clause ("who had been with us for"), not one with its own subject ("which means that …").
  const ante = words(text.slice(clauseStart(text, cs - 1), cs - 1)).filter((w) => !weak(w));
  const own = words(left.replace(RELATIVE, "")).filter((w) => !weak(w));
  return ante.length && own.length <= 2 ? [...ante.slice(-2), ...own].join(" ") : null;
}

/** Whether `s` opens with an amount ("one week", "2 days"), not an event. */
function quantityFirst(s: string): boolean {
  const raw = s.match(/[\p{L}\p{N}][\p{L}\p{N}'’]*/gu) ?? [];
  const [a = "", b = ""] = raw.filter((w) => !DET.test(w));
  return /^\p{N}/u.test(a) || (b !== "" && unitAt(b, 0)?.end === b.length);
}

/** "it cost three sen" after "the fare was cheap;": the subject of the sentence's first clause, else null. */
function pronounAntecedent(text: string, cs: number, left: string): string | null {
  const ws = left.match(/[\p{L}'’]+/gu) ?? [];
  while (CONJ.test(ws[0] ?? "")) ws.shift();
  if (!/^(?:it|оно)$/iu.test(ws[0] ?? "")) return null;
  const before = words(text.slice(sentenceStart(text, cs), cs));
  const aux = before.findIndex((w) => AUX.test(w));
  if (aux <= 0 || aux > 8) return null;
  let np = words(before.slice(0, aux).join(" ").split(NP_END)[0]);
  const det = np.findLastIndex((w) => DET.test(w));
  if (det >= 0) np = np.slice(det + 1);
  np = trimRight(np).slice(-3);
  return np.some((w) => !weak(w)) ? np.join(" ") : null;
}
