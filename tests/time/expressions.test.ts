/**
 * The pure time rules (src/domain/time): strict ISO 8601 for arguments, lenient document dates (PDF, RFC 2822,
 * written), absolute dates in English and Russian in every case of the month name, relative ones against a
 * reference, and what must never be read as a date (a verb "may", a count "in 2000 ms", a relative phrase without a
 * reference). The labelled set measures coverage (date-set.test.ts); these pin the edges.
 */
import { describe, expect, test } from "bun:test";
import { parseIsoTime, periodOf } from "../../src/domain/time/atom-time.ts";
import { parseDocumentDate } from "../../src/domain/time/document-date.ts";
import { eventTimeOf, findTimeExpressions } from "../../src/domain/time/extract.ts";

const REF = new Date("2024-03-06T10:00:00Z"); // a Wednesday
const read = (text: string, ref?: Date) => {
  const e = eventTimeOf(text, ref);
  return e ? `${e.start.slice(0, 10)}..${e.end.slice(0, 10)} ${e.granularity}` : null;
};

describe("ISO 8601 arguments", () => {
  test("dates, months and date-times with and without a zone", () => {
    expect(parseIsoTime("2024-03-03")?.toISOString()).toBe("2024-03-03T00:00:00.000Z");
    expect(parseIsoTime("2024-03")?.toISOString()).toBe("2024-03-01T00:00:00.000Z");
    expect(parseIsoTime("2024-03-03T14:05")?.toISOString()).toBe("2024-03-03T14:05:00.000Z");
    expect(parseIsoTime("2024-03-03T14:05:06.5+03:00")?.toISOString()).toBe("2024-03-03T11:05:06.500Z");
    expect(parseIsoTime("2024-03-03 14:05:06Z")?.toISOString()).toBe("2024-03-03T14:05:06.000Z");
  });

  test("not a date: impossible days, other formats, words", () => {
    for (const s of ["2023-02-29", "2024-13-01", "2024-03-03T24:00", "03.03.2024", "yesterday", "", "2024-3-3"])
      expect({ s, at: parseIsoTime(s) }).toEqual({ s, at: null });
    expect(parseIsoTime("2024-02-29")?.toISOString()).toBe("2024-02-29T00:00:00.000Z");
  });

  test("a week is ISO (Monday first)", () => {
    expect(periodOf(REF, "week")).toEqual({
      start: "2024-03-04T00:00:00.000Z",
      end: "2024-03-11T00:00:00.000Z",
      granularity: "week",
    });
  });
});

describe("document dates", () => {
  test("PDF, ISO, RFC 2822, written and year-only dates", () => {
    expect(parseDocumentDate("D:20211217232817+05'30'")?.toISOString()).toBe("2021-12-17T17:58:17.000Z");
    expect(parseDocumentDate("D:2021")?.toISOString()).toBe("2021-01-01T00:00:00.000Z");
    expect(parseDocumentDate("2022-04-22T18:35:16+00:00")?.toISOString()).toBe("2022-04-22T18:35:16.000Z");
    expect(parseDocumentDate("Sun, 03 Mar 2024 10:00:00 GMT")?.toISOString()).toBe("2024-03-03T10:00:00.000Z");
    expect(parseDocumentDate("21 November 2019")?.toISOString()).toBe("2019-11-21T00:00:00.000Z");
    expect(parseDocumentDate("3 марта 2024 г.")?.toISOString()).toBe("2024-03-03T00:00:00.000Z");
    expect(parseDocumentDate("1998")?.toISOString()).toBe("1998-01-01T00:00:00.000Z");
    for (const s of ["unknown", "D:1600", "0000-00-00", "Monday"])
      expect({ s, d: parseDocumentDate(s) }).toEqual({ s, d: null });
  });
});

describe("absolute expressions", () => {
  test("English and Russian days, months and years, the month in any case", () => {
    expect(read("Born on March 3rd, 2024 in Oslo.")).toBe("2024-03-03..2024-03-04 day");
    expect(read("on the 3rd of March 2024")).toBe("2024-03-03..2024-03-04 day");
    expect(read("Paid on 03.03.2024.")).toBe("2024-03-03..2024-03-04 day");
    expect(read("Он приехал 3-го марта 2024 года.")).toBe("2024-03-03..2024-03-04 day");
    expect(read("Письмо от 1 мая 1999 г.")).toBe("1999-05-01..1999-05-02 day");
    expect(read("В мае 2020 года закрыли границы.")).toBe("2020-05-01..2020-06-01 month");
    expect(read("Сдали в декабре 2023.")).toBe("2023-12-01..2024-01-01 month");
    expect(read("Released in September 2021.")).toBe("2021-09-01..2021-10-01 month");
    expect(read("Флигель построен в 1998-м.")).toBe("1998-01-01..1999-01-01 year");
    expect(read("Since 1875 the town grew.")).toBe("1875-01-01..1876-01-01 year");
  });

  test("a yearless day or month needs the reference and takes the nearest year", () => {
    expect(read("on May 7")).toBeNull();
    expect(read("on May 7", REF)).toBe("2024-05-07..2024-05-08 day");
    expect(read("on October 7", REF)).toBe("2023-10-07..2023-10-08 day");
    expect(read("в марте", REF)).toBe("2024-03-01..2024-04-01 month");
    expect(read("in December", REF)).toBe("2023-12-01..2024-01-01 month");
  });

  test("never a date: verbs, counts, bare numbers", () => {
    for (const s of ["You may 3 times try.", "They march on.", "Timeout in 2000 ms.", "До 1500 человек.", "Room 1998."])
      expect({ s, found: findTimeExpressions(s, REF) }).toEqual({ s, found: [] });
  });
});

describe("relative expressions", () => {
  test("resolved against the reference, English and Russian", () => {
    expect(read("I saw him yesterday.", REF)).toBe("2024-03-05..2024-03-06 day");
    expect(read("last Wednesday", REF)).toBe("2024-02-28..2024-02-29 day");
    expect(read("next Monday", REF)).toBe("2024-03-11..2024-03-12 day");
    expect(read("last Fri", REF)).toBe("2024-03-01..2024-03-02 day");
    expect(read("three weeks ago", REF)).toBe("2024-02-12..2024-02-19 week");
    expect(read("in two days", REF)).toBe("2024-03-08..2024-03-09 day");
    expect(read("last weekend", REF)).toBe("2024-03-02..2024-03-04 day");
    expect(read("next year", REF)).toBe("2025-01-01..2026-01-01 year");
    expect(read("В прошлое воскресенье", REF)).toBe("2024-03-03..2024-03-04 day");
    expect(read("через две недели", REF)).toBe("2024-03-18..2024-03-25 week");
    expect(read("в позапрошлом году", REF)).toBe("2022-01-01..2023-01-01 year");
    expect(read("пару лет назад", REF)).toBe("2022-01-01..2023-01-01 year");
    expect(read("послезавтра", REF)).toBe("2024-03-08..2024-03-09 day");
  });

  test("without a reference nothing relative is dated; the day before yesterday is not yesterday", () => {
    expect(read("I saw him yesterday.")).toBeNull();
    expect(read("We left the day before yesterday.", REF)).toBe("2024-03-04..2024-03-05 day");
    expect(findTimeExpressions("вчера и в 1998 году").map((e) => e.text)).toEqual(["в 1998 году"]);
  });
});

describe("date ranges (ranges.ts)", () => {
  test("two dates joined as one period, English and Russian; a first part borrows the year or the month", () => {
    expect(read("What happened between August 11 and August 15, 2023?")).toBe("2023-08-11..2023-08-16 day");
    expect(read("She lived there from March 2022 to June 2023.")).toBe("2022-03-01..2023-07-01 month");
    expect(read("Отпуск длился с 11 по 15 августа 2023 года.")).toBe("2023-08-11..2023-08-16 day");
    expect(read("Работы шли от марта до мая 2024 года.")).toBe("2024-03-01..2024-06-01 month");
    expect(findTimeExpressions("between August 11 and August 15 2023")).toHaveLength(1);
  });

  test("two dates without a range word, a reversed range, or a clause as the first part stay apart", () => {
    expect(findTimeExpressions("I came on 3 March 2024 and left on 5 March 2024.")).toHaveLength(2);
    expect(findTimeExpressions("from June 2023 to March 2022")).toHaveLength(2);
    expect(read("from the meeting he called to June 2023")).toBe("2023-06-01..2023-07-01 month");
  });
});
