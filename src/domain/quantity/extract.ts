/**
 * Finds the measurements of a claim (issue 24): each number with a unit of a known dimension, as a value or a
 * range, normalised to the dimension's canonical unit, with its stated precision, what was measured, the conditions
 * the sentence states, and the quote. English and Russian: "24 h", "16 and 26 Hz", "10-11%", "$163M",
 * "forty yen a month", "24 h and 11 min", «1 200,5 мс», «2,5 млн руб.», «шестьдесят-семьдесят рублей в месяц»,
 * «лет двадцать» (a Russian unit before its number: an approximation), «от -5% до +5%». Pure and synchronous.
 *
 * Method (rule-based, no model): {@link numberTokens} finds the numbers; after each one the reader takes, in order,
 * a scale word ("million", «млн»), a spread ("± 7.5"), the other end of a range ("to", "or", "–", «до», a comma
 * between number words as in «пять, десять лет»; "and" only after "between", else "60 and 90 days" is two values
 * sharing one unit), at most one adjective ("three consecutive days", «пять счастливейших лет»), the unit
 * ({@link unitAt}), a smaller time unit that continues a duration ("23 h 40 min"), "and a half", and a rate's
 * denominator ("/day", "per", "a month", «в месяц», «ежегодно»). A number without a unit is a count and is skipped
 * (unless a currency sign stands before it); a time of day ("three o'clock", «в восемь часов», «бьет четыре часа»),
 * a calendar year («2024 г.», «в 1863 году»), the pages of a Russian reference («213 с.», but «составляет 2 с.» is
 * seconds: {@link isPageCount}), a decade ("the 1980s", "the '80s": {@link isDecade}), «ни одной минуты» and a lone
 * plural multiplier ("millions of years", «миллионы лет») are skipped too.
 * Limits: units the table lacks (dB, mol, dose units, "fold") are not read; a unit far from its number ("1.3 to
 * 4.0 min/day" works, "1.3 min/day to 4.0" does not); a list of more than two values shares a unit only pairwise.
 */
import { type Precision, precisionOf } from "./precision.ts";
import { shareSubjects, subjectOf } from "./subject.ts";
import { type NumberToken, numberTokens } from "./tokens.ts";
import { isDecade, isPageCount } from "./not-measured.ts";
import { scaleWord } from "./numbers.ts";
import { type Dimension, toCanonical, type UnitDef, unitAt } from "./units.ts";

/** One measurement found in a text. */
export interface Quantity {
  /** The value in `unit` (the low end for a range). */
  low: number;
  /** The high end in `unit`; equal to `low` for a single value. */
  high: number;
  /** The unit as a symbol ("ms", "MiB", "verst", "JPY", "JPY/mo" for a rate). */
  unit: string;
  /** Its dimension ("time", "currency/time" for a rate). */
  dimension: Dimension | `${Dimension}/${Dimension}`;
  /** `low` and `high` in the canonical unit of the dimension (`canonicalUnit`: "s", "B", "JPY/s"…). */
  canonicalLow: number;
  canonicalHigh: number;
  canonicalUnit: string;
  precision: Precision;
  /** What was measured: the head phrase the sentence names for it ("phase delay", «точность определения»). */
  subject: string;
  /** The conditions stated with it ("on the ARM board", «при 20 °C»), as written; empty when none. */
  conditions: string[];
  /** The measurement's text, `text.slice(start, end)`. */
  quote: string;
  start: number;
  end: number;
}

const SPACE = /^[\s\u00a0\u202f\u2009]{0,2}(?:-(?=[\p{L}]))?/u;
const ADJECTIVE = /^(?:consecutive|successive|full|whole|additional|extra|straight|long|[\p{L}]{4,}(?:ых|их))\s+/iu;

/** Reads the unit after `pos` (skipping a space, a hyphen, or one adjective). */
function unitAfter(text: string, pos: number): { unit: UnitDef; end: number } | null {
  const sp = SPACE.exec(text.slice(pos))?.[0].length ?? 0;
  const direct = unitAt(text, pos + sp);
  if (direct || sp === 0) return direct;
  const adj = ADJECTIVE.exec(text.slice(pos + sp, pos + sp + 30));
  return adj ? unitAt(text, pos + sp + adj[0].length) : null;
}

/** A number token with its scale applied; `end` after the scale word. */
function scaled(text: string, t: NumberToken): { value: number; end: number; place: number | null } {
  const m = /^\s?([\p{L}]+\.?)/u.exec(text.slice(t.end, t.end + 12));
  const f = m && !t.word ? scaleWord(m[1]) : 0;
  const glued = m && m[0] === m[1] && /^[kmb]/i.test(m[1]);
  if (!f || (glued && !t.currency) || (m && /^[kmb]/i.test(m[1]) && m[1].length <= 2 && !t.currency))
    return { value: t.value, end: t.end, place: t.lastPlace };
  return {
    value: t.value * f,
    end: t.end + (m?.[0].length ?? 0),
    place: t.lastPlace === null ? null : t.lastPlace * f,
  };
}

const RANGE = /^\s*(?:–|—|‒|-|to|or|and|до|или)\s*/iu;
const TIME_OF_DAY = /(?:(?:^|\s)в|at|бьет|било|пробило|until|till|до)\s+$/iu;
const RATE = /^\s*(?:\/|per\s+|an?\s+|в\s+|за\s+|each\s+)/iu;
const RATE_WORDS: Array<[RegExp, string]> = [
  [/^\s*(?:ежегодно|annually|yearly)(?![\p{L}])/iu, "yr"],
  [/^\s*(?:ежемесячно|monthly)(?![\p{L}])/iu, "mo"],
  [/^\s*(?:ежедневно|daily)(?![\p{L}])/iu, "d"],
];

/** The measurements of `text`, in order. `lang` decides a lone decimal comma ("1,200": en 1200, ru 1.2). */
export function extractQuantities(text: string, lang: "en" | "ru"): Quantity[] {
  const tokens = numberTokens(text, lang);
  const out: Quantity[] = [];
  const used = new Set<number>();
  for (let i = 0; i < tokens.length; i++) {
    if (used.has(i)) continue;
    const q = readAt(text, tokens, i, used);
    if (q) out.push(...q);
  }
  shareSubjects(text, out);
  return out;
}

/** Reads the measurement starting at token `i`; marks the tokens it consumed in `used`. */
function readAt(text: string, tokens: NumberToken[], i: number, used: Set<number>): Quantity[] | null {
  const t = tokens[i];
  const a = scaled(text, t);
  for (let k = i + 1; k < tokens.length && tokens[k].start < a.end; k++) used.add(k);
  const t0 = { ...t, lastPlace: a.place };
  let high = a.value;
  let pos = a.end;
  let pm: number | null = null;
  let second: number | null = null;
  let list = false;
  const spread = /^\s*(?:±|\+\/-|\+-)\s*(\d+(?:[.,]\d+)?)/u.exec(text.slice(pos));
  if (spread) {
    pm = Number(spread[1].replace(",", "."));
    pos += spread[0].length;
    for (let k = i + 1; k < tokens.length && tokens[k].start < pos; k++) used.add(k);
  }
  const before = text.slice(Math.max(0, t.start - 12), t.start);
  const next = tokens[i + 1];
  // «пять, десять лет», "two, three days": number words listed with a comma state a range.
  const conn = RANGE.exec(text.slice(pos)) ?? (t.word && next?.word ? /^,\s*/u.exec(text.slice(pos)) : null);
  const joined = next && !spread && (conn ? pos + conn[0].length === next.start : next.signed && next.start === pos);
  if (joined && !unitAfter(text, pos)) {
    const word = conn?.[0].trim().toLowerCase() ?? "-";
    const b = scaled(text, next);
    const between = /(?:between|от|from)\s+$/iu.test(before);
    if (word === "and" && !between) list = true;
    second = next.signed && word === "-" ? Math.abs(b.value) : b.value;
    pos = b.end;
    used.add(i + 1);
  }
  let u = unitAfter(text, pos);
  let start = t.start;
  let approximate = false;
  if (!u && t.currency) u = { unit: t.currency, end: pos };
  if (!u) {
    const inv = inverted(text, t.start, t);
    if (!inv) return null;
    u = { unit: inv.unit, end: pos };
    start = inv.start;
    approximate = true;
  }
  const calendarYear = Number.isInteger(a.value) && a.value >= 1000 && a.value <= 2100 && second === null;
  const form = text.slice(u.end - 5, u.end).toLowerCase();
  // «1863 году», «2024 г.», "in 1998 years"? — a calendar year; «213 с.» — pages of a reference (not «составляет
  // 2 с.»); "the 1980s" — a decade; «ни одной минуты».
  if (calendarYear && (u.unit.symbol === "g" || (u.unit.symbol === "yr" && !/(?:лет|years?)$/u.test(form))))
    return null;
  if (u.unit.symbol === "s") {
    const decimal = a.place !== null && a.place < 1;
    const pages = /^\./.test(text.slice(u.end)) && isPageCount(text, t.start, decimal);
    if (/с$/u.test(form) && (t.word || pages)) return null;
    if (second === null && isDecade(text, t.start, a.end, a.value)) return null;
  }
  if (/(?:^|\s)ни\s+$/iu.test(text.slice(Math.max(0, start - 4), start))) return null;
  if (u.unit.dimension === "time" && u.unit.factor === 3600 && TIME_OF_DAY.test(text.slice(0, start))) return null;
  let end = u.end;
  let low = a.value;
  if (second !== null && !list) high = second;
  // A duration continued by a smaller unit: "24 h and 11 min", "23 h 40 min".
  if (u.unit.dimension === "time" && second === null) {
    const cont = /^\s*(?:and\s+|и\s+)?/iu.exec(text.slice(end))?.[0] ?? "";
    const k = tokens.findIndex((x) => x.start === end + cont.length);
    const sub = k >= 0 ? unitAfter(text, tokens[k].end) : null;
    if (sub && sub.unit.dimension === "time" && sub.unit.factor < u.unit.factor) {
      const secs = a.value * u.unit.factor + tokens[k].value * sub.unit.factor;
      used.add(k);
      return [build(text, tokens, start, sub.end, secs, secs, unitFor("s"), null, pm, approximate)];
    }
  }
  const half = /^\s+(?:and\s+a\s+half|с\s+половиной)(?![\p{L}])/iu.exec(text.slice(end));
  if (half) {
    low += 0.5;
    high += 0.5;
    end += half[0].length;
  }
  // A range written with the unit on both ends: «от -5% до +5%», "from 2 s to 3 s".
  const tail = /^\s*(?:–|—|-|to|до)\s*/iu.exec(text.slice(end));
  if (second === null && tail && /(?:from|от)\s+$/iu.test(before)) {
    const k = tokens.findIndex((x) => x.start === end + tail[0].length);
    const u2 = k >= 0 ? unitAfter(text, tokens[k].end) : null;
    if (u2 && u2.unit === u.unit) {
      high = tokens[k].value;
      end = u2.end;
      used.add(k);
    }
  }
  let rate: UnitDef | null = null;
  const r = RATE.exec(text.slice(end));
  const den = r ? unitAt(text, end + r[0].length) : null;
  if (r && den && (den.unit.dimension === "time" || r[0].trim() === "/")) {
    rate = den.unit;
    end = den.end;
  } else {
    for (const [re, sym] of RATE_WORDS) {
      const m = re.exec(text.slice(end));
      if (m) {
        rate = unitFor(sym);
        end += m[0].length;
        break;
      }
    }
  }
  const first = build(text, tokens, start, end, low, list ? low : high, u.unit, rate, pm, approximate, t0);
  if (!list) return [first];
  const v2 = second ?? high;
  const second1 = build(text, tokens, next.start, end, v2, v2, u.unit, rate, pm, approximate, next);
  return [{ ...first, quote: text.slice(t.start, a.end), end: a.end }, second1];
}

/** A unit by symbol that the table is known to hold. */
function unitFor(symbol: string): UnitDef {
  const u = unitAt(symbol, 0)?.unit;
  if (!u) throw new Error(`unit table lacks '${symbol}'`);
  return u;
}

/** A Russian unit written before its number («лет двадцать», «рублей пятьсот», «часа через два»). */
function inverted(text: string, at: number, t: NumberToken): { unit: UnitDef; start: number } | null {
  // Only number words above one («лет двадцать», not «изо дня в день одного», nor a table's «м 545,49»), and only a
  // unit in the genitive a count takes (лет, года, рублей, часа), not «в отчетном году двенадцать тысяч человек».
  if (!t.word || t.value <= 1) return null;
  const m = /([\p{L}]+)\s+(?:(?:через|по|с)\s+)?$/u.exec(text.slice(Math.max(0, at - 24), at));
  if (!m || !/\p{Script=Cyrillic}/u.test(m[1]) || /(?:у|ю|е|ах|ях|ом|ем)$/u.test(m[1])) return null;
  const start = at - m[0].length;
  const u = unitAt(text, start);
  if (!u || u.end !== start + m[1].length || !["time", "currency", "length", "mass"].includes(u.unit.dimension))
    return null;
  return { unit: u.unit, start };
}

function build(
  text: string,
  tokens: NumberToken[],
  start: number,
  end: number,
  low: number,
  high: number,
  unit: UnitDef,
  rate: UnitDef | null,
  pm: number | null,
  approximate: boolean,
  token?: NumberToken,
): Quantity {
  const f = rate ? 1 / rate.factor : 1;
  const canonicalLow = toCanonical(low, unit) * f;
  const canonicalHigh = toCanonical(high, unit) * f;
  const { subject, conditions } = subjectOf(text, start, end, unit.dimension);
  return {
    low,
    high,
    unit: rate ? `${unit.symbol}/${rate.symbol}` : unit.symbol,
    dimension: rate ? `${unit.dimension}/${rate.dimension}` : unit.dimension,
    canonicalLow,
    canonicalHigh,
    canonicalUnit: rate ? `${unit.canonical}/${rate.canonical}` : unit.canonical,
    precision: precisionOf(text, start, token ?? tokens.find((x) => x.start >= start), unit, pm, approximate, f),
    subject,
    conditions,
    quote: text.slice(start, end),
    start,
    end,
  };
}
