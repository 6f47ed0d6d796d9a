/**
 * Weekdays and seasons relative to when a text was said (src/domain/time relative.ts, rules.ts, tense.ts), English
 * and Russian: "last/next/this Tuesday" and a bare "on Friday" / «в пятницу» directed by the tense of its sentence;
 * meteorological northern seasons (winter named by its January), "last/this/next summer", «прошлой зимой», «весной
 * 2023 года»; what is never dated (a habit "on Fridays", «по пятницам», a bare «летом», "his last summer").
 */
import { describe, expect, test } from "bun:test";
import { seasonEvent } from "../../src/domain/time/rules.ts";
import { eventTimeOf } from "../../src/domain/time/extract.ts";
import { sentenceTense } from "../../src/domain/time/tense.ts";

const WED = new Date("2024-03-06T10:00:00Z");
const read = (text: string, ref = WED) => {
  const e = eventTimeOf(text, ref);
  return e ? `${e.start.slice(0, 10)}..${e.end.slice(0, 10)} ${e.granularity}` : null;
};

describe("weekdays", () => {
  test("last, next, this and this past: strictly before, strictly after, in the ISO week", () => {
    expect(read("I saw her last Wednesday.")).toBe("2024-02-28..2024-02-29 day");
    expect(read("See you next Wednesday.")).toBe("2024-03-13..2024-03-14 day");
    expect(read("this Sunday we rest")).toBe("2024-03-10..2024-03-11 day");
    expect(read("This past Monday it rained.")).toBe("2024-03-04..2024-03-05 day");
    expect(read("В прошлую среду был дождь.")).toBe("2024-02-28..2024-02-29 day");
  });

  test("a bare weekday points back in the past tense and ahead in the future or present", () => {
    expect(read("On Friday I went to the lake.")).toBe("2024-03-01..2024-03-02 day");
    expect(read("I will call you on Friday.")).toBe("2024-03-08..2024-03-09 day");
    expect(read("The party is on Friday.")).toBe("2024-03-08..2024-03-09 day");
    expect(read("I'm so excited about the gig on Friday!")).toBe("2024-03-08..2024-03-09 day");
    expect(read("В пятницу мы ходили в кино.")).toBe("2024-03-01..2024-03-02 day");
    expect(read("В пятницу у нас концерт.")).toBe("2024-03-08..2024-03-09 day");
    expect(read("Во вторник пойду к врачу.")).toBe("2024-03-12..2024-03-13 day");
  });

  test("the tense of a sentence", () => {
    expect(sentenceTense("We will meet")).toBe("future");
    expect(sentenceTense("We met and talked")).toBe("past");
    expect(sentenceTense("The show is great")).toBe("present");
    expect(sentenceTense("Мы были рады")).toBe("past");
    expect(sentenceTense("Мы будем рады")).toBe("future");
    expect(sentenceTense("Мы рады или нет")).toBe("present");
  });

  test("a habit or another sense is no day", () => {
    for (const s of ["He swims on Fridays.", "По пятницам он ходит в баню.", "Рыбу выпустили в среду обитания."])
      expect({ s, got: read(s) }).toEqual({ s, got: null });
  });
});

describe("seasons", () => {
  test("meteorological, northern; a winter is named by the year of its January", () => {
    expect(seasonEvent(2023, 0)).toMatchObject({ start: "2023-03-01T00:00:00.000Z", end: "2023-06-01T00:00:00.000Z" });
    expect(seasonEvent(2024, 3)).toMatchObject({ start: "2023-12-01T00:00:00.000Z", end: "2024-03-01T00:00:00.000Z" });
    expect(read("Весной 2023 года он переехал.")).toBe("2023-03-01..2023-06-01 month");
    expect(read("He moved in the summer of 2019.")).toBe("2019-06-01..2019-09-01 month");
    expect(read("Зимой 2024 года было мало снега.")).toBe("2023-12-01..2024-03-01 month");
    expect(read("Осенью 2021-го она уехала.")).toBe("2021-09-01..2021-12-01 month");
  });

  test("last is over by the day, next starts after it, this holds it or leans by tense", () => {
    const jul = new Date("2023-07-10T00:00:00Z");
    const oct = new Date("2023-10-10T00:00:00Z");
    expect(read("last summer", jul)).toBe("2022-06-01..2022-09-01 month");
    expect(read("last summer", oct)).toBe("2023-06-01..2023-09-01 month");
    expect(read("It snowed a lot last winter.")).toBe("2023-12-01..2024-03-01 month");
    expect(read("next spring")).toBe("2025-03-01..2025-06-01 month");
    expect(read("this summer", jul)).toBe("2023-06-01..2023-09-01 month");
    expect(read("We hope to visit Kyoto this summer.", oct)).toBe("2024-06-01..2024-09-01 month");
    expect(read("This summer was hot.", oct)).toBe("2023-06-01..2023-09-01 month");
    expect(read("Прошлой зимой было холодно.")).toBe("2023-12-01..2024-03-01 month");
    expect(read("Этим летом поедем на море.")).toBe("2024-06-01..2024-09-01 month");
    expect(read("прошлым летом")).toBe("2023-06-01..2023-09-01 month");
  });

  test("a bare season, a final summer or a fall from a roof is no date; nothing relative without a reference", () => {
    for (const s of [
      "Летом здесь много туристов.",
      "In winter it snows.",
      "his last summer at home",
      "the last fall from the roof",
    ])
      expect({ s, got: read(s) }).toEqual({ s, got: null });
    expect(eventTimeOf("last summer")).toBeNull();
  });
});
