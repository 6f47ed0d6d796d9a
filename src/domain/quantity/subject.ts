/**
 * What a measurement measures, and under which conditions, read from the words around it in its clause (English and
 * Russian). Pure.
 *
 * Method, in order (the first that names something wins): the fixed clause patterns of subject-rules.ts (an
 * abbreviation after the number, a bracketed share, "N after/before X", "N as X", a relative clause's antecedent,
 * the antecedent of "it"); a duration or share followed by "of X" measures X ("60 days of HDBR", not "20% of
 * days"); an attributive measurement measures the noun after it ("a 90-min sleep-wake cycle"); a copula ("was",
 * "takes", "costs", «составила», «занимает», «весит») has the noun phrase before it, after the last clause word
 * ("told that the middle school was" → "middle school"); a hyphenated amount ("one 5-yen bill") is attributive
 * too; else the last words (at most four) before the number once
 * the linking words are dropped, where a "for N" duration drops one trailing place phrase and comma-bounded asides
 * ("stick this note up in the teachers' room for three days" → "stick this note up"); a gerund that takes the
 * amount ("Dividing the 600 yen"); else the first words after it; else the content words before in the sentence,
 * or after it when the number opens the sentence ("Two years ago, I went …"; "ago" names nothing).
 * Coordinated measurements then share a subject ({@link shareSubjects}). The clause is the text between the nearest
 * sentence end, semicolon, comma, bracket or dash. Prepositional phrases of setting ("on the ARM board", "under
 * load", «при 20 °C», «на сервере») are taken out of the subject into the conditions, from either side.
 * Limits: no parser or part-of-speech tags: a grammatical subject far from its number ("No man with such qualities
 * would come so far for 40 yen") is read as the last words; only "it"/«оно» are resolved, within the sentence.
 */

import { clauseEnd, clauseStart, LINK, NP_END, sentenceStart, trimRight, weak, words } from "./subject-lexicon.ts";
import { patternSubject, relativeSubject } from "./subject-rules.ts";
import { unitAt } from "./units.ts";

/**
 * The subject phrase and the conditions of the measurement at [start, end) of `text`; `dimension` is the
 * quantity's dimension ("time", "percentage"…; a duration enables the event rules).
 */
export function subjectOf(
  text: string,
  start: number,
  end: number,
  dimension = "",
): { subject: string; conditions: string[] } {
  const left = text.slice(clauseStart(text, start), start);
  const right = text.slice(end, clauseEnd(text, end));
  const conditions = [...conditionsIn(left), ...conditionsIn(right)];
  const pattern = patternSubject(text, start, end, dimension);
  if (pattern) return { subject: pattern, conditions };
  const of = ofPhrase(text.slice(start, end), right);
  if (of) return { subject: of, conditions };
  // An attributive measurement ("a 90-min sleep-wake cycle", "the 24-h recording time") measures the noun after it.
  const attr = /^[\s-]*((?:[\p{L}][\p{L}'’-]*\s*){1,4})/u.exec(right);
  // A share right before a noun is attributive too: "95% CI", "17% protein", "a 93% chance" (not "5% higher").
  const share = /%$/u.test(text.slice(start, end)) && SHARE_NOUN.test(right) && !SHARE_AFTER_COPULA.test(left);
  // A hyphenated amount ("one 5-yen bill", "during 3-day bed rest") is attributive whatever precedes it.
  const hyphen =
    /[\p{L}\p{N}]-[\p{L}]+$/u.test(text.slice(start, end)) && !/\p{N}\s*[-–]\s*\p{N}/u.test(text.slice(start, end));
  if ((hyphen || share || /(?:^|\s)(?:a|an|the)\s+$/iu.test(left)) && attr) {
    const np = words(attr[1].split(NP_END)[0]);
    // The noun phrase ends before a verb: "one 5-yen bill would hit them" → "bill".
    const verb = np.findIndex((w, i) => i > 0 && (LINK.has(w.toLowerCase()) || VERBISH.test(w)));
    const head = trimRight(verb > 0 ? np.slice(0, verb) : np);
    if (np.length && !LINK.has(np[0].toLowerCase()) && !weak(head[0], false))
      return { subject: head.join(" "), conditions };
  }
  const relative = relativeSubject(text, start);
  if (relative) return { subject: relative, conditions };
  // A copula opening its clause has its subject before a comma-bounded aside: «Доля лекарств, отозванных …, составила».
  const opening = /^\s*\S+/u.exec(left)?.[0].trim() ?? "";
  const wideLeft = text.slice(clauseStart(text, start, true), start).replace(/,[^,]*,/gu, " ");
  const copula = COPULA.exec(left);
  if (copula && copula.index <= 1 && COPULA.test(opening)) {
    const c = COPULA.exec(wideLeft);
    const np = c ? trimRight(words(wideLeft.slice(0, c.index).split(NP_END)[0])).slice(-4) : [];
    if (np.some((w) => !weak(w))) return { subject: np.join(" "), conditions };
  }
  // A passive change counts as a copula: "the sphere of action was limited to", "acrophase was delayed by".
  const changed = copula && PASSIVE_CHANGE.test(left.slice(copula.index + copula[0].length));
  if (copula && (changed || words(left.slice(copula.index + copula[0].length)).every((w) => weak(w)))) {
    // The subject follows the last clause word before the copula: "told that the middle school was" → "middle school".
    const np = words(stripConditions(left.slice(0, copula.index).split(COMPLEMENT).pop()!.split(NP_END)[0]));
    const all = trimRight(np);
    // A long phrase keeps its head before "of": "the proportion of novel therapeutics affected by an event was".
    const of = all.findIndex((w) => /^of$/iu.test(w));
    const head =
      all.length > 4 && of > 0 ? [...all.slice(Math.max(0, of - 2), of), ...all.slice(of, of + 3)] : all.slice(-4);
    if (head.some((w) => !weak(w))) return { subject: trimRight(head).join(" "), conditions };
  }
  let ws = trimRight(words(stripConditions(dimension === "time" ? eventOf(text, start, left) : left)));
  if (!ws.length) {
    // A number opening a bracket or a clause: what precedes the bracket or the clause names it.
    const from = clauseStart(text, start, true);
    const outer = /[([]\s*$/u.test(text.slice(0, from)) ? text.slice(clauseStart(text, from - 1), from - 1) : "";
    ws = trimRight(words(stripConditions(text.slice(from, start) || outer)));
  }
  ws = ws.slice(-4);
  if (ws.some((w) => !weak(w))) return { subject: ws.join(" "), conditions };
  // A gerund that takes the amount as its object: "Dividing the 600 yen", "by spending 200 yen a year".
  const gerund = ws.filter((w) => !weak(w, false));
  if (gerund.length && GERUND.test(left)) return { subject: gerund.join(" "), conditions };
  // The words after it, up to the next number ("16.9% in men and 20.5% in women" → "men").
  const after = words(stripConditions(right.split(/\p{N}/u)[0]));
  while (after.length && weak(after[0])) after.shift();
  const next = trimRight(after.slice(0, 4));
  if (next.length) return { subject: next.join(" "), conditions };
  // Only linking words on both sides («как и двадцать лет назад,»): the content words of the sentence part before.
  // A number between brackets ("(HDBR7) and after 7 weeks (HDBR49)"): the sentence's words before it.
  const content = (from: number) => words(stripConditions(text.slice(from, start))).filter((w) => !weak(w));
  let wide = content(clauseStart(text, start, true)).slice(-4);
  if (!wide.length) wide = content(sentenceStart(text, start)).slice(-4);
  // A number opening its sentence ("For forty years, he produced …"): the sentence's words after it.
  const rest = text.slice(end, end + 200).split(/[.!?](?=\s|$)/u)[0];
  if (!wide.length)
    wide = words(stripConditions(rest))
      .filter((w) => !weak(w))
      .slice(0, 4);
  return { subject: (wide.length ? wide : ws).join(" "), conditions };
}

/**
 * "N of X" after a duration or a share names X ("60 days of HDBR", "2% of the dose"); not when X is itself a unit
 * ("20% of days": how often, the subject stands before). Null when no such phrase.
 */
export function ofPhrase(quote: string, right: string): string | null {
  const of = /^\s+of\s+((?:[\p{L}\p{N}'-]+\s*){1,4})/iu.exec(right);
  if (!of || !/\p{L}/u.test(of[1]) || !ofLike(quote)) return null;
  const first = /^(?:(?:the|a|an)\s+)?([\p{L}]+)/iu.exec(of[1])?.[1] ?? "";
  if (unitAt(first, 0)?.end === first.length) return null;
  const ws = trimRight(words(stripConditions(of[1])).slice(0, 4));
  return ws.some((w) => !weak(w, false)) ? ws.join(" ") : null;
}

const VERBISH = /^(?:would|will|can|could|should|may|might|must|did|does|do|[\p{L}]{4,}ed|reveals|shows|turned)$/iu;
const SHARE_NOUN =
  /^\s?(?!(?:more|less|higher|lower|greater|smaller|larger|faster|slower|better|worse|fewer|overall|respectively|each|per|and|or|to|of|in|at|on|for|with|from|by|than|was|were|is|are|had|have|has|did|will|would|could|can|may|и|или|до|от|в|на|с|по|для|из|за|при|у)(?![\p{L}]))[\p{L}][\p{L}-]*(?<!ly|ed)(?![\p{L}])/iu;
/** A share after a copula is its value, not an attribute: "was 5% higher", «составила 5% бюджета». */
const SHARE_AFTER_COPULA =
  /(?:^|\s)(?:be|is|are|was|were|been|become|becomes|remain|remains|seem|seems|not|only|about|составил[аио]?|составляет|составляют|был[аио]?|равн[аоы]|равен|около|примерно|почти|лишь|только)\s+$/iu;
const PASSIVE_CHANGE =
  /^\s+(?:(?:significantly|further|markedly|only|then|значительно|еще|ещё)\s+)?(?:[\p{L}]{3,}ed\s+(?:to|by)|[\p{L}]{3,}(?:ен|ан|ён)[аоы]?\s+(?:до|на))\s+(?:(?:only|just|about|nearly|almost|approximately|around|over|some|less|more|than|около|примерно|почти)\s+)*$/iu;
const GERUND =
  /(?:^|\s)[\p{L}]+ing\s+(?:(?:the|a|an|that|this|his|her|my|me|him|them|us|you|only|just|about|nearly)\s+)*$/iu;
const COMPLEMENT = /\s(?:that|which|who|whether|if|when|because|since|что|чтобы|если|когда|потому)\s/iu;
const FOR = /(?:^|\s)(?:for|в\s+течение)\s+(?:(?:only|just|about|nearly|almost|approximately|around|over|some)\s+)*$/iu;
const PP =
  /\s(?:in|into|at|on|with|within|from|to|near|inside|outside|through)\s+(?:the|a|an|this|that|his|her|my|our|their|its)\s+(?:[\p{L}\p{N}'’-]+\s*){1,3}$/iu;

/**
 * The clause words that name the event a "for N" duration measures: "stick this note up in the teachers' room for
 * three days" → "stick this note up"; "I lived, after the death of mother, in this fashion for five years" → "I
 * lived" (one trailing place phrase and comma-bounded asides dropped). `left` unchanged when no "for" precedes.
 */
function eventOf(text: string, start: number, left: string): string {
  const m = FOR.exec(left);
  if (!m) return left;
  const own = left.slice(0, m.index).replace(PP, " ");
  if (trimRight(words(own)).some((w) => !weak(w))) return own;
  const wide = text.slice(clauseStart(text, start, true), start);
  const f = FOR.exec(wide);
  return f
    ? wide
        .slice(0, f.index)
        .replace(/,\s*(?:after|before|in|at|on|during|with)\s[^,]*,/giu, " ")
        .replace(PP, " ")
    : left;
}

const CONDITION =
  /(?<![\p{L}])(?:on|under|with|using|at|при|под|на|с)\s+(?:(?:the|a|an|an?)\s+)?(?:[\p{L}\p{N}][\p{L}\p{N}.'’-]*\s*){1,4}/giu;
const SETTING_WORD =
  /^(?:on|under|with|using|at|при|под|на|с)\s+(?:the\s+|a\s+|an\s+)?(?:arm|x86|load|battery|server|board|machine|laptop|phone|device|cpu|gpu|linux|windows|mac|сервер|ноутбук|плат|машин|нагрузк|процессор|устройств|температур|давлени)/iu;
/** A phrase of setting names a thing: a capitalised name or a number ("on the ARM board", «при 20 °C»), or a setting word. */
const CONDITION_HEAD = {
  test: (c: string) =>
    SETTING_WORD.test(c) ||
    /^[\p{L}]+\s+(?:(?:the|a|an)\s+)?[\p{Lu}\p{N}]/u.test(c.replace(/^[\p{Lu}]/u, (x) => x.toLowerCase())),
};

/** Phrases of setting in `s`: "on the ARM board", "under load", «при 20 °C» (a head word that names a setting). */
function conditionsIn(s: string): string[] {
  return (s.match(CONDITION) ?? [])
    .map((c) => c.trim())
    .filter((c) => CONDITION_HEAD.test(c))
    .map((c) => {
      const [prep, ...rest] = c.split(/\s+/u);
      const kept: string[] = [];
      for (const w of rest) {
        if (kept.length && LINK.has(w.toLowerCase()) && !/^(?:the|a|an)$/iu.test(w)) break;
        kept.push(w);
      }
      return [prep, ...kept].join(" ");
    });
}

/** `s` without its phrases of setting. */
function stripConditions(s: string): string {
  return s.replace(CONDITION, (c) => (CONDITION_HEAD.test(c.trim()) ? " " : c));
}

/** Whether "of X" after a quote names what it measures: a duration ("60 days of HDBR") or a share ("2% of the dose"). */
function ofLike(quote: string): boolean {
  return !quote.includes("/") && /(?:h|min|d|days?|weeks?|years?|months?|hours?|minutes?|seconds?|s|%)$/iu.test(quote);
}

/** The last copula of a clause ("was", "is", «составила»): what stands before it is the subject. */
const COPULA =
  /(?<![\p{L}])(?:was|is|were|are|be|been|takes|took|costs?|weighs|weighed|lasts|lasted|составил[аио]?|занимает|заняла?|весит|весил[аио]?|стоит|стоил[аио]?|длится|длил[аио]сь|составляет|составляют|было|был|была|были|равн[аоы]|равен)(?![\p{L}])(?![\s\S]*(?<![\p{L}])(?:was|is|were|are|составил|было|был)(?![\p{L}]))/iu;

/** Where two measurements are joined by a bare conjunction or follow "for X and" ("0.45 h for RE and 0.45 h"). */
const PLAIN = /^\s*(?:and|or|и|или)\s*$/iu;
const FOR_AND = /^\s*(?:for|in|at|on|для|у|в)\s+[\p{L}\p{N}-]+\s*(?:,|and|or|и|или)\s*$/iu;

/**
 * Coordinated measurements share their subject (mutates `qs`, in text order): "7 days and 49 days of HDBR" → both
 * "HDBR" (the later one's "of X"); "0.45 h for RE and 0.45 h for RVE" and "nine yen and fifty sen" → the later one
 * takes the earlier one's subject.
 */
export function shareSubjects(
  text: string,
  qs: { start: number; end: number; quote: string; subject: string; dimension: string }[],
): void {
  for (let i = 1; i < qs.length; i++) {
    const [a, b] = [qs[i - 1], qs[i]];
    const between = text.slice(a.end, b.start);
    if (a.dimension !== b.dimension) continue;
    if (PLAIN.test(between)) {
      const of = ofPhrase(b.quote, text.slice(b.end, clauseEnd(text, b.end)));
      if (of) a.subject = of;
      else if (a.subject) b.subject = a.subject;
    } else if (FOR_AND.test(between) && a.subject && !ofPhrase(b.quote, text.slice(b.end, clauseEnd(text, b.end))))
      b.subject = a.subject;
  }
}
