/**
 * The numbers of a statement (statement.ts): runs of digits or number words folded into values, with the unit after
 * them (or a currency symbol before them). Pure.
 */
import { PREFIX_UNITS, UNITS } from "./units.ts";
import { foldNumberRun } from "./number-words.ts";
import type { Marks, NumberRun } from "./qualifiers.ts";
import type { Tok } from "./statement-tokens.ts";
import { lightStem } from "./light-stem.ts";
import { MONTHS, WEEKDAYS } from "./lexicon.ts";
import { ENGLISH_STOP_WORDS, RUSSIAN_STOP_WORDS } from "../stopwords.ts";

/**
 * Nouns that number the things they name when lower case ("table 2", "в таблице 3", "section 4"): light stems.
 * A capitalized word before a bare number does the same ("Widget 5", "Sensor 12", "Node 20", "Firefox 85").
 */
const LABEL_NOUNS: ReadonlySet<string> = new Set(
  [
    "table figure fig section chapter page paragraph version step item number no appendix part volume issue",
    "таблиц рисун раздел глав страниц абзац параграф пункт верси шаг номер част том приложени",
  ]
    .join(" ")
    .split(" "),
);

const isStop = (w: string) => ENGLISH_STOP_WORDS.has(w) || RUSSIAN_STOP_WORDS.has(w);

/**
 * True when `t` names a thing that the bare number (or capital letter) after it numbers ("Widget 5", "Group A"). In
 * a text without case (all lower or all upper case) any word that is no stop word may.
 */
function labels(t: Tok | undefined, caseless: boolean): boolean {
  if (t?.kind !== "word" || MONTHS.has(t.lower) || WEEKDAYS.has(t.lower)) return false;
  if (LABEL_NOUNS.has(lightStem(t.lower)) || LABEL_NOUNS.has(t.lower)) return true;
  return (caseless || /^\p{Lu}/u.test(t.raw)) && !isStop(t.lower);
}

/** English ordinals and Russian ordinal adjectives ("первому", "второй"; not the cardinal «одному»). */
const ORDINAL =
  /^(?:first|second|third|\p{L}+th|(?!одн)\p{Script=Cyrillic}+(?:ый|ой|ий|ая|яя|ое|ее|ого|его|ому|ему|ым|ом|ем|ую|юю))$/u;

/** An ordinal number word that starts a statement's subject ("The second patient…", «Первому пациенту…»). */
function ordinalAt(toks: Tok[], i: number): string | null {
  const t = toks[i];
  const prev = toks[i - 1];
  if (t.kind !== "number" || !t.num?.word || !ORDINAL.test(t.lower) || toks[i + 1]?.kind !== "word") return null;
  return !prev || t.initial || (prev.kind === "word" && prev.lower === "the" && prev.initial)
    ? `ord#${t.num.value}`
    : null;
}

/**
 * The identifier a token makes with the word before it, or null: a bare number in digits without a unit
 * ("Widget 5 weighs…", "Node 20 supports…", "палата N 6", "№ 6") or a single capital letter ("Group A", "Группа Б")
 * after a word that {@link labels}, read as `stem#5`; or an ordinal that starts the subject ("The second patient").
 * It says WHICH thing a statement is about, not a value of it: "Widget 5 weighs 22 kg" and "Widget 6 weighs 25 kg"
 * are two widgets, not one widget with two weights.
 */
function identifierAt(toks: Tok[], i: number, unit: boolean, caseless: boolean): string | null {
  const ordinal = ordinalAt(toks, i);
  if (ordinal) return ordinal;
  const t = toks[i];
  const prev = toks[i - 1];
  const next = toks[i + 1];
  if (!/^\.?\s+$/u.test(t.gap) && !/№\s*$/u.test(t.gap)) return null;
  if (next?.kind === "number" && /^\s*[-–]?\s*$/u.test(next.gap)) return null; // a run or a range: a value
  if (/№\s*$/u.test(t.gap) && t.kind === "number" && t.digits) return `no#${t.digits}`;
  if (!labels(prev, caseless) || unit) return null;
  if (t.kind === "number" && t.digits && !t.negative) return `${lightStem(prev!.lower)}#${t.digits}`;
  if (t.kind === "word" && /^\p{Lu}$/u.test(t.raw) && t.raw !== "I") return `${lightStem(prev!.lower)}#${t.lower}`;
  return null;
}

/** The canonical unit of the token after a number run ending at `k`, and how many tokens it takes (0 if none). */
function unitAfter(toks: Tok[], k: number, last: number | undefined): [string, number] | null {
  const u = toks[k + 1];
  if (!u || !/^(?:\s*|\s*[-–]\s*)$/u.test(u.gap)) return null;
  if (u.raw === "%") return ["%", 1];
  if (u.raw === "°") {
    const scale = toks[k + 2];
    const letter =
      scale && /^\s?$/u.test(scale.gap)
        ? new Map([
            ["c", "°c"],
            ["с", "°c"],
            ["f", "°f"],
          ]).get(scale.lower)
        : undefined;
    return letter ? [letter, 2] : ["°", 1];
  }
  if (u.kind !== "word" && !(u.kind === "number" && u.lower === "second")) return null;
  if ((u.lower === "г" || u.lower === "гг") && last !== undefined && last >= 1000 && last < 3000) return ["year", 1];
  const unit = UNITS.get(u.lower);
  return unit ? [unit, 1] : null;
}

/** The numbers of a statement, their units, and the tokens they take (see {@link Marks}). */
export interface NumberRead extends Marks {
  numbers: string[];
  /** Identifiers ("widget#5", "group#a"): numbers and letters that name which thing, kept out of `numbers`. */
  ids: string[];
  units: string[];
  runs: NumberRun[];
}

/**
 * Reads every number run, with its unit after it (or a currency symbol before it), and the identifiers apart
 * ({@link identifierAt}). `caseless`: the text has one case only, so any word that is no stop word may label a number.
 */
export function readNumbers(toks: Tok[], caseless = false): NumberRead {
  const r: NumberRead = { numbers: [], ids: [], units: [], used: new Set(), wordOf: new Map(), runs: [] };
  for (let j = 0; j < toks.length; j++) {
    const id =
      toks[j].kind === "number" || toks[j].kind === "word"
        ? identifierAt(toks, j, !!unitAfter(toks, j, undefined), caseless)
        : null;
    if (id) {
      r.ids.push(id);
      r.used.add(j);
      r.wordOf.set(j, id);
      continue;
    }
    if (toks[j].kind !== "number") continue;
    let k = j;
    // "second" after a number is its unit ("1 second"), not the ordinal.
    while (toks[k + 1]?.kind === "number" && toks[k + 1].lower !== "second" && /^(?:\s+|-)$/u.test(toks[k + 1].gap))
      k++;
    const run = toks.slice(j, k + 1);
    const folded = run.some((t) => Number.isNaN(t.num!.value))
      ? run.map((t) => t.digits ?? t.lower)
      : foldNumberRun(run.map((t) => t.num!)).map(String);
    if (toks[j].negative && folded.length) folded[0] = `-${folded[0]}`;
    r.numbers.push(...folded);
    for (let i = j; i <= k; i++) r.used.add(i), r.wordOf.set(i, i === j ? folded.join(" ") : "");
    const unit = unitAfter(toks, k, Number(folded[folded.length - 1]));
    if (unit) {
      r.units.push(unit[0]);
      for (let i = 1; i <= unit[1]; i++) r.used.add(k + i), r.wordOf.set(k + i, i === 1 ? unit[0] : "");
    }
    const before = toks[j - 1];
    if (before?.kind === "symbol" && PREFIX_UNITS.has(before.raw)) {
      r.units.push(UNITS.get(before.raw) ?? before.raw);
      r.used.add(j - 1);
      r.wordOf.set(j - 1, UNITS.get(before.raw) ?? before.raw);
    }
    r.runs.push({ start: j, end: k + (unit ? unit[1] : 0), first: folded[0] ?? "" });
    j = k + (unit ? unit[1] : 0);
  }
  return r;
}
