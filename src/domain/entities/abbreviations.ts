/**
 * Abbreviations a text defines for common terms: "head-down tilt bed rest (HDBR)", "non-communicable diseases
 * (NCDs)", «центральная нервная система (ЦНС)». Such an acronym stands for lower-case words, so it names no entity,
 * here or anywhere else in the text; one whose long form is capitalised ("European Space Agency (ESA)") is a name
 * and is left alone. The long form is found as Schwartz and Hearst do ("A simple algorithm for identifying
 * abbreviation definitions in biomedical text", PSB 2003): the acronym's letters are matched right to left inside
 * the words before the parenthesis, the first letter at a word's start. Pure.
 */

/** "(HDBR)", "(NCDs, 2011)", "(AMR; …)": an acronym opening a parenthesis, capitals with an optional plural "s". */
const DEFINED = /\(\s*(\p{Lu}[\p{Lu}\d-]*\p{Lu}s?)\s*[,;)]/gu;

/** The long form of `acronym` ending right before `end` in `text`, or null (Schwartz–Hearst matching). */
function longForm(text: string, end: number, acronym: string): string | null {
  const letters = acronym
    .replace(/s$/u, "")
    .toLowerCase()
    .replace(/[^\p{L}\d]/gu, "");
  const words = text
    .slice(Math.max(0, end - 200), end)
    .trimEnd()
    .split(/\s+/u);
  const span = words.slice(-Math.min(letters.length + 5, letters.length * 2)).join(" ");
  const lower = span.toLowerCase();
  let li = letters.length - 1;
  let si = lower.length - 1;
  while (li >= 0) {
    const c = letters[li];
    // The first letter must open a word; the others may stand anywhere to the left of the last match.
    while (si >= 0 && (lower[si] !== c || (li === 0 && si > 0 && /[\p{L}\d]/u.test(lower[si - 1])))) si--;
    if (si < 0) return null;
    li--;
    si--;
  }
  const start = lower.lastIndexOf(" ", si + 1) + 1;
  return span.slice(start);
}

/**
 * The acronyms (without a plural "s") that `text` defines for lower-case terms: each defined in parentheses after a
 * long form whose letters spell it and that has no capital letter.
 */
export function commonAbbreviations(text: string): ReadonlySet<string> {
  const out = new Set<string>();
  for (const m of text.matchAll(DEFINED)) {
    const form = longForm(text, m.index ?? 0, m[1]);
    if (form && !/\p{Lu}/u.test(form) && /\p{L}{3}/u.test(form)) out.add(m[1].replace(/s$/u, ""));
  }
  return out;
}

/** True when `surface` (a found mention) is one of `abbreviations` or its plural ("HLMs" for "HLM"). */
export function isCommonAbbreviation(surface: string, abbreviations: ReadonlySet<string>): boolean {
  return abbreviations.size > 0 && (abbreviations.has(surface) || abbreviations.has(surface.replace(/s$/u, "")));
}
