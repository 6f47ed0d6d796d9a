/**
 * The measurement filter of a search query (issue 24), English and Russian: a comparison with a value and a unit
 * anywhere in the query, the rest of the query saying what was measured.
 *
 *   cold start < 1.5 s            время запуска меньше 200 мс
 *   startup under 200 ms          задержка не более 2 с
 *   heap >= 512 MiB               память от 1 ГБ
 *   latency between 1 and 2 s     задержка от 1 до 2 с
 *   price ≤ $20                   цена до 500 руб.
 *
 * Comparisons: `<`, `≤`/`<=`, `>`, `≥`/`>=`, `=`/`~`/`≈` (equal within the stated precision); "under", "below",
 * "less than", "at most", "no more than", "up to", "over", "above", "more than", "at least", "no less than",
 * "between … and …", "from … to …", "… or less", "… or more"; «меньше», «менее», «ниже», «не более», «не больше»,
 * «до», «больше», «более», «выше», «свыше», «не менее», «не меньше», «от», «от … до …», «между … и …», «около»,
 * «… и меньше», «… и больше». A number with a unit but no comparison is no filter ("startup 149 ms" is searched as
 * words). Values compare in the dimension's canonical unit, so "< 1.5 s" matches "1200 ms"; MB and MiB, and
 * currencies, stay apart. Pure.
 */
import { ENGLISH_STOP_WORDS, QUESTION_WORD_FORMS, RUSSIAN_STOP_WORDS } from "../stopwords.ts";
import { quantityLang } from "./atom-quantities.ts";
import { statedInterval } from "./compare.ts";
import { extractQuantities, type Quantity } from "./extract.ts";

/** A parsed filter: the value range in one canonical unit, and the query's other words. */
export interface QuantityFilter {
  dimension: string;
  canonicalUnit: string;
  /** Bounds in the canonical unit; a missing bound is open-ended. */
  low?: number;
  high?: number;
  /** Whether a bound excludes itself ("< 1.5 s"). */
  lowOpen: boolean;
  highOpen: boolean;
  /** The query without the comparison and the value: what was measured ("cold start"). */
  rest: string;
  /** The filter as written ("< 1.5 s"). */
  text: string;
}

type Op = "lt" | "le" | "gt" | "ge" | "eq" | "range";

const BEFORE: Array<[RegExp, Op]> = [
  [
    /(?:<=|≤|⩽|=<|at\s+most|no\s+more\s+than|not\s+more\s+than|up\s+to|не\s+более|не\s+больше|не\s+выше|до)\s*$/iu,
    "le",
  ],
  [/(?:>=|≥|⩾|=>|at\s+least|no\s+less\s+than|not\s+less\s+than|не\s+менее|не\s+меньше|не\s+ниже)\s*$/iu, "ge"],
  [/(?:between|from|между|от)\s*$/iu, "range"],
  [
    /(?:<|under|below|less\s+than|fewer\s+than|shorter\s+than|faster\s+than|меньше|менее|ниже|быстрее|короче)\s*$/iu,
    "lt",
  ],
  [
    /(?:>|over|above|more\s+than|greater\s+than|longer\s+than|exceeding|больше|более|выше|свыше|дольше|длиннее)\s*$/iu,
    "gt",
  ],
  [/(?:=|~|≈|equals?|about|around|approximately|около|примерно|приблизительно|равн[оаы]?|равен)\s*$/iu, "eq"],
];
const AFTER: Array<[RegExp, Op]> = [
  [/^\s*(?:or\s+less|or\s+fewer|или\s+меньше|и\s+меньше|и\s+менее)(?![\p{L}])/iu, "le"],
  [/^\s*(?:or\s+more|or\s+greater|или\s+больше|и\s+больше|и\s+более)(?![\p{L}])/iu, "ge"],
];

/** The comparison word right before `q` (it must start the query or follow a space), with where it starts. */
function opBefore(query: string, q: Quantity): { op: Op; at: number } | null {
  const head = query.slice(0, q.start);
  for (const [re, op] of BEFORE) {
    const m = re.exec(head);
    if (!m) continue;
    const prev = head.charAt(m.index - 1);
    if (m.index > 0 && /[\p{L}\p{N}]/u.test(prev) && /^[\p{L}]/u.test(m[0])) continue;
    return { op, at: m.index };
  }
  return null;
}

/** The bounds of `op` applied to `q`. */
function bounds(op: Op, q: Quantity): Pick<QuantityFilter, "low" | "high" | "lowOpen" | "highOpen"> {
  const [lo, hi] = [Math.min(q.canonicalLow, q.canonicalHigh), Math.max(q.canonicalLow, q.canonicalHigh)];
  switch (op) {
    case "lt":
      return { high: lo, highOpen: true, lowOpen: false };
    case "le":
      return { high: hi, highOpen: false, lowOpen: false };
    case "gt":
      return { low: hi, lowOpen: true, highOpen: false };
    case "ge":
      return { low: lo, lowOpen: false, highOpen: false };
    case "range":
      // "from 1 s" alone is "at least 1 s"; «от 1 до 2 с» is both ends.
      return lo === hi
        ? { low: lo, lowOpen: false, highOpen: false }
        : { low: lo, high: hi, lowOpen: false, highOpen: false };
    case "eq": {
      const s = statedInterval(q);
      return { low: s.low, high: s.high, lowOpen: false, highOpen: false };
    }
  }
}

/** Most content words of what was measured for a comparison in words to be a filter (see {@link filterLike}). */
export const FILTER_MAX_WORDS = 4;

/**
 * Whether a comparison reads as a filter rather than as part of a sentence: written with a symbol (`< 1.5 s`), or
 * in words (`under 200 ms`, «меньше 200 мс») beside at most {@link FILTER_MAX_WORDS} content words and not in a
 * question. A claim or a question that states a bound ("10% of deaths happen in newborns aged less than 6 months", «дети в возрасте до 18
 * лет») is searched as words: its other words say more than the bound, and a filter would drop every atom without
 * a stored measurement in range.
 */
function filterLike(comparison: string, rest: string): boolean {
  if (/[<>≤≥⩽⩾=~≈]/u.test(comparison)) return true;
  if (/[?？]\s*$/u.test(rest)) return false;
  const words = rest.toLowerCase().match(/[\p{L}][\p{L}\p{N}'’-]*/gu) ?? [];
  const content = words.filter(
    (w) => !ENGLISH_STOP_WORDS.has(w) && !RUSSIAN_STOP_WORDS.has(w) && !QUESTION_WORD_FORMS.has(w),
  );
  return content.length <= FILTER_MAX_WORDS;
}

/**
 * The measurement filter of `query`, or null when it states none (no value with a unit, or none with a comparison).
 * The first comparison found is the filter; the rest of the query keeps any other number as words.
 */
export function parseQuantityFilter(text: string): QuantityFilter | null {
  if (!/[0-9]/.test(text)) return null;
  // «между 1 и 2 с»: the reader takes «и» for a list, «от 1 до 2 с» for a range.
  const query = text.replace(/(?<![\p{L}])между(\s+[\d.,]+\s+)и(?=\s)/giu, "от$1до");
  let qs: Quantity[];
  try {
    qs = extractQuantities(query, quantityLang(query));
  } catch {
    return null;
  }
  for (const q of qs) {
    const before = opBefore(query, q);
    const after = before ? null : AFTER.find(([re]) => re.test(query.slice(q.end)));
    if (!before && !after) continue;
    const op = before?.op ?? after![1];
    const from = before?.at ?? q.start;
    const to = after ? q.end + (after[0].exec(query.slice(q.end))?.[0].length ?? 0) : q.end;
    const rest = `${query.slice(0, from)} ${query.slice(to)}`.replace(/\s+/gu, " ").trim();
    // English "from 4 years ago" is no range without its "to".
    if (op === "range" && /^from/iu.test(query.slice(from)) && q.canonicalLow === q.canonicalHigh) continue;
    if (!filterLike(query.slice(from, to), rest)) continue;
    return {
      dimension: q.dimension,
      canonicalUnit: q.canonicalUnit,
      ...bounds(op, q),
      rest,
      text: query.slice(from, to).trim(),
    };
  }
  return null;
}
