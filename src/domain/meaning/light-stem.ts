/**
 * A light suffix stripper for English and Russian, used only to COMPARE two statements ("reduces" vs "does not
 * reduce", "Москва" vs "в Москве", "есть книга" vs "нет книги"), never to index or search. It is a crude
 * relative of Porter's English stemmer (Porter, 1980) and of the Snowball Russian stemmer's ending lists
 * (snowballstem.org): one inflectional ending is removed, then a final vowel, always leaving at least three letters.
 */

const RU_ENDINGS = [
  "остями",
  "остью",
  "остей",
  "остям",
  "остях",
  "ость",
  "ости",
  "ться",
  "тся",
  "ами",
  "ями",
  "ого",
  "его",
  "ому",
  "ему",
  "ыми",
  "ими",
  "ешь",
  "ишь",
  "ает",
  "яет",
  "ают",
  "яют",
  "ует",
  "уют",
  "ала",
  "яла",
  "ила",
  "ела",
  "али",
  "яли",
  "или",
  "ели",
  "ать",
  "ять",
  "ить",
  "еть",
  "ся",
  "сь",
  "ых",
  "их",
  "ую",
  "юю",
  "ой",
  "ей",
  "ий",
  "ый",
  "ая",
  "яя",
  "ое",
  "ее",
  "ые",
  "ие",
  "ом",
  "ем",
  "ам",
  "ям",
  "ах",
  "ях",
  "ов",
  "ев",
  "ью",
  "ут",
  "ют",
  "ат",
  "ят",
  "ит",
  "ет",
  "ал",
  "ял",
  "ил",
  "ел",
  "ть",
  "а",
  "я",
  "о",
  "е",
  "ы",
  "и",
  "у",
  "ю",
  "ь",
  "й",
];
/** The endings by length, longest first: one Set lookup per length instead of a scan of the list. */
const RU_BY_LENGTH: Array<[number, ReadonlySet<string>]> = [...new Set(RU_ENDINGS.map((e) => e.length))]
  .sort((x, y) => y - x)
  .map((n) => [n, new Set(RU_ENDINGS.filter((e) => e.length === n))]);
const RU_FINAL = /[аяоеыиуюьй]$/u;

function stemRussian(w: string): string {
  let s = w;
  for (const [n, endings] of RU_BY_LENGTH) {
    if (s.length - n >= 3 && endings.has(s.slice(-n))) {
      s = s.slice(0, -n);
      break;
    }
  }
  if (s.length > 3 && RU_FINAL.test(s)) s = s.slice(0, -1);
  return s;
}

function stemEnglish(w: string): string {
  let s = w.replace(/['’]s?$/u, "");
  if (s.length <= 3) return s;
  if (s.endsWith("ies") && s.length > 4) s = `${s.slice(0, -3)}y`;
  else if (/(?:ss|x|z|ch|sh)es$/u.test(s)) s = s.slice(0, -2);
  else if (s.endsWith("s") && !/(?:ss|us|is)$/u.test(s)) s = s.slice(0, -1);
  else if (s.endsWith("ed") && s.length > 4) s = s.slice(0, -2);
  else if (s.endsWith("ing") && s.length > 5) s = s.slice(0, -3);
  if (/([b-df-hj-np-tv-z])\1$/u.test(s) && !/(?:ll|ss|zz)$/u.test(s)) s = s.slice(0, -1);
  if (s.endsWith("e") && s.length > 3) s = s.slice(0, -1);
  return s;
}

/**
 * The light stem of one lower-case word (see module doc): "reduces"/"reduced"/"reduce" → "reduc", "stopped" →
 * "stop", "Mozilla's" → "mozilla", "москве"/"москва" → "москв", "андрея"/"андрей" → "андр". Words of three letters
 * or fewer, and words with ASCII digits, are returned unchanged.
 */
export function lightStem(w: string): string {
  if (w.length <= 3 || /\d/.test(w)) return w;
  const c = w.charCodeAt(w.length - 1); // the ending decides the script: Cyrillic block U+0400–U+04FF
  return c >= 0x400 && c <= 0x4ff ? stemRussian(w) : stemEnglish(w);
}
