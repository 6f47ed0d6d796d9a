/**
 * Numbers followed by a unit's letters that state no measurement, decided by the words around them: a decade ("the
 * 1980s", "the '80s", "mid-1990s", "in their 30s") is no time in seconds, and the pages of a Russian reference
 * («М.: Мир, 1980. 280 с.») are no seconds, while «время отклика составляет 2 с.» and «запуск занимает 1,5 с.» are.
 * Pure.
 */

/** What stands right before a two-digit decade: "the 80s", "the '80s", "mid-80s", "in their 30s", "the 80s and 90s". */
const DECADE_BEFORE =
  /(?:(?:^|[^\p{L}])(?:the|early|mid|late|their|his|her|its|our|my|your)[\s-]*['’]?|['’]|\d0s\s*(?:,|and|or|to|through|[-–—])\s*['’]?)$/iu;
/** What stands right before a duration in seconds glued to a round four-digit number: "a timeout of 1800s". */
const DURATION_BEFORE =
  /(?:[=<>~≈≤≥:±]|(?:^|[^\p{L}])(?:of|for|after|within|every|each|takes?|took|lasts?|lasted|than|to|about|timeout|ttl|interval|delay|wait(?:ed)?))\s*$/iu;

/**
 * Whether the "s" glued to the number `value` that ends at `end` in `text` marks a decade, not seconds: a round
 * number (a multiple of ten) with the "s" written without a space and no letter after it, and either a year from
 * 1000 to 2100 not right after a duration word ("the 1980s", "1990s", but "a timeout of 1800s" stays 30 min) or a
 * two-digit number after "the", an apostrophe, early/mid/late or a possessive ("the 80s", "in their 30s", but "took
 * 30s" stays seconds). `start` is where the number begins.
 */
export function isDecade(text: string, start: number, end: number, value: number): boolean {
  if (text.charAt(end) !== "s" || /[\p{L}\p{N}]/u.test(text.charAt(end + 1))) return false;
  if (!Number.isInteger(value) || value % 10 !== 0) return false;
  const before = text.slice(Math.max(0, start - 24), start);
  if (value >= 1000 && value <= 2100) return !DURATION_BEFORE.test(before);
  return value >= 10 && value <= 90 && DECADE_BEFORE.test(before);
}

/** Words of a clause that make the «с.» after a number seconds: a verb of duration or a noun of time. */
const SECONDS_CLAUSE =
  /(?:^|[^\p{L}])(?:составля\p{L}*|состав(?:ил|ила|ило|или)|занима\p{L}*|заня(?:л|ла|ло|ли)|длит\p{L}*|длил\p{L}*|длят\p{L}*|продолжа\p{L}*|продолжительност\p{L}*|длительност\p{L}*|требу\p{L}*|потребова\p{L}*|врем\p{L}*|задержк\p{L}*|таймаут\p{L}*|тайм-аут\p{L}*|интервал\p{L}*|период\p{L}*|отклик\p{L}*|ожидани\p{L}*)(?![\p{L}])/iu;
/** Words right before the number that make it a duration: «за 2 с.», «через 5 с.», «не более 3 с.», «~ 2 с.». */
const SECONDS_BEFORE =
  /(?:[=<>~≈≤≥±]|(?:^|[^\p{L}])(?:за|через|спустя|в\s+течение|около|примерно|порядка|каждые|до|не\s+более|не\s+менее|более|менее|меньше|больше|всего|лишь))\s*$/iu;

/**
 * Whether a number with «с» and a full stop after it ("280 с.") counts the pages of a Russian reference rather than
 * seconds. Seconds when the number has a decimal part (`decimal`: «1,5 с.»), when a duration word stands right before
 * it (за, через, не более, около…) or when its clause, back to the last full stop, semicolon, colon, dash or bracket,
 * holds a verb of duration or a noun of time («составляет», «занимает», «длится», «время», «задержка»); otherwise
 * pages, as in a reference («М.: Наука, 2001. — 213 с.», «Мир, 1980, 280 с.»). `start` is where the number begins.
 */
export function isPageCount(text: string, start: number, decimal: boolean): boolean {
  if (decimal) return false;
  const before = text.slice(Math.max(0, start - 120), start);
  if (SECONDS_BEFORE.test(before)) return false;
  const clause = before.split(/[.;:—–()\n]/u).pop() ?? "";
  return !SECONDS_CLAUSE.test(clause);
}
