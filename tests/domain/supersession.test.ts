/** domain/supersession: which statement replaces which, English and Russian, and what replaces nothing. */
import { describe, expect, test } from "bun:test";
import { readClaims } from "../../src/domain/supersession/claim.ts";
import { decideSupersession, mayReplace } from "../../src/domain/supersession/decide.ts";
import { explicitTime, timeOf } from "../../src/domain/supersession/time.ts";
import { loadCases } from "../supersession/case-set.ts";

const at = (text: string, observedAt: string, eventAt?: string) => ({ text, observedAt, eventAt });

describe("decideSupersession", () => {
  test("the issue's scenario: a newer employer supersedes, an added consulting job does not", () => {
    const acme = at("Alice works at Acme", "2024-01");
    expect(decideSupersession(acme, at("Alice now works at Globex", "2025-03")).outcome).toBe("b_supersedes_a");
    expect(decideSupersession(acme, at("Alice also consults for Initech", "2025-04")).outcome).toBe("none");
    expect(decideSupersession(acme, at("Alice also works at Initech", "2025-04")).outcome).toBe("none");
  });

  test("Russian: «теперь работает в», «переехал в», «стал», «сменил»; «также» supersedes nothing", () => {
    const cases: Array<[string, string]> = [
      ["Алиса работает в Acme.", "Алиса теперь работает в Globex."],
      ["Андрей живёт в Казани.", "Андрей переехал в Москву."],
      ["Мария работает учителем в школе.", "Мария стала директором школы."],
      ["Иван работает в Яндексе.", "Иван сменил работу."],
    ];
    for (const [a, b] of cases)
      expect(decideSupersession(at(a, "2020-01-01"), at(b, "2024-01-01")).outcome).toBe("b_supersedes_a");
    expect(
      decideSupersession(at("Алиса работает в Acme.", "2020-01"), at("Алиса также работает в Initech.", "2024-01"))
        .outcome,
    ).toBe("none");
  });

  test("an old event reported later is superseded by the newer statement, not the other way round", () => {
    const now = at("Alice works at Globex.", "2025-03-10");
    expect(decideSupersession(now, at("In 2019 Alice worked at Acme.", "2025-05-01")).outcome).toBe("a_supersedes_b");
    expect(decideSupersession(now, at("Alice worked at Acme.", "2025-05-01", "2019-01-01")).outcome).toBe(
      "a_supersedes_b",
    );
    expect(decideSupersession(now, at("Alice used to work at Acme.", "2025-05-01")).outcome).toBe("none");
  });

  test("another subject, a negation, the same value, a pronoun, equal or unknown times supersede nothing", () => {
    const a = at("Alice works at Acme.", "2024-01-01");
    for (const b of [
      at("Bob now works at Globex.", "2025-01-01"),
      at("Alice does not work at Globex.", "2025-01-01"),
      at("Alice works at Acme as a designer.", "2025-01-01"),
      at("Alice now works at Globex.", "2024-01-01"),
      { text: "Alice now works at Globex." },
    ])
      expect(decideSupersession(a, b).outcome).toBe("none");
    expect(decideSupersession(at("She works at Acme", "2024"), at("She now works at Globex", "2025")).outcome).toBe(
      "none",
    );
  });

  test("a new holder of an office supersedes the old one", () => {
    const v = decideSupersession(
      at("Erik is the CEO of Northwind.", "2020"),
      at("Fiona is now the CEO of Northwind.", "2024"),
    );
    expect(v).toMatchObject({ outcome: "b_supersedes_a", property: "office" });
  });

  test("every labelled case of the tune half is decided as labelled", () => {
    const expected = { supersede: "b_supersedes_a", reverse: "a_supersedes_b", none: "none" } as const;
    for (const c of loadCases().filter((x) => x.half === "tune")) {
      const got = decideSupersession(
        at(c.a.text, c.a.observed_at, c.a.event_at),
        at(c.b.text, c.b.observed_at, c.b.event_at),
      ).outcome;
      expect(`${c.a.text} → ${c.b.text}: ${got}`).toBe(`${c.a.text} → ${c.b.text}: ${expected[c.label]}`);
    }
  });
});

describe("claims and times", () => {
  test("a statement without a property gives no claim; mayReplace ignores times", () => {
    expect(readClaims("The sky is blue and wide.")).toEqual([]);
    expect(mayReplace("Alice works at Acme", "Alice now works at Globex")).toBe(true);
    expect(mayReplace("Alice works at Acme", "Alice also consults for Initech")).toBe(false);
  });

  test("a dialogue line's «I» is its named speaker: two speakers are two subjects", () => {
    const john = at("John: I joined a service-focused online group last week.", "2023-01-01");
    const maria = at("Maria: Hey John! I joined a gym last week!", "2023-02-01");
    expect(decideSupersession(john, maria).outcome).toBe("none");
    expect(readClaims("Gina: I lost my job at Door Dash.")[0]).toMatchObject({ subject: ["gina"], ended: true });
    const a = at("Gina: I work at Door Dash.", "2022-12-01");
    expect(decideSupersession(a, at("Gina: I now work at Etsy.", "2023-06-01")).outcome).toBe("b_supersedes_a");
  });

  test("ISO dates and explicit years", () => {
    expect(timeOf("2024-06")).toBe(Date.UTC(2024, 5, 1));
    expect(timeOf("2024-06-01T10:00:00+02:00")).toBe(Date.UTC(2024, 5, 1, 8));
    expect(timeOf("June 2024")).toBeNull();
    expect(explicitTime("Андрей с марта 2020 года живёт в Москве")).toBe(Date.UTC(2020, 2, 1));
    expect(explicitTime("Since 2015 Bob lives in Boston")).toBe(Date.UTC(2015, 0, 1));
  });
});
