/**
 * Russian personal names in any grammatical case back to the nominative: a patronymic («Ефимыча», «Дмитриевной»)
 * tells the case and the gender of the whole name, and its neighbours are put back by the ending rules of that case
 * («Андрея Ефимыча» → «Андрей Ефимыч»). A word alone is put back only where its ending is unambiguous or a first
 * name or place of the gazetteer confirms it. Pure; works on lower-case words (ё as е) and restores capitals.
 */
import { PLACES } from "./gazetteer.ts";
import { FIRST_NAMES } from "./lexicon.ts";

/** A grammatical case of a Russian name, as a patronymic's ending shows it. */
export type RuCase = "nom" | "gen" | "dat" | "acc" | "ins" | "pre";

/** The case and gender a patronymic shows, and its nominative; null when the word is not a patronymic. */
export interface Patronymic {
  case: RuCase;
  feminine: boolean;
  nominative: string;
}

const VOWEL = "аеёиоуыэюя";
const MASC_PATRONYMIC = /^(.+(?:ович|евич|ьич|ич|ыч))(а|у|ем|е)?$/u;
const FEM_PATRONYMIC = /^(.+(?:овн|евн|ичн|ишн))(а|ы|е|у|ой)$/u;
const MASC_CASE: Record<string, RuCase> = { "": "nom", а: "gen", у: "dat", ем: "ins", е: "pre" };
const FEM_CASE: Record<string, RuCase> = { а: "nom", ы: "gen", е: "dat", у: "acc", ой: "ins" };

/** The patronymic reading of a lower-case word («ефимычу» → dative, masculine, «ефимыч»), or null. */
export function patronymic(lower: string): Patronymic | null {
  const f = FEM_PATRONYMIC.exec(lower);
  if (f && f[1].length >= 5) return { case: FEM_CASE[f[2]], feminine: true, nominative: `${f[1]}а` };
  const m = MASC_PATRONYMIC.exec(lower);
  if (!m || m[1].length < 5) return null;
  return { case: MASC_CASE[m[2] ?? ""], feminine: false, nominative: m[1] };
}

/** [ending, replacement] pairs tried in order for a masculine name in each case; the first matching ending wins. */
const MASC_RULES: Record<RuCase, ReadonlyArray<readonly [string, string]>> = {
  nom: [],
  gen: [
    ["ского", "ский"],
    ["ого", "ой"],
    ["ия", "ий"],
    ["ьи", "ья"],
    ["Vя", "й"],
    ["ы", "а"],
    ["Kи", "а"],
    ["а", ""],
  ],
  acc: [
    ["ского", "ский"],
    ["ого", "ой"],
    ["ия", "ий"],
    ["Vя", "й"],
    ["у", "а"],
    ["а", ""],
  ],
  dat: [
    ["скому", "ский"],
    ["ому", "ой"],
    ["ию", "ий"],
    ["ье", "ья"],
    ["Vю", "й"],
    ["е", "а"],
    ["у", ""],
  ],
  ins: [
    ["ским", "ский"],
    ["ием", "ий"],
    ["ьей", "ья"],
    ["Vем", "й"],
    ["ым", ""],
    ["им", "ий"],
    ["ой", "а"],
    ["ом", ""],
  ],
  pre: [
    ["ском", "ский"],
    ["ии", "ий"],
    ["ье", "ья"],
    ["Vе", "й"],
    ["е", ""],
  ],
};
/** The same for a feminine name («Марии» → «Мария», «Анной» → «Анна», «Чеховой» → «Чехова»). */
const FEM_RULES: Record<RuCase, ReadonlyArray<readonly [string, string]>> = {
  nom: [],
  gen: [
    ["ской", "ская"],
    ["ии", "ия"],
    ["ьи", "ья"],
    ["овой", "ова"],
    ["евой", "ева"],
    ["иной", "ина"],
    ["ы", "а"],
    ["Kи", "а"],
    ["и", "я"],
  ],
  dat: [
    ["ской", "ская"],
    ["ии", "ия"],
    ["ье", "ья"],
    ["овой", "ова"],
    ["евой", "ева"],
    ["иной", "ина"],
    ["е", "а"],
  ],
  acc: [
    ["скую", "ская"],
    ["ию", "ия"],
    ["ью", "ья"],
    ["у", "а"],
    ["ю", "я"],
  ],
  ins: [
    ["ской", "ская"],
    ["ией", "ия"],
    ["ьей", "ья"],
    ["овой", "ова"],
    ["евой", "ева"],
    ["иной", "ина"],
    ["ой", "а"],
    ["ей", "я"],
  ],
  pre: [
    ["ской", "ская"],
    ["ии", "ия"],
    ["ье", "ья"],
    ["овой", "ова"],
    ["евой", "ева"],
    ["иной", "ина"],
    ["е", "а"],
  ],
};

/** Applies one rule: "V" in the ending stands for any vowel kept in the result, "K" for a velar or hushing consonant. */
function applyRule(w: string, ending: string, repl: string): string | null {
  if (ending.startsWith("V") || ending.startsWith("K")) {
    const rest = ending.slice(1);
    if (!w.endsWith(rest) || w.length < rest.length + 2) return null;
    const before = w[w.length - rest.length - 1];
    const ok = ending[0] === "V" ? VOWEL.includes(before) : "кгхжшчщ".includes(before);
    return ok ? w.slice(0, w.length - rest.length) + repl : null;
  }
  return w.endsWith(ending) && w.length > ending.length + 1 ? w.slice(0, w.length - ending.length) + repl : null;
}

/** A lower-case name word in a known case and gender put back to the nominative. */
export function nominativeIn(lower: string, c: RuCase, feminine: boolean): string {
  const p = patronymic(lower);
  if (p) return p.nominative;
  for (const [ending, repl] of (feminine ? FEM_RULES : MASC_RULES)[c]) {
    const r = applyRule(lower, ending, repl);
    if (r !== null) return r;
  }
  return lower;
}

/** Surname endings whose case is unambiguous for a man («Хоботовым» → «Хоботов», «Рагину» → «Рагин»). */
const SURNAME_FORMS: ReadonlyArray<readonly [RegExp, string]> = [
  [/(ов|ев|ин|ын)(ым|у|е)$/u, "$1"],
  [/(ов|ев|ин|ын)ой$/u, "$1а"],
  [/(ск|цк)(ого|ому|им|ом)$/u, "$1ий"],
];

/** Diminutives in -ка/-ша: «Дарьюшки», «Мойсейку» → «Дарьюшка», «Мойсейка». */
const DIMINUTIVE = /(шк|к|ш)(и|е|у|ой)$/u;

/** Russian hypocoristic suffixes of given names («Дарьюшка», «Никитка», «Петенька», «Сонечка», «Мойсейка»). */
const HYPOCORISTIC = /^(\p{L}{3,}?)(?:юшка|ушка|енька|онька|ечка|очка|ка)$/u;
/** A given name's stem: without its last vowel or -й and a soft sign («дарья» → «дар», «моисей» → «моисе»). */
const givenStem = (n: string) => n.replace(/[аяй]$/u, "").replace(/ь$/u, "");
const GIVEN_STEMS: ReadonlySet<string> = new Set(
  [...FIRST_NAMES].filter((n) => /\p{Script=Cyrillic}/u.test(n)).map(givenStem),
);

/**
 * True when a nominative word (lower case) is an affectionate or familiar form of a known Russian first name:
 * a hypocoristic suffix on its stem («Дарьюшка» of «Дарья», «Никитка» of «Никита», «Сонечка» of «Соня»).
 */
export function russianDiminutive(lower: string): boolean {
  const m = HYPOCORISTIC.exec(lower);
  return m !== null && GIVEN_STEMS.has(givenStem(m[1]));
}

/**
 * A lower-case Russian name word with no case hint put back to the nominative: a first name or place of the
 * gazetteer in any case, an unambiguous surname ending, a diminutive; otherwise the word unchanged.
 */
export function guessNominative(lower: string): string {
  if (FIRST_NAMES.has(lower) || PLACES.has(lower)) return lower;
  for (const c of ["gen", "dat", "acc", "ins", "pre"] as const) {
    for (const fem of [false, true]) {
      const r = nominativeIn(lower, c, fem);
      if (r !== lower && (FIRST_NAMES.has(r) || PLACES.has(r))) return r;
    }
  }
  const p = patronymic(lower);
  if (p) return p.nominative;
  for (const [re, repl] of SURNAME_FORMS) if (re.test(lower)) return lower.replace(re, repl);
  if (DIMINUTIVE.test(lower) && lower.length > 5) return lower.replace(DIMINUTIVE, "$1а");
  // «Греции», «Италии»: a name in -ия in an oblique case (a plural in -ии is rare among names).
  if (/[^аеиоуыэюя]и[ию]$/u.test(lower) && lower.length > 4) return `${lower.slice(0, -1)}я`;
  return lower;
}

const PREPOSITIONAL = new Set(["о", "об", "обо", "при"]);
/** Prepositions of direction that govern the accusative («в», «на», «через», «про»). */
const ACCUSATIVE_PREPOSITIONS = new Set(["в", "во", "на", "через", "про", "сквозь"]);
const INSTRUMENTAL = new Set(["с", "со", "за", "над", "под", "перед", "между"]);
const GENITIVE_PREPOSITIONS = new Set(
  "у от до из без для около возле кроме после против среди вокруг мимо близ вместо ради".split(" "),
);
// A lower-case noun right before a name governs it in the genitive («метода Качмажа», «открытия Пастера»); past
// tense verbs in -ла are left out: «сказала Маша» has its subject after the verb.
const NOUN_BEFORE = /(?:ия|ие|ства|ство|ости|ость|ения|ение|ания|ание|[бвгдзкмнпрстфхцчшщж]а|ки|ги|хи|ды|ты|ры|ны)$/u;
/**
 * Nouns that take a scholar's name in the genitive in any of their own cases («метод Качмажа», «методом
 * Гаусса-Ньютона», «теорема Пифагора», «закон Ома», «символ Кронекера»): things named after a person.
 */
const EPONYM_HEAD =
  /^(?:метод|теорем|закон|формул|алгоритм|схем|принцип|эффект|уравнени|критери|правил|символ|фильтр|преобразовани|интеграл|гипотез|парадокс|неравенств|лемм|постоянн|числ|оператор|модел)\p{L}{0,3}$/u;

/**
 * A lone masculine name in -а/-я read as a genitive when the words before it say so: a genitive preposition, a noun
 * governing it, or «и» after another such name («открытия Пастера и Коха»); a prepositional or instrumental shown
 * by its preposition; a feminine accusative in -у/-ю after «в»/«на» («на Землю» → «Земля»). Returns the
 * nominative, or null.
 */
export function genitiveByContext(
  lower: string,
  before: string | undefined,
  before2: string | undefined,
): string | null {
  if (FIRST_NAMES.has(lower) || PLACES.has(lower) || lower.length < 4) return null;
  // «о Диогене», «с Диогеном»: the prepositional and instrumental of a masculine name, shown by the preposition.
  const consonantEnd = /[бвгдзклмнпрстфхцчшщж](?:е|ом|ем)$/u.exec(lower);
  if (consonantEnd && before !== undefined && lower.length >= 5) {
    if (/е$/u.test(lower) && PREPOSITIONAL.has(before)) return lower.slice(0, -1);
    if (/(?:ом|ем)$/u.test(lower) && INSTRUMENTAL.has(before)) return lower.slice(0, -2);
  }
  // «на Землю», «в Варшаву»: after a preposition of direction a consonant + -у/-ю can only be the accusative of a
  // feminine noun in -а/-я (a masculine one keeps its nominative or takes -а there), so the nominative is certain.
  if (before !== undefined && ACCUSATIVE_PREPOSITIONS.has(before) && lower.length >= 4) {
    const acc = /([бвгдзклмнпрстфхцчшщж])([ую])$/u.exec(lower);
    if (acc) return `${lower.slice(0, -1)}${acc[2] === "у" ? "а" : "я"}`;
  }
  // «благодарил Хоботова», «позвали Петрова»: after a masculine or plural past-tense verb a surname in -ова/-ина is
  // its object (a woman as subject would need a verb in -ла), so the masculine accusative, which is the genitive form.
  if (before !== undefined && /(?:ов|ев|ин|ын)а$/u.test(lower) && /\p{L}{2}(?:[аеиоуыя]л|[аеиоуыя]ли)$/u.test(before))
    return lower.slice(0, -1);
  // «метод Гаусса-Ньютона»: each part of a double name after an eponym head is a masculine genitive.
  if (before !== undefined && EPONYM_HEAD.test(before) && lower.includes("-")) {
    const parts = lower.split("-");
    if (parts.every((p) => /[бвгдзклмнпрстфхцчшщж]а$/u.test(p))) return parts.map((p) => p.slice(0, -1)).join("-");
  }
  if (!/[бвгдзклмнпрстфхцчшщж]а$|[аеиоу]я$/u.test(lower)) return null;
  const gen = (w: string | undefined) =>
    w !== undefined && (GENITIVE_PREPOSITIONS.has(w) || NOUN_BEFORE.test(w) || EPONYM_HEAD.test(w));
  const coordinated =
    (before === "и" || before === "или") && before2 !== undefined && /[^ео]а$|[аеиоу]я$/u.test(before2);
  if (!gen(before) && !coordinated) return null;
  return lower.endsWith("я") ? `${lower.slice(0, -1)}й` : lower.slice(0, -1);
}

/** The case a lone masculine surname's ending shows, or null («Рагину» → dat; «Рагина» is gen or a woman's nom). */
export function caseOfSurname(lower: string): RuCase | null {
  if (/(ов|ев|ин|ын)у$/u.test(lower)) return "dat";
  if (/(ов|ев|ин|ын)ым$/u.test(lower)) return "ins";
  if (/(ов|ев|ин|ын)е$/u.test(lower)) return "pre";
  return null;
}

/** Restores the capitals of `surface` on a normalised lower-case `lower` word of the same stem. */
export function recase(surface: string, lower: string): string {
  const parts = lower.split("-");
  const shown = surface.split("-");
  // «Гаусса-Ньютона» → «Гаусс-Ньютон»: each part of a double name keeps its own capital.
  if (parts.length > 1 && parts.length === shown.length) return parts.map((p, i) => recase(shown[i], p)).join("-");
  let out = "";
  for (let i = 0; i < lower.length; i++) {
    const s = surface[i];
    out += s !== undefined && s !== s.toLowerCase() ? lower[i].toUpperCase() : lower[i];
  }
  return out;
}
