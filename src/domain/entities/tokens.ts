/**
 * Word tokens of a text for the mention extractor, each with its UTF-16 span, whether it opens a sentence (where a
 * capital says nothing about a name) and whether it stands in a heading. Pure.
 */

/** One word of a text: `start`/`end` are UTF-16 offsets, `lower` is lower case with ё as е. */
export interface Token {
  start: number;
  end: number;
  text: string;
  lower: string;
  /** Starts with an upper-case letter. */
  cap: boolean;
  /** Two or more letters, all upper case ("NASA", "ООО"). */
  allCaps: boolean;
  /** Opens a sentence, a line, a quotation or a dialogue turn: its capital may be grammar, not a name. */
  sentStart: boolean;
  /** Stands in a heading (a short title-case or all-capitals line without a full stop). */
  heading: boolean;
  /** A single capital letter followed by a dot: an initial ("J.", «А.»). */
  initial: boolean;
}

// Letters and digits; an apostrophe, hyphen or dot between two of them stays inside ("O'Brien", "Node.js").
const WORD = /[\p{L}\p{N}](?:[\p{L}\p{M}\p{N}]|['’\-.](?=[\p{L}\p{N}]))*/gu;
const ABBREVIATIONS = new Set([
  "mr",
  "mrs",
  "ms",
  "dr",
  "prof",
  "st",
  "jr",
  "sr",
  "vs",
  "no",
  "gen",
  "col",
  "capt",
  "lt",
  // Russian: «пр. Карла Маркса», «ул. Ленина», «акад. Лаврентьева», «им. Пушкина», «проф. Иванов».
  "пр",
  "ул",
  "акад",
  "им",
  "проф",
  "доц",
  "св",
  "кн",
  "тов",
  "пер",
  "пл",
  "обл",
]);
const OPEN_QUOTES = /["“«„'‘]\s*$/u;

/** Lines that read as headings: short, no closing punctuation, every longer word capitalised. */
function headingLines(text: string): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  let pos = 0;
  for (const line of text.split("\n")) {
    const t = line.trim();
    const words = t.split(/\s+/u).filter((w) => /\p{L}/u.test(w));
    const long = words.filter((w) => w.replace(/[^\p{L}]/gu, "").length > 3);
    const titled = long.length > 0 && long.every((w) => /^\P{L}*\p{Lu}/u.test(w));
    const allUpper = /\p{L}/u.test(t) && t === t.toUpperCase() && words.length > 1;
    const closed = /[.!?,;:…"”»]$/u.test(t);
    if (words.length >= 2 && ((words.length <= 12 && !closed && titled) || allUpper))
      out.push([pos, pos + line.length]);
    pos += line.length + 1;
  }
  return out;
}

/**
 * Quotations in title case ("Long Live the Empire!"): a slogan or headline written like a heading, whose capitals say
 * no more than a heading's. The quotation marks are left out of the spans.
 */
function titledQuotes(text: string): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  for (const m of text.matchAll(/["“«]([^"“”«»\n]{3,120})["”»]/gu)) {
    const words = m[1].split(/\s+/u).filter((w) => /\p{L}/u.test(w));
    const long = words.filter((w) => w.replace(/[^\p{L}]/gu, "").length > 3);
    if (words.length >= 3 && long.length >= 2 && long.every((w) => /^\P{L}*\p{Lu}/u.test(w)))
      out.push([(m.index ?? 0) + 1, (m.index ?? 0) + 1 + m[1].length]);
  }
  return out;
}

/** True when the text between two words (and the word before) ends a sentence or opens a quotation or turn. */
function opensSentence(gap: string, prev: Token | undefined): boolean {
  if (!prev) return !/\p{L}/u.test(gap);
  if (gap.includes("\n")) return true;
  if (OPEN_QUOTES.test(gap)) return true;
  if (/[!?…:;]/u.test(gap)) return true;
  // "Bug 1681796 – Prevent superfluous …", "… Fission – Making Marionette …": a spaced dash before a capital opens a
  // clause (a title, an item, a reply); a capital there says no more than after a full stop.
  if (/\s[–—]\s+$/u.test(gap)) return true;
  if (/\.\s*$/u.test(gap) || /\.\s*["”»'’)\]]*\s+[-—–]?\s*$/u.test(gap)) {
    // "Mr. Smith", "J. R. R. Tolkien": the dot closes an abbreviation or an initial, not the sentence.
    return !(prev.initial || ABBREVIATIONS.has(prev.lower) || /^(?:\p{Lu}\.)*\p{Lu}$/u.test(prev.text));
  }
  return false;
}

/** The word tokens of `text`, in order. */
export function tokenize(text: string): Token[] {
  const heads = [...headingLines(text), ...titledQuotes(text)].sort((a, b) => a[0] - b[0]);
  const out: Token[] = [];
  let h = 0;
  for (const m of text.matchAll(WORD)) {
    const start = m.index ?? 0;
    const word = m[0];
    const end = start + word.length;
    while (h < heads.length && heads[h][1] < start) h++;
    const prev = out[out.length - 1];
    const gap = text.slice(prev ? prev.end : 0, start);
    const letters = word.replace(/[^\p{L}]/gu, "");
    out.push({
      start,
      end,
      text: word,
      lower: word.toLowerCase().replaceAll("ё", "е"),
      cap: /^\p{Lu}/u.test(word),
      allCaps: letters.length >= 2 && letters === letters.toUpperCase() && letters !== letters.toLowerCase(),
      sentStart: opensSentence(gap, prev),
      heading: h < heads.length && heads[h][0] <= start && end <= heads[h][1],
      initial: /^\p{Lu}$/u.test(word) && text[end] === ".",
    });
  }
  return out;
}
