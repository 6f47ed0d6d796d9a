/** How memory_get writes an atom's times (src/mcp/render.ts): at their precision, a range by first and last. */
import { describe, expect, test } from "bun:test";
import { eventLabel, observedLabel } from "../../src/mcp/render.ts";

const ev = (start: string, end: string, granularity: string) => ({
  start: `${start}T00:00:00.000Z`,
  end: `${end}T00:00:00.000Z`,
  granularity,
});

describe("event and observation labels", () => {
  test("one day, month, year and week at their precision", () => {
    expect(eventLabel(ev("2024-03-05", "2024-03-06", "day"))).toBe("2024-03-05");
    expect(eventLabel(ev("2024-03-01", "2024-04-01", "month"))).toBe("2024-03");
    expect(eventLabel(ev("2024-01-01", "2025-01-01", "year"))).toBe("2024");
    expect(eventLabel(ev("2024-03-04", "2024-03-11", "week"))).toBe("week of 2024-03-04");
  });

  test("a weekend and a season by their first and last day or month; an instant to the minute", () => {
    expect(eventLabel(ev("2024-03-09", "2024-03-11", "day"))).toBe("2024-03-09..2024-03-10");
    expect(eventLabel(ev("2023-12-01", "2024-03-01", "month"))).toBe("2023-12..2024-02");
    const at = "2024-03-05T14:30:00.000Z";
    expect(eventLabel({ start: at, end: at, granularity: "instant" })).toBe("2024-03-05 14:30Z");
  });

  test("an observation shows its time of day only when it has one", () => {
    expect(observedLabel("2024-01-15T00:00:00.000Z")).toBe("2024-01-15");
    expect(observedLabel("2023-05-08T13:56:00.000Z")).toBe("2023-05-08 13:56Z");
  });
});
