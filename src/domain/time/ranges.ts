/**
 * Date ranges: two dated expressions joined as one period — "between August 11 and August 15, 2023", "from March
 * 2022 to June 2023", «с 11 по 15 августа 2023 года», «между 2019 и 2021 годами», «от марта до мая 2024 года». The
 * range runs from the first's start to the second's end, at the coarser granularity of the two. A first part that
 * dates nothing alone borrows from the second what it lacks: its year ("August 11" + 2023) or, when it is a bare day
 * number, the rest of the second's words («11» + «августа 2023 года»). This is TimeML's treatment of a range as one
 * duration-bounded TIMEX3 pair read as an interval (ISO-TimeML, ISO 24617-1:2012, §8 "temporal ranges").
 */
import type { EventTime, TimeGranularity } from "./atom-time.ts";
import { TIME_GRANULARITIES } from "./atom-time.ts";

/** A dated expression of a text (extract.ts TimeExpression, without the import cycle). */
interface Found {
  index: number;
  length: number;
  text: string;
  event: EventTime;
  relative: boolean;
}

/** The opening word of a range and the joining word it takes, each language's. */
const RANGE =
  /(?<![\p{L}\p{N}])(between|from|между|от|с|со)\s+([^.;!?\n]{1,40}?)\s*(and|to|through|until|till|и|до|по|[–—-])\s*$/iu;
const JOINS: Record<string, ReadonlySet<string>> = {
  between: new Set(["and"]),
  from: new Set(["to", "through", "until", "till", "–", "—", "-"]),
  между: new Set(["и"]),
  от: new Set(["до"]),
  с: new Set(["по", "до"]),
  со: new Set(["по", "до"]),
};

/** The coarser of two granularities. */
function coarser(a: TimeGranularity, b: TimeGranularity): TimeGranularity {
  return TIME_GRANULARITIES.indexOf(a) >= TIME_GRANULARITIES.indexOf(b) ? a : b;
}

/** The first part's period: its own expression, else it with the second's year, else a day number with its words. */
function firstPart(words: string, second: Found, parse: (text: string) => Found[]): EventTime | null {
  const whole = (text: string) => parse(text).find((f) => f.index === 0 && f.length >= text.trimEnd().length - 1);
  const own = whole(words);
  if (own) return own.event;
  const year = /\b(1\d{3}|20\d{2})\b/u.exec(second.text)?.[1];
  const withYear = year ? whole(`${words} ${year}`) : undefined;
  if (withYear) return withYear.event;
  if (/^\d{1,2}$/u.test(words)) return whole(second.text.replace(/^\d{1,2}/u, words))?.event ?? null;
  return null;
}

/**
 * `found` (in text order, over `text`) with each range read as one expression spanning both parts; `parse` finds the
 * expressions of a short text (extract.ts findTimeExpressions with the same reference time). Pure.
 */
export function joinRanges(text: string, found: Found[], parse: (text: string) => Found[]): Found[] {
  const out: Found[] = [];
  for (const f of found) {
    const before = out.length > 1 ? out[out.length - 2] : undefined; // the first part may be the last one kept
    const start = Math.max(0, f.index - 80, before ? before.index + before.length : 0);
    const m = RANGE.exec(text.slice(start, f.index));
    const opener = m?.[1].toLowerCase();
    const first = m && opener && JOINS[opener]?.has(m[3].toLowerCase()) ? firstPart(m[2].trim(), f, parse) : null;
    if (!m || !first || Date.parse(first.start) > Date.parse(f.event.start)) {
      out.push(f);
      continue;
    }
    const index = start + m.index;
    const prev = out[out.length - 1];
    if (prev && prev.index >= index) out.pop();
    const event = {
      start: first.start,
      end: f.event.end,
      granularity: coarser(first.granularity, f.event.granularity),
    };
    out.push({
      index,
      length: f.index + f.length - index,
      text: text.slice(index, f.index + f.length),
      event,
      relative: f.relative,
    });
  }
  return out;
}
