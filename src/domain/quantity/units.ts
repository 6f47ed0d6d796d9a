/**
 * Units of measurement, English and Russian, each with its dimension and its factor to the dimension's canonical
 * unit: time → s, data → B (decimal MB = 10^6 B and binary MiB = 2^20 B kept apart), frequency → Hz, length → m,
 * area → m2, volume → m3, mass → kg, temperature → °C (°F and K by their offsets), angle → deg, percentage → %,
 * money → its currency (JPY, RUB, USD, EUR, GBP; sub-units such as sen and копейка are hundredths; currencies are
 * never converted into each other). Calendar units are conventional: a month is 30.4375 days, a year 365.25 days.
 * Old Russian lengths are the imperial ones: верста 1066.8 m, сажень 2.1336 m, аршин 0.7112 m. Pure.
 */

/** What a unit measures. */
export type Dimension =
  | "time"
  | "data"
  | "frequency"
  | "length"
  | "area"
  | "volume"
  | "mass"
  | "temperature"
  | "angle"
  | "percentage"
  | "currency";

/** One unit: its symbol, dimension, and `canonical = value × factor + offset` in the dimension's canonical unit. */
export interface UnitDef {
  symbol: string;
  dimension: Dimension;
  /** The canonical unit: "s", "B", "Hz", "m", "m2", "m3", "kg", "°C", "deg", "%", or a currency code. */
  canonical: string;
  factor: number;
  offset: number;
  /** Written forms matched case-insensitively (words, Russian case forms). */
  forms: string[];
  /** Written forms matched exactly (symbols whose case matters: MB, Mb, m, M). */
  exact: string[];
}

const D = 86400;
const CANON: Record<Dimension, string> = {
  time: "s",
  data: "B",
  frequency: "Hz",
  length: "m",
  area: "m2",
  volume: "m3",
  mass: "kg",
  temperature: "°C",
  angle: "deg",
  percentage: "%",
  currency: "",
};

/** [symbol, dimension, factor, exact forms, case-insensitive forms, offset?, currency code?]. */
type Row = [string, Dimension, number, string, string, number?, string?];

const ROWS: Row[] = [
  ["ns", "time", 1e-9, "ns нс", "nanosecond nanoseconds наносекунда наносекунды наносекунд"],
  ["µs", "time", 1e-6, "µs μs us мкс", "microsecond microseconds микросекунда микросекунды микросекунд"],
  ["ms", "time", 1e-3, "ms мс", "msec millisecond milliseconds миллисекунда миллисекунды миллисекунд миллисекунду"],
  ["s", "time", 1, "s с", "sec secs second seconds сек секунда секунды секунд секунду секундах"],
  ["min", "time", 60, "", "min mins minute minutes мин минута минуты минут минуту минутах минутам"],
  ["h", "time", 3600, "h ч", "hr hrs hour hours час часа часов часу часам часах"],
  ["d", "time", D, "d", "day days дн день дня дней дням днях сутки суток сутках"],
  ["wk", "time", 7 * D, "", "wk week weeks неделя недели недель неделю неделям неделях"],
  ["mo", "time", 30.4375 * D, "", "month months мес месяц месяца месяцев месяцам месяцах"],
  ["yr", "time", 365.25 * D, "", "yr yrs year years год года году лет годам годах годы годов"],
  ["B", "data", 1, "B Б", "byte bytes байт байта байтов байтах"],
  ["kB", "data", 1e3, "kB KB кБ КБ", "кбайт кбайта килобайт килобайта килобайтов kilobyte kilobytes"],
  ["MB", "data", 1e6, "MB МБ Мб", "мбайт мбайта мегабайт мегабайта мегабайтов megabyte megabytes"],
  ["GB", "data", 1e9, "GB ГБ Гб", "гбайт гбайта гигабайт гигабайта гигабайтов gigabyte gigabytes"],
  ["TB", "data", 1e12, "TB ТБ Тб", "тбайт терабайт терабайта терабайтов terabyte terabytes"],
  ["KiB", "data", 2 ** 10, "KiB КиБ", "kibibyte kibibytes кибибайт"],
  ["MiB", "data", 2 ** 20, "MiB МиБ", "mebibyte mebibytes мебибайт"],
  ["GiB", "data", 2 ** 30, "GiB ГиБ", "gibibyte gibibytes гибибайт"],
  ["TiB", "data", 2 ** 40, "TiB ТиБ", "tebibyte tebibytes тебибайт"],
  ["Hz", "frequency", 1, "Hz Гц", "hertz герц"],
  ["kHz", "frequency", 1e3, "kHz кГц", "kilohertz килогерц"],
  ["MHz", "frequency", 1e6, "MHz МГц", "megahertz мегагерц"],
  ["GHz", "frequency", 1e9, "GHz ГГц", "gigahertz гигагерц"],
  ["nm", "length", 1e-9, "nm нм", "nanometre nanometres nanometer nanometers нанометр нанометра нанометров"],
  ["µm", "length", 1e-6, "µm μm мкм", "micrometre micrometres micrometer micrometers микрометр микрон микрона"],
  ["mm", "length", 1e-3, "mm мм", "millimetre millimetres millimeter millimeters миллиметр миллиметра миллиметров"],
  ["cm", "length", 1e-2, "cm см", "centimetre centimetres centimeter centimeters сантиметр сантиметра сантиметров"],
  ["m", "length", 1, "m м", "metre metres meter meters метр метра метров метрах"],
  ["km", "length", 1e3, "km км", "kilometre kilometres kilometer kilometers километр километра километров"],
  ["in", "length", 0.0254, "", "inch inches дюйм дюйма дюймов"],
  ["ft", "length", 0.3048, "ft", "foot feet фут фута футов"],
  ["mi", "length", 1609.344, "", "mile miles миля мили миль милях"],
  ["verst", "length", 1066.8, "", "верста версты версте версту верст вёрст верстах верстам верстами"],
  ["sazhen", "length", 2.1336, "", "сажень сажени саженей саженях саженям саженью"],
  ["arshin", "length", 0.7112, "", "аршин аршина аршинах аршинам"],
  ["m2", "area", 1, "m2 m² м2 м²", "square metre square metres square meters кв. м"],
  ["ft2", "area", 0.09290304, "ft2 ft²", "square feet square foot sq ft"],
  ["km2", "area", 1e6, "km2 km² км2 км²", "square kilometres square kilometers кв. км"],
  ["mL", "volume", 1e-6, "mL ml мл", "millilitre millilitres milliliter milliliters миллилитр миллилитров"],
  ["L", "volume", 1e-3, "L л", "litre litres liter liters литр литра литров"],
  ["µL", "volume", 1e-9, "µL μL µl μl мкл", "microlitre microlitres microliter microliters"],
  ["ng", "mass", 1e-12, "ng нг", "nanogram nanograms нанограмм"],
  ["µg", "mass", 1e-9, "µg μg мкг", "microgram micrograms микрограмм"],
  ["mg", "mass", 1e-6, "mg мг", "milligram milligrams миллиграмм миллиграмма миллиграммов"],
  ["g", "mass", 1e-3, "g г", "gram grams gramme grammes грамм грамма граммов"],
  ["kg", "mass", 1, "kg кг", "kilogram kilograms kilogramme килограмм килограмма килограммов"],
  ["t", "mass", 1000, "", "tonne tonnes тонна тонны тонн"],
  ["lb", "mass", 0.45359237, "lb lbs", "pound pounds фунт фунта фунтов"],
  ["pud", "mass", 16.3804964, "", "пуд пуда пудов пудах"],
  ["°C", "temperature", 1, "°C ℃ °С", "degrees celsius degree celsius градусов цельсия градуса цельсия"],
  ["°F", "temperature", 5 / 9, "°F ℉", "degrees fahrenheit degree fahrenheit", -160 / 9],
  ["K", "temperature", 1, "K", "kelvin kelvins кельвин кельвинов", -273.15],
  ["deg", "angle", 1, "°", "degree degrees градус градуса градусов градусах"],
  ["%", "percentage", 1, "% ％", "percent per cent процент процента процентов процентах проц."],
  ["USD", "currency", 1, "USD", "dollar dollars доллар доллара долларов", 0, "USD"],
  ["cent", "currency", 0.01, "", "cent cents цент цента центов", 0, "USD"],
  ["EUR", "currency", 1, "EUR", "euro euros евро", 0, "EUR"],
  ["GBP", "currency", 1, "GBP", "pounds sterling фунтов стерлингов", 0, "GBP"],
  ["RUB", "currency", 1, "RUB ₽", "руб. руб рубль рубля рублей рублю рублям рублями рублях", 0, "RUB"],
  ["kop", "currency", 0.01, "", "коп. копейка копейки копеек копейку копейкам копеечку копеечки", 0, "RUB"],
  ["JPY", "currency", 1, "JPY", "yen иена иены иен", 0, "JPY"],
  ["sen", "currency", 0.01, "", "sen", 0, "JPY"],
];

/** Every unit. */
export const UNITS: readonly UnitDef[] = ROWS.map(([symbol, dimension, factor, exact, forms, offset, code]) => ({
  symbol,
  dimension,
  canonical: code ?? CANON[dimension],
  factor,
  offset: offset ?? 0,
  exact: exact ? exact.split(" ") : [],
  forms: forms ? splitForms(forms) : [],
}));

/** Space-separated forms, keeping the two-word ones ("square feet", "degrees celsius", «кв. м») together. */
function splitForms(s: string): string[] {
  const out: string[] = [];
  for (const w of s.split(" ")) {
    const prev = out[out.length - 1];
    if (prev && /^(square|sq|degrees?|pounds|кв\.|градусов|градуса|фунтов|per)$/.test(prev))
      out[out.length - 1] += ` ${w}`;
    else out.push(w);
  }
  return out;
}

const BY_SYMBOL = new Map(UNITS.map((u) => [u.symbol, u]));

/** The unit of a symbol ("ms", "MiB", "verst", "JPY"); undefined when there is none. */
export function unitBySymbol(symbol: string): UnitDef | undefined {
  return BY_SYMBOL.get(symbol);
}

/** Every written form with its unit, longest first (so "MHz" is tried before "m", "минут" before "мин"). */
const FORMS: Array<{ form: string; exact: boolean; unit: UnitDef }> = UNITS.flatMap((u) => [
  ...u.exact.map((form) => ({ form, exact: true, unit: u })),
  ...u.forms.map((form) => ({ form: form.toLowerCase(), exact: false, unit: u })),
]).sort((a, b) => b.form.length - a.form.length);

/**
 * The unit written at `at` in `text` (exactly there: the caller skips the space), with the end of its form; the
 * form must end at a non-letter ("5 ms" but not "5 msg"; «5 с» but not «5 сек» read as «с»). null when none.
 */
export function unitAt(text: string, at: number): { unit: UnitDef; end: number } | null {
  const head = text.slice(at, at + 24);
  const lower = head.toLowerCase();
  for (const f of FORMS) {
    const hit = f.exact ? head.startsWith(f.form) : lower.startsWith(f.form);
    if (!hit) continue;
    const next = head.charAt(f.form.length);
    // A digit may follow: PDF text glues reference numbers to the unit ("11 min27").
    if (/[\p{L}]/u.test(next) && !f.form.endsWith(".")) continue;
    return { unit: f.unit, end: at + f.form.length };
  }
  return null;
}

/** `value` (in `unit`) in the canonical unit of its dimension. */
export function toCanonical(value: number, unit: UnitDef): number {
  return value * unit.factor + unit.offset;
}
