/**
 * Finding the time expressions of a text (absolute.ts, relative.ts) and the event time an atom takes from them: the
 * first dated expression. Overlapping matches keep the longest ("March 3, 2024" over "March 3"; «в прошлом году»
 * over nothing shorter), so each span of text is read once.
 */
import type { EventTime } from "./atom-time.ts";
import { ABSOLUTE_RULES } from "./absolute.ts";
import { RELATIVE_RULES } from "./relative.ts";
import { joinRanges } from "./ranges.ts";
import type { TimeRule } from "./rules.ts";

/** A time expression found in a text: its UTF-16 span, its words, what it dates, and whether it was relative. */
export interface TimeExpression {
  index: number;
  length: number;
  text: string;
  event: EventTime;
  relative: boolean;
}

const RULES: TimeRule[] = [...RELATIVE_RULES, ...ABSOLUTE_RULES];

/** Longest text scanned: an atom is a few sentences; a long body is dated by its beginning. */
const MAX_SCAN = 20_000;

/**
 * Every dated time expression of `text`, in text order, overlaps resolved to the longest and ranges joined into one
 * (ranges.ts); `ref` (when the source said it) resolves relative ones and yearless days, which are skipped without it.
 */
export function findTimeExpressions(text: string, ref?: Date): TimeExpression[] {
  const s = text.length > MAX_SCAN ? text.slice(0, MAX_SCAN) : text;
  const found: TimeExpression[] = [];
  for (const rule of RULES) {
    if (rule.relative && !ref) continue;
    rule.re.lastIndex = 0;
    for (let m = rule.re.exec(s); m; m = rule.re.exec(s)) {
      const event = rule.make(m, ref);
      if (event) found.push({ index: m.index, length: m[0].length, text: m[0], event, relative: rule.relative });
    }
  }
  found.sort((a, b) => b.length - a.length || a.index - b.index);
  const kept: TimeExpression[] = [];
  for (const f of found)
    if (!kept.some((k) => f.index < k.index + k.length && k.index < f.index + f.length)) kept.push(f);
  kept.sort((a, b) => a.index - b.index);
  return joinRanges(s, kept, (t) => findTimeExpressions(t, ref));
}

/** The event time of an atom's text: its first dated expression's, or null when it dates nothing. */
export function eventTimeOf(text: string, ref?: Date): EventTime | null {
  return findTimeExpressions(text, ref)[0]?.event ?? null;
}
