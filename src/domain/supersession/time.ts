/**
 * Times for supersession: an ISO 8601 date or date-time ("2024", "2024-06", "2024-06-01", "2024-06-01T10:00Z") as
 * milliseconds since the epoch (UTC; a partial date is its first instant), and the first explicit year a statement
 * dates itself by ("in 2019", "since March 2020", «в 2019 году», «с марта 2020 года»). Pure; never throws.
 */

const ISO = /^(\d{4})(?:-(\d{2})(?:-(\d{2})(T.*)?)?)?$/u;

/** Milliseconds of an ISO 8601 date or date-time (UTC when no zone is given), or null when it is not one. */
export function timeOf(iso: string | null | undefined): number | null {
  if (!iso) return null;
  const m = ISO.exec(iso.trim());
  if (!m) return null;
  const [, y, mo, d, rest] = m;
  if (rest) {
    const zoned = /(?:Z|[+-]\d{2}:?\d{2})$/u.test(rest) ? iso : `${iso}Z`;
    const t = Date.parse(zoned);
    return Number.isNaN(t) ? null : t;
  }
  const month = mo ? Number(mo) : 1;
  const day = d ? Number(d) : 1;
  if (month < 1 || month > 12 || day < 1 || day > 31) return null;
  return Date.UTC(Number(y), month - 1, day);
}

const MONTHS_EN = [
  "january",
  "february",
  "march",
  "april",
  "may",
  "june",
  "july",
  "august",
  "september",
  "october",
  "november",
  "december",
];
const MONTHS_RU = [
  "январ",
  "феврал",
  "март",
  "апрел",
  "ма",
  "июн",
  "июл",
  "август",
  "сентябр",
  "октябр",
  "ноябр",
  "декабр",
];

const DATED =
  /(?<![\p{L}\p{N}])(?:in|since|from|as of|by|on|в|с|со|на)\s+(?:([\p{L}]+)\s+)?(1[89]\d\d|20\d\d)(?![\p{N}])/iu;

function monthOf(word: string | undefined): number {
  if (!word) return 1;
  const w = word.toLowerCase();
  const en = MONTHS_EN.indexOf(w);
  if (en >= 0) return en + 1;
  // «мая»/«май» only: "ма" alone would take «марта» and every word starting so.
  const ru = MONTHS_RU.map((m, i) => ({ m, i })).find(({ m }) => (m === "ма" ? /^ма[йяе]$/u.test(w) : w.startsWith(m)));
  return ru ? ru.i + 1 : 1;
}

/** The first explicit date of a statement as milliseconds (a year, with its month when named), or null. */
export function explicitTime(text: string): number | null {
  const m = DATED.exec(text.replaceAll("ё", "е"));
  if (!m) return null;
  return Date.UTC(Number(m[2]), monthOf(m[1]) - 1, 1);
}
