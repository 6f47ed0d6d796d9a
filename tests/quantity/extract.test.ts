/**
 * The measurement reader of issue 24 (src/domain/quantity): number forms (English and Russian separators, words,
 * halves, scale words), units and their normalisation (MB and MiB apart, °F, rates), ranges, spreads, precision,
 * what is no measurement (counts, years, times of day), and subjects with conditions.
 */
import { describe, expect, test } from "bun:test";
import { extractQuantities, type Quantity } from "../../src/domain/quantity/extract.ts";
import { readDigits } from "../../src/domain/quantity/numbers.ts";

const lang = (s: string) => (/\p{Script=Cyrillic}/u.test(s) ? "ru" : "en");
const one = (s: string): Quantity => {
  const qs = extractQuantities(s, lang(s));
  expect(qs.length).toBe(1);
  return qs[0];
};
const canon = (s: string) => {
  const q = one(s);
  return [q.canonicalLow, q.canonicalHigh, q.canonicalUnit];
};

describe("numbers", () => {
  test("digits in both conventions, exponents, signs, and a lone comma by language", () => {
    expect(readDigits("1 200,5", "ru")?.value).toBe(1200.5);
    expect(readDigits("1\u00a0200,5", "ru")?.value).toBe(1200.5);
    expect(readDigits("1,200.5", "en")?.value).toBe(1200.5);
    expect(readDigits("1.200,5", "en")?.value).toBe(1200.5);
    expect(readDigits("1.2e3", "en")?.value).toBe(1200);
    expect(readDigits("−0.45", "en")?.value).toBe(-0.45);
    expect(readDigits("1,200", "en")?.value).toBe(1200);
    expect(readDigits("1,200", "ru")?.value).toBe(1.2);
    expect(readDigits("2,5", "en")?.value).toBe(2.5);
    expect(readDigits("1.2.3", "en")).toBeNull();
  });

  test("significant digits and the place of the last digit", () => {
    expect(readDigits("1.20", "en")).toEqual({ value: 1.2, sigDigits: 3, lastPlace: 0.01 });
    expect(readDigits("1200", "en")).toEqual({ value: 1200, sigDigits: 2, lastPlace: 100 });
    expect(readDigits("0.05", "en")?.sigDigits).toBe(1);
  });

  test("words, halves and scale words", () => {
    expect(canon("two thousand yen")).toEqual([2000, 2000, "JPY"]);
    expect(canon("twenty-four hours")).toEqual([86400, 86400, "s"]);
    expect(canon("Прошло полтора часа.")).toEqual([5400, 5400, "s"]);
    expect(canon("Он ждал полчаса.")).toEqual([1800, 1800, "s"]);
    expect(canon("we wrestled for half a day")).toEqual([43200, 43200, "s"]);
    expect(canon("one sen and a half")).toEqual([0.015, 0.015, "JPY"]);
    expect(canon("выручка 2,5 млн руб.")).toEqual([2500000, 2500000, "RUB"]);
    expect(extractQuantities("Revenue Up 33% To $163M", "en").map((q) => q.canonicalLow)).toEqual([33, 163e6]);
    expect(canon("за тридцать два рубля")).toEqual([32, 32, "RUB"]);
    expect(canon("в тридцати верстах от города")).toEqual([32004, 32004, "m"]);
  });
});

describe("units", () => {
  test("time, frequency, length and speed normalise to s, Hz, m and m/s", () => {
    expect(canon("задержка 120 мс")).toEqual([0.12, 0.12, "s"]);
    expect(canon("ответ за 3 с")).toEqual([3, 3, "s"]);
    expect(canon("latency 120 ms")).toEqual([0.12, 0.12, "s"]);
    expect(canon("частота 3,2 ГГц")).toEqual([3.2e9, 3.2e9, "Hz"]);
    expect(canon("a 2.4 GHz core")).toEqual([2.4e9, 2.4e9, "Hz"]);
    expect(canon("at 90 km/h")).toEqual([25, 25, "m/s"]);
    expect(canon("скорость 90 км/ч")).toEqual([25, 25, "m/s"]);
  });

  test("MB (10^6) and MiB (2^20) are kept apart, in Russian too", () => {
    expect(canon("a 512 MB heap")).toEqual([512e6, 512e6, "B"]);
    expect(canon("a 512 MiB heap")).toEqual([512 * 2 ** 20, 512 * 2 ** 20, "B"]);
    expect(canon("память 512 Мбайт")).toEqual([512e6, 512e6, "B"]);
    expect(canon("диск 2 МБ")).toEqual([2e6, 2e6, "B"]);
    expect(canon("just 87 bytes")).toEqual([87, 87, "B"]);
  });

  test("temperature with offsets, percentages, currencies kept", () => {
    expect(canon("при 25 °C")).toEqual([25, 25, "°C"]);
    const f = one("it reached 77 °F");
    expect(f.canonicalLow).toBeCloseTo(25, 9);
    expect(canon("точность не хуже 1%")).toEqual([1, 1, "%"]);
    expect(canon("costs 40 dollars")).toEqual([40, 40, "USD"]);
    expect(canon("стоит 500 рублей")).toEqual([500, 500, "RUB"]);
  });

  test("rates keep both units", () => {
    const q = one("a teacher for forty yen a month");
    expect([q.unit, q.canonicalUnit, q.dimension]).toEqual(["JPY/mo", "JPY/s", "currency/time"]);
    expect(one("получал шестьдесят-семьдесят рублей в месяц").unit).toBe("RUB/mo");
    expect(one("выдавать триста рублей ежегодно").unit).toBe("RUB/yr");
    expect(one("delays of 1.3 to 4.0 min/day").canonicalUnit).toBe("s/s");
  });
});

describe("ranges, spreads and precision", () => {
  test("ranges written with dashes, to, or, between … and, от … до, and Russian words", () => {
    expect(canon("approximately 10-11% of usage")).toEqual([10, 11, "%"]);
    expect(canon("between 16 and 26 Hz")).toEqual([16, 26, "Hz"]);
    expect(canon("a boy about 13 or 14 years old")).toEqual([13 * 31557600, 14 * 31557600, "s"]);
    expect(canon("в пределах от -5% до +5%")).toEqual([-5, 5, "%"]);
    expect(canon("шестьдесят-семьдесят рублей")).toEqual([60, 70, "RUB"]);
    expect(canon("проживет лишних пять, десять лет")).toEqual([5 * 31557600, 10 * 31557600, "s"]);
  });

  test("two values sharing a unit, compound durations, and a Russian unit before its number", () => {
    expect(extractQuantities("studies of 60 and 90 days", "en").map((q) => q.canonicalLow)).toEqual([
      60 * 86400,
      90 * 86400,
    ]);
    expect(canon("a period of 24 h and 11 min")).toEqual([87060, 87060, "s"]);
    const q = one("помешавшийся лет двадцать назад");
    expect([q.canonicalLow, q.precision.approximate]).toEqual([20 * 31557600, true]);
  });

  test("a written ± is the precision; else half the last digit; hedges mark approximation", () => {
    const q = one("age: 30.5 ± 7.5 years");
    expect(q.low).toBe(30.5);
    expect(q.precision.plusMinus).toBeCloseTo(7.5 * 31557600, 3);
    expect(one("takes 1.2 s").precision).toEqual({ sigDigits: 2, plusMinus: 0.05, approximate: false });
    expect(one("about 0.7 h").precision.approximate).toBe(true);
    expect(one("около 5 км").precision.approximate).toBe(true);
  });
});

describe("what is no measurement", () => {
  test("counts, years, ordinals and times of day", () => {
    expect(extractQuantities("sixteen healthy men, n = 5, in 1998, the first hour class", "en")).toEqual([]);
    expect(extractQuantities("I had to wait alone until three o'clock.", "en")).toEqual([]);
    expect(extractQuantities("Вставал он в восемь часов и пил чай.", "ru")).toEqual([]);
    expect(extractQuantities("Бьет четыре часа, потом пять.", "ru")).toEqual([]);
    expect(extractQuantities("Всех их здесь пять человек, приехал в 2024 г.", "ru")).toEqual([]);
    expect(extractQuantities("the 3A1-rRTA immunotoxin and HDBR49", "en")).toEqual([]);
    expect(extractQuantities("кончив в 1863 году курс, в отчетном году двенадцать тысяч человек", "ru")).toEqual([]);
    expect(extractQuantities("Мир, 1980, 280 с. и четыре конвойных с ружьями", "ru")).toEqual([]);
    expect(extractQuantities("миллионы лет без смысла; ни одной минуты; millions of years", "ru")).toEqual([]);
    expect(extractQuantities("изо дня в день одного и того же; Расстояние,м 545,49", "ru")).toEqual([]);
  });

  test("a decade is no duration, in English and Russian", () => {
    for (const s of ["In the 1980s the firm grew.", "the 1990s", "the '80s", "in the mid-1990s", "in their 30s"])
      expect(extractQuantities(s, "en")).toEqual([]);
    expect(extractQuantities("during the 1970s and 1980s, the 80s and 90s", "en")).toEqual([]);
    for (const s of ["в 1980-х годах", "в 1980-х", "80-е годы", "в 1990-е годы", "в 90-х гг."])
      expect(extractQuantities(s, "ru")).toEqual([]);
    // A glued "s" after a duration word or a non-round number stays seconds.
    expect(canon("it took 30s")).toEqual([30, 30, "s"]);
    expect(canon("a timeout of 1800s")).toEqual([1800, 1800, "s"]);
    expect(canon("ran for 1985s")).toEqual([1985, 1985, "s"]);
  });

  test("«с.» after a number: seconds by its context, pages in a reference", () => {
    expect(canon("Время отклика составляет 2 с.")).toEqual([2, 2, "s"]);
    expect(canon("Время отклика сервера составляет в среднем 2 с. Это много.")).toEqual([2, 2, "s"]);
    expect(canon("Запуск занимает 1,5 с.")).toEqual([1.5, 1.5, "s"]);
    expect(canon("Сеанс длится 40 с.")).toEqual([40, 40, "s"]);
    expect(canon("Ответ пришёл через 3 с.")).toEqual([3, 3, "s"]);
    expect(extractQuantities("Иванов И. И. История. — М.: Наука, 2001. — 213 с.", "ru")).toEqual([]);
    expect(extractQuantities("Петров П. П. Очерки. М., 1999. 45 с.; Там же. С. 12–15.", "ru")).toEqual([]);
  });
});

describe("subject and conditions", () => {
  test("the phrase before the number, a duration's 'of X', and phrases of setting", () => {
    expect(one("CTR showed a phase delay of 0.69 h.").subject).toContain("phase delay");
    expect(one("after 60 days of bed rest").subject).toBe("bed rest");
    expect(one("cold start: 1200 ms").subject).toBe("cold start");
    const arm = one("Cold start on the ARM board takes 2 s");
    expect([arm.subject, arm.conditions]).toEqual(["Cold start", ["on the ARM board"]]);
    const ru = one("Время запуска на сервере составило 150 мс.");
    expect([ru.subject, ru.conditions]).toEqual(["Время запуска", ["на сервере"]]);
    expect(one("При этом точность определения местоположения составила не хуже 1%.").subject).toContain("точность");
  });

  test("technical claims: verbs of measuring are no subject, settings are conditions", () => {
    const idx = one("The index uses 512 MiB of RAM with 8 threads.");
    expect([idx.subject, idx.conditions]).toEqual(["index", ["with 8 threads"]]);
    const lat = one("Median search latency is 12 ms at 100k atoms.");
    expect([lat.subject, lat.conditions]).toEqual(["Median search latency", ["at 100k atoms"]]);
    const p99 = one("p99 latency rose to 35 ms under load");
    expect([p99.subject, p99.conditions]).toEqual(["p99 latency", ["under load"]]);
    const ru = one("Поиск занимает около 20 мс при 10 000 атомов.");
    expect([ru.subject, ru.conditions, ru.precision.approximate]).toEqual(["Поиск", ["при 10 000 атомов"], true]);
  });

  test("clause patterns: an abbreviation, a bracketed share, an event before or after, a role", () => {
    const subjects = (s: string) => extractQuantities(s, lang(s)).map((q) => q.subject);
    expect(subjects("after 2 weeks (W2) and after 6 weeks (W6) of training")).toEqual(["W2", "W6"]);
    expect(one("only 12 of 40 (30%) builds failed").subject).toContain("builds");
    expect(one("The limit (512 MB) applies.").subject).toBe("limit");
    expect(one("The page loaded 2 s after the click.").subject).toBe("click");
    expect(one("It happened two days previous to his departure for Kyushu.").subject).toBe("departure");
    expect(one("Через два года после запуска сервис упал.").subject).toBe("запуска");
    expect(one("За пять минут до первого взрыва все ушли.").subject).toBe("первого взрыва");
    // "after" opening a clause names no event: the reading falls back to the words before the number.
    expect(one("Exercise was performed three to eight hours after CBT reached its minimum.").subject).toContain(
      "Exercise",
    );
    // Not when the number is the value of what stands before it, nor a statistic's abbreviation.
    expect(one("We saw a delay of 2 h after waking.").subject).toContain("delay");
    expect(one("Задержка составила 2 часа после запуска.").subject).toBe("Задержка");
    expect(one("Sleep lasted 7 h (SD) on average.").subject).toBe("Sleep");
    expect(one("He used 2 GB as cache.").subject).toBe("cache");
    expect(one("Выделили триста рублей в качестве пособия на ремонт.").subject).toBe("пособия");
  });

  test("a relative clause and the pronoun 'it' / «оно» stand for their antecedent", () => {
    expect(one("The cache, which held 2 GB, was flushed.").subject).toContain("cache");
    expect(one("Задержка, которая держится уже 200 мс, мешает.").subject).toContain("Задержка");
    expect(one("The build was slow; it took 40 min.").subject).toBe("build");
    expect(one("The HLM on UHC cannot yet be evaluated, as it was held just 1 year before the end.").subject).toBe(
      "HLM",
    );
    expect(one("Проект был заморожен; оно стоило 5 млн руб.").subject).toBe("Проект");
    // A clause with its own subject after "which" keeps it.
    expect(one("It uses POSIX, which means that the file will not be 100% portable.").subject).toContain("file");
  });

  test("coordinated measurements share their subject; a 'for N' duration measures the event", () => {
    const subjects = (s: string) => extractQuantities(s, lang(s)).map((q) => q.subject);
    expect(subjects("a phase delay of 0.5 h for CTR and 0.7 h for RE")).toEqual(["phase delay", "phase delay"]);
    expect(subjects("after 3 days and 9 days of rest")).toEqual(["rest", "rest"]);
    expect(subjects("Задержка 5 мс для чтения и 7 мс для записи.")).toEqual(["Задержка", "Задержка"]);
    expect(one("I lived, after the death of mother, in this fashion for five or six years.").subject).toBe("I lived");
    expect(one("Stick this note up in the teachers' room for three days.").subject).toContain("note");
    expect(one("Он жил в Москве в течение пяти лет.").subject).toContain("жил");
    expect(one("Dividing the 600 yen into three parts was easy.").subject).toBe("Dividing");
    expect(one("Circadian misalignment occurs on about 20% of days.").subject).toContain("misalignment");
    expect(one("On being told that the middle school was about four miles away, I left.").subject).toBe(
      "middle school",
    );
    expect(one("Сервер весит 12 кг.").subject).toBe("Сервер");
    const share = extractQuantities("The proportion of novel drugs affected by a late safety event was 30.8%.", "en");
    expect(share.map((q) => q.subject)).toEqual(["proportion of novel drugs"]);
    expect(one("Доля новых лекарств, отозванных после проверки, составила 12%.").subject).toBe("Доля новых лекарств");
    expect(one("The delay, measured twice, was 5 ms.").subject).toBe("delay");
    // A passive change is a copula; a passive of recording is not ("was recorded for 24 h" names the recording).
    expect(one("The sphere of action was limited to about two feet square.").subject).toBe("sphere of action");
    expect(one("Время отклика было снижено до 5 мс.").subject).toBe("Время отклика");
    expect(one("Core body temperature was recorded for 24 h.").subject).toContain("recorded");
  });

  test("a hyphenated amount is attributive; 'ago' names nothing, so a sentence's opening number reads after it", () => {
    expect(one("All folk are tight, and one 5-yen bill would hit them square.").subject).toBe("bill");
    expect(one("Parameters were fitted using 24-h core body temperature recordings.").subject).toBe(
      "core body temperature recordings",
    );
    expect(one("Two years ago, I went to the Imperial Hotel on an errand.").subject).toContain("went");
    expect(one("For forty years, he produced and distributed eBooks.").subject).toContain("produced");
    expect(one("Пять лет спустя, сервер упал.").subject).toBe("сервер упал");
    // The words after a number stop at the next number.
    const s = "The prevalence was 19.1% (95% CI, 18.1% to 20.0%): 16.9% in men and 20.5% in women.";
    expect(
      extractQuantities(s, "en")
        .map((q) => q.subject)
        .slice(-2),
    ).toEqual(["men", "men"]);
    // Cardinal number words name nothing; ordinals do.
    expect(one("I've paid five yen up to to-day.").subject).toBe("I've paid");
    expect(one("Двадцать пять человек ждали 3 часа.").subject).toBe("человек ждали");
    expect(one("The third dose took 3 h.").subject).toBe("third dose");
    const subjects = (s: string) => extractQuantities(s, lang(s)).map((q) => q.subject);
    // A share right before a noun is attributive ("12% protein", «32,9 % населения»), not before a comparative.
    expect(subjects("a diet containing 12% protein, a 93% chance")).toEqual(["protein", "chance"]);
    expect(one("Prices were 5% higher.").subject).toBe("Prices");
    expect(one("Так как 32,9 % населения не проголосовало.").subject).toBe("населения");
    expect(one("Доля расходов составила 5% бюджета.").subject).toBe("Доля расходов");
    expect(one("It uses 10E8, which neutralizes ∼98% of tested viruses.").subject).toBe("tested viruses");
    expect(subjects("80 % of females and 70 % of male partners")).toEqual(["females", "male partners"]);
  });

  test("the quote is the measurement's text", () => {
    const s = "Revenue grew by 2,5 млн руб. in 2011";
    const q = extractQuantities(s, "ru")[0];
    expect(s.slice(q.start, q.end)).toBe(q.quote);
    expect(q.quote).toBe("2,5 млн руб.");
  });
});
