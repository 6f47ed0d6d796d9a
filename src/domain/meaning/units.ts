/**
 * Units of measure as statements write them (English and Russian spellings in every case form, and symbols), mapped
 * to one canonical unit each, so that "5 km" and "5 километров" read alike. Pure data.
 */
import { forms } from "./lexicon.ts";

/** Russian masculine noun in every case and number ("километр" → "километра", "километрах", …). */
const ruM = (stem: string) => forms(stem, ["", "а", "у", "ом", "е", "ы", "ов", "ам", "ами", "ах"]);
/** Russian feminine noun in -а/-я ("верста" → "версты", "верст", "верстах", …); `soft` for -я nouns. */
const ruF = (stem: string, soft = false) =>
  forms(
    stem,
    soft ? ["я", "и", "е", "ю", "ей", "ь", "ям", "ями", "ях"] : ["а", "ы", "е", "у", "ой", "", "ам", "ами", "ах"],
  );

/** Canonical unit → spellings (after a number; symbols stand before or after it). */
const UNIT_SPELLINGS: Record<string, string[]> = {
  µg: ["µg", "μg", "mcg", "microgram", "micrograms", "мкг"],
  mg: ["mg", "milligram", "milligrams", "мг", ...ruM("миллиграмм")],
  g: ["g", "gram", "grams", "gramme", "grammes", "г", "гр", ...ruM("грамм")],
  kg: ["kg", "kilogram", "kilograms", "kilo", "kilos", "кг", ...ruM("килограмм")],
  t: ["t", "ton", "tons", "tonne", "tonnes", "т", ...ruF("тонн")],
  lb: ["lb", "lbs", "pound", "pounds", ...ruM("фунт")],
  oz: ["oz", "ounce", "ounces", ...ruF("унци", true), "унций"],
  nm: ["nm", "nanometer", "nanometers", "нм"],
  µm: ["µm", "μm", "micrometer", "micrometers", "micron", "microns", "мкм"],
  mm: ["mm", "millimeter", "millimeters", "millimetre", "millimetres", "мм", ...ruM("миллиметр")],
  cm: ["cm", "centimeter", "centimeters", "centimetre", "centimetres", "см", ...ruM("сантиметр")],
  m: ["m", "meter", "meters", "metre", "metres", "м", ...ruM("метр")],
  km: ["km", "kilometer", "kilometers", "kilometre", "kilometres", "км", ...ruM("километр")],
  mile: ["mi", "mile", "miles", ...ruF("мил", true)],
  ft: ["ft", "foot", "feet", ...ruM("фут")],
  inch: ["inch", "inches", ...ruM("дюйм")],
  yd: ["yd", "yard", "yards", ...ruM("ярд")],
  verst: ["verst", "versts", ...ruF("верст")],
  arshin: ["arshin", "arshins", ...ruM("аршин")],
  ml: ["ml", "milliliter", "milliliters", "millilitre", "millilitres", "мл"],
  l: ["l", "liter", "liters", "litre", "litres", "л", ...ruM("литр")],
  ms: ["ms", "millisecond", "milliseconds", "мс"],
  s: ["s", "sec", "second", "seconds", "с", "сек", ...ruF("секунд")],
  min: ["min", "minute", "minutes", "мин", ...ruF("минут")],
  h: ["h", "hr", "hrs", "hour", "hours", "ч", ...ruM("час")],
  day: ["day", "days", "день", "дня", "дней", "сутки", "суток"],
  week: ["week", "weeks", ...ruF("недел", true)],
  month: [
    "month",
    "months",
    "месяц",
    "месяца",
    "месяцу",
    "месяцем",
    "месяце",
    "месяцы",
    "месяцев",
    "месяцам",
    "месяцами",
    "месяцах",
  ],
  year: ["year", "years", "yr", "yrs", "год", "года", "году", "лет", "гг"],
  "%": ["%", "percent", ...ruM("процент")],
  "°": ["°", "degree", "degrees", ...ruM("градус")],
  byte: ["byte", "bytes", ...ruM("байт")],
  bit: ["bit", "bits", ...ruM("бит")],
  kb: ["kb", "kib", "kilobyte", "kilobytes", "кб", "кбайт", ...ruM("килобайт")],
  mb: ["mb", "mib", "megabyte", "megabytes", "мб", "мбайт", ...ruM("мегабайт")],
  gb: ["gb", "gib", "gigabyte", "gigabytes", "гб", "гбайт", ...ruM("гигабайт")],
  tb: ["tb", "tib", "terabyte", "terabytes", "тб", ...ruM("терабайт")],
  hz: ["hz", "гц"],
  khz: ["khz", "кгц"],
  mhz: ["mhz", "мгц"],
  ghz: ["ghz", "ггц"],
  w: ["w", "watt", "watts", "вт"],
  kw: ["kw", "квт"],
  mw: ["mw", "мвт"],
  kcal: ["kcal", "ккал"],
  j: ["j", "joule", "joules", "дж"],
  kj: ["kj", "кдж"],
  pa: ["pa", "па"],
  kpa: ["kpa", "кпа"],
  mpa: ["mpa", "мпа"],
  db: ["db", "дб"],
  $: ["$", "dollar", "dollars", "usd", ...ruM("доллар")],
  "€": ["€", "euro", "euros", "eur", "евро"],
  "£": ["£", "gbp"],
  rub: [
    "₽",
    "rub",
    "ruble",
    "rubles",
    "rouble",
    "roubles",
    "руб",
    "рубль",
    "рубля",
    "рублю",
    "рублем",
    "рубле",
    "рубли",
    "рублей",
    "рублям",
    "рублями",
    "рублях",
  ],
  kopeck: ["kopeck", "kopecks", ...ruF("копейк"), "копеек"],
  yen: ["yen", ...ruF("иен")],
  sen: ["sen"],
  mat: ["mat", "mats"],
  koku: ["koku"],
};

/** Spelling (lower case) → canonical unit, e.g. "килограммов" → "kg", "miles" → "mile". */
export const UNITS: ReadonlyMap<string, string> = (() => {
  const m = new Map<string, string>();
  for (const [unit, spellings] of Object.entries(UNIT_SPELLINGS)) for (const s of spellings) m.set(s, unit);
  return m;
})();

/** Symbols written before a number ("$163", "€5"): the number's unit. */
export const PREFIX_UNITS: ReadonlySet<string> = new Set(["$", "€", "£", "₽"]);
