/**
 * Definitions in one sentence, English and Russian. A definition needs a TERM: a short noun phrase at the start of
 * the sentence (one to five words, no pronoun, function word or vague head such as "example"/"цель"), then a
 * defining marker ("is defined as", "means", "refers to", "is a/an", "— это", "есть", "называется", "Под X
 * понимается"), then the definition; glossary entries "X: …" at line starts are found by {@link findGlossary}. "This is important." has no term and no
 * article, so it is not a definition; neither is "The main barrier is …" (vague) nor "Лет двенадцать – пятнадцать"
 * (a range). Each rule carries its own confidence prior (see priors.ts).
 */
import { EN_FUNCTION, EN_VAGUE, RU_FUNCTION, RU_NUMBER, RU_VAGUE } from "./lexicon.ts";
import { PRIORS, type PriorName } from "./priors.ts";

/** A definition found in a sentence: the term, the defining text, and the rule that matched. */
export interface FoundDefinition {
  term: string;
  definition: string;
  rule: PriorName;
  /** True when the claim is better the whole sentence ("X называется Y": which side is the term is unclear). */
  claimIsSentence?: boolean;
}

const TOK = "[\\p{L}\\p{N}][\\p{L}\\p{N}'’./+-]*";
const ABBR = "\\([\\p{Lu}\\p{N}][\\p{L}\\p{N}-]{1,12}\\)";
const TERM = `((?:(?:A|An|The)\\s+)?${TOK}(?:\\s+(?:${TOK}|${ABBR})){0,5})`;
const DASH = "(?:—|–|-)";

/** Labels that look like "X:" but introduce a note, not a definition. */
const LABELS = new Set(
  (
    "note notes example examples warning caution tip tips step important update sources source see also answer question " +
    "result results summary conclusion conclusions reminder bug issue fix todo funding competing conflicts conflict " +
    "acknowledgments acknowledgements data availability author authors contributions abbreviations keywords citation " +
    "copyright license received accepted published editor correspondence disclaimer declaration ethics consent " +
    "supplementary supporting references footnote chapter part book volume act scene " +
    // Speaker and role labels of transcripts and chats: what follows them is speech, not a definition.
    "system assistant user human ai bot model prompt instruction instructions speaker interviewer q a " +
    "примечание пример примеры внимание итак вывод выводы ответ вопрос источник источники см глава часть сноска " +
    "финансирование благодарности литература"
  ).split(" "),
);

/** Russian pronouns: a subject containing one ("это", "он") names nothing that a definition could define. */
const RU_PRONOUNS = new Set("я ты он она оно мы вы они это этот эта эти то тот та те что кто".split(" "));

function words(term: string): string[] {
  return term.toLowerCase().replaceAll("ё", "е").split(/\s+/u).filter(Boolean);
}

/**
 * True when `term` can be a defined term (see module doc); `maxWords` counts words after a leading article;
 * `capital`: the term stands at the sentence start and must be capitalized.
 */
function termOk(term: string, maxWords = 5, capital = true): boolean {
  // At a sentence start a term is capitalized; a lower-case start means the segmenter cut a sentence in two.
  if (capital && !/^["“«(]?(?:\p{Lu}|\p{Ll}+\p{Lu})/u.test(term)) return false;
  let ws = words(term);
  if (ws[0] === "a" || ws[0] === "an" || ws[0] === "the") ws = ws.slice(1);
  if (ws.length === 0 || ws.length > maxWords || /^\d/.test(ws[0])) return false;
  if (LABELS.has(ws[0].replace(/\.$/, ""))) return false;
  return ws.every((w, i) => {
    const bare = w.replace(/^[("«“]+|[)"»”,.]+$/gu, "");
    if (EN_VAGUE.has(bare) || RU_VAGUE.has(bare) || RU_NUMBER.test(bare)) return false;
    const connector = i > 0 && i < ws.length - 1 && (bare === "of" || bare === "and" || bare === "и");
    return connector || !(EN_FUNCTION.has(bare) || RU_FUNCTION.has(bare));
  });
}

/** The definition body: trailing punctuation and citation marks removed; needs at least `min` words. */
function body(text: string, min = 2): string | null {
  if (EN_FUNCTION.has(words(text)[0] ?? "")) return null;
  const t = text
    .trim()
    .replace(/(?:\s*\[[\d,;–\s-]+\])+\s*$/u, "")
    .replace(/[\s.;:!…]+$/u, "")
    .trim();
  return t.split(/\s+/u).filter((w) => /\p{L}/u.test(w)).length >= min ? t : null;
}

function stripArticle(term: string): string {
  return term
    .replace(/^(?:a|an|the)\s+/iu, "")
    .replace(/^["“«]|["”»]$/gu, "")
    .trim();
}

type Rule = (s: string) => FoundDefinition | null;

function make(term: string, def: string | null, rule: PriorName, claimIsSentence = false): FoundDefinition | null {
  return def ? { term: stripArticle(term), definition: def, rule, claimIsSentence } : null;
}

const EN_EXPLICIT = new RegExp(
  `^${TERM}\\s+(?:is|are)\\s+(?:defined|understood|known|referred to)\\s+as\\s+(.+)$`,
  "u",
);
const EN_MEANS = new RegExp(`^${TERM}\\s+(?:means|denotes|refers to|stands for|is (?:a|the) term for)\\s+(.+)$`, "u");
const EN_TERM_MEANS =
  /^(?:The\s+)?(?:term|word|phrase|notion|concept)\s+["“'«]?([^"”'»]{2,60})["”'»]?\s+(?:means|refers to|denotes|describes|is used (?:for|to describe))\s+(.+)$/iu;
const EN_BY = /^By\s+["“«]?([^,"”»]{2,60}?)["”»]?,?\s+(?:we|I|one)\s+mean\s+(.+)$/u;
const EN_CALLED =
  /^(.{12,}?)\s+(?:is|are)\s+(?:called|termed|known as|referred to as)\s+((?:a |an |the )?[^,;()]{2,60}?)(?:\s*\[[\d,\s-]+\])?[.!]?$/u;
const EN_IS_A = new RegExp(
  `^${TERM}\\s+is\\s+((?:a|an|one of the|a kind of|a type of|a form of|a class of)\\s+.+)$`,
  "u",
);
const EN_IS_THE = new RegExp(`^${TERM}\\s+is\\s+(the\\s+.+)$`, "u");
const EN_ARE = new RegExp(`^${TERM}\\s+are\\s+(.+)$`, "u");

/**
 * The English rules. Each regex runs only when the words it needs are in the sentence (a test for those words alone,
 * with the regex's own flags: the regex cannot match without them).
 */
const EN_RULES: Rule[] = [
  (s) => {
    if (!/defined|understood|known|referred to/u.test(s)) return null;
    const m = EN_EXPLICIT.exec(s);
    return m && termOk(m[1]) ? make(m[1], body(m[2], 1), "definition_explicit") : null;
  },
  (s) => {
    if (!/means|denotes|refers to|stands for|term for/u.test(s)) return null;
    const m = EN_MEANS.exec(s);
    return m && termOk(m[1]) ? make(m[1], body(m[2], 1), "definition_explicit") : null;
  },
  (s) => {
    if (!/term|word|phrase|notion|concept/iu.test(s)) return null;
    const m = EN_TERM_MEANS.exec(s);
    return m ? make(m[1], body(m[2], 1), "definition_explicit") : null;
  },
  (s) => {
    const m = s.startsWith("By") ? EN_BY.exec(s) : null;
    return m ? make(m[1], body(m[2], 1), "definition_explicit") : null;
  },
  (s) => {
    if (!/called|termed|known as|referred to as/u.test(s)) return null;
    const m = EN_CALLED.exec(s);
    return m && termOk(m[2], 5, false) ? make(m[2], body(m[1], 3), "definition_called") : null;
  },
  (s) => {
    if (!s.includes("is")) return null;
    const m = EN_IS_A.exec(s);
    return m && termOk(m[1]) && articleBodyOk(m[2]) ? make(m[1], body(m[2], 2), "definition_is_a") : null;
  },
  (s) => {
    if (!s.includes("is")) return null;
    const m = EN_IS_THE.exec(s);
    return m && termOk(m[1]) && articleBodyOk(m[2]) ? make(m[1], body(m[2], 3), "definition_is_the") : null;
  },
  (s) => {
    if (!s.includes("are")) return null;
    const m = EN_ARE.exec(s);
    return m && termOk(m[1]) && pluralBodyOk(m[2]) ? make(m[1], body(m[2], 2), "definition_are") : null;
  },
];

/** After "is a/the": the noun phrase must not start with a function word ("is the case that …" is vague). */
function articleBodyOk(y: string): boolean {
  const second = words(y)[1]?.replace(/[^\p{L}-]/gu, "") ?? "";
  return second.length > 0 && !EN_FUNCTION.has(second) && !EN_VAGUE.has(second);
}

/** After "are": an article, or a plural noun phrase followed by a relative or a qualifier ("… proteins that …"). */
function pluralBodyOk(y: string): boolean {
  if (/^(?:the|a|an|one of|a kind of|types of|kinds of|a class of|a family of|a group of)\s/u.test(y))
    return articleBodyOk(y.replace(/^(?:one of|types of|kinds of)\s/u, "x "));
  const first = words(y)[0] ?? "";
  if (EN_FUNCTION.has(first) || /(?:ly|ed)$/u.test(first) || first === "not") return false;
  return /^(?:[\p{L}-]+\s+){0,3}[\p{L}-]{3,}[^s]s\s+(?:that|which|who|whose|with|of|in|for|from|used|consisting|derived|made|produced|composed|found|capable)\b/u.test(
    y,
  );
}

const RU_ETO = new RegExp(`^([^,;:]{2,60}?)\\s+${DASH}\\s+это\\s+(.+)$`, "u");
const RU_DASH = new RegExp(`^(\\p{Lu}[\\p{L}-]*(?:\\s+\\p{L}[\\p{L}-]*){0,2})\\s+${DASH}\\s+(.+)$`, "u");
const GLOSSARY = new RegExp(`^(\\p{L}[^:\\n]{0,59}?)\\s*(?::|\\s${DASH})\\s+(.+)$`, "u");

/** The Russian rules, each guarded by the words its regex needs (as the English ones). */
const RU_RULES: Rule[] = [
  (s) => {
    const m = s.includes("это") ? RU_ETO.exec(s) : null;
    return m && termOk(m[1], 5) ? make(m[1], body(m[2], 1), "definition_explicit") : null;
  },
  (s) => {
    const m =
      s.startsWith("Под") &&
      /^Под\s+(.{2,80}?)\s+(?:понимается|понимаются|понимают|подразумевается|подразумевают)\s+(.+)$/u.exec(s);
    return m ? make(m[1], body(m[2], 2), "definition_explicit") : null;
  },
  (s) => {
    const m = /называ|именуе/u.test(s)
      ? /^(.{2,200}?)\s+(?:называется|называются|называют|именуется|именуются)\s+(.+)$/u.exec(s)
      : null;
    if (
      !m ||
      !termOk(m[1].split(/\s+/u)[0], 1) ||
      words(m[1]).some((w) => RU_PRONOUNS.has(w.replace(/[^\p{L}]/gu, "")))
    )
      return null;
    const name = body(m[2].split(/,\s*(?:если|когда|то есть)\s/u)[0], 1);
    return name ? make(name, body(s, 3), "definition_called", true) : null;
  },
  (s) => {
    const m = s.includes("значает")
      ? /^(\p{L}[\p{L}-]*(?:\s+\p{L}[\p{L}-]*){0,3})\s+(?:означает|обозначает)\s+(.+)$/u.exec(s)
      : null;
    return m && termOk(m[1], 4) ? make(m[1], body(m[2], 1), "definition_explicit") : null;
  },
  (s) => {
    const m = s.includes("есть") ? /^(\p{Lu}[\p{L}-]*(?:\s+\p{L}[\p{L}-]*){0,2})\s+есть\s+(.+)$/u.exec(s) : null;
    return m && termOk(m[1], 3) ? make(m[1], body(m[2], 2), "definition_est") : null;
  },
  (s) => {
    const m = /[—–-]/u.test(s) ? RU_DASH.exec(s) : null;
    if (!m || !/\p{Script=Cyrillic}/u.test(m[1]) || !termOk(m[1], 3)) return null;
    const first = words(m[2])[0]?.replace(/[^\p{L}-]/gu, "") ?? "";
    if (!first || RU_FUNCTION.has(first) || RU_NUMBER.test(first) || /[—–]/u.test(m[2])) return null;
    return make(m[1], body(m[2], 2), "definition_dash");
  },
];

/**
 * A glossary entry candidate: "Term: definition" or "Term — definition" at the start of a line. The term is one to
 * four words starting with a letter, without digits, commas or unbalanced brackets ("Bug 1681796:", "Напротив,
 * очень рад, – …" are not terms); the definition is its first sentence, at least three words, and not a list of
 * capitalized names (author credits) nor joined verse lines. A list bullet ("- ", "* ", "• ") before the term is
 * allowed. Whether a candidate is accepted depends on its neighbours (prose.ts).
 */
export function findGlossary(sentence: string): FoundDefinition | null {
  const t = sentence.trim();
  // An en or em dash opens a line of dialogue («– Жизнь — досадная ловушка»), not an entry; a hyphen-minus, "*" or
  // "•" followed by a space is a list bullet ("- API: application programming interface").
  if (/^(?:[–—]|-(?!\s))/u.test(t)) return null;
  const s = t.replace(/^[-•*]\s+/u, "");
  const m = GLOSSARY.exec(s);
  if (!m || /[\d,;…!?.]/u.test(m[1]) || (m[1].match(/\(/g) ?? []).length !== (m[1].match(/\)/g) ?? []).length)
    return null;
  if (!termOk(m[1], 4) || /\s(?:is|are|was|were)\s/u.test(` ${m[1]} `)) return null;
  const def = body(m[2].split(/(?<=[.!?])\s+(?=\p{Lu})/u)[0], 3);
  if (!def) return null;
  const ws = def.split(/\s+/u).filter((w) => /\p{L}/u.test(w));
  if (ws.filter((w) => /^\p{Lu}/u.test(w)).length >= ws.length * 0.7) return null;
  // Joined verse lines ("Cease, cease, my foolish babe, What you …") are speech, not a definition.
  if ((def.match(/,\s+\p{Lu}/gu) ?? []).length >= 2) return null;
  return make(m[1], def, "definition_glossary");
}

/** The definition in a sentence (whitespace collapsed) by the sentence rules, or null. */
export function findDefinition(sentence: string): FoundDefinition | null {
  const s = sentence.trim().replace(/^[-–—•*]\s+/u, "");
  if (/\?["”»]?$/u.test(s)) return null;
  const cyr = /\p{Script=Cyrillic}/u.test(s.slice(0, 80));
  for (const rule of cyr ? RU_RULES : EN_RULES) {
    const found = rule(s);
    if (found) return found;
  }
  return null;
}

/** The confidence prior of a definition rule. */
export function definitionPrior(d: FoundDefinition): number {
  return PRIORS[d.rule];
}
