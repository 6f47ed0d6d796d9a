/** The export's value codec: JSON numbers that JavaScript would change are refused; numbers keep their exact text. */
import { describe, expect, test } from "bun:test";
import { checkedJson, columnKind, decodeValue, numberValue } from "../../src/adapters/sql/export/codec.ts";

describe("export codec", () => {
  test("JSON numbers JavaScript carries exactly pass, in PostgreSQL's spelling too", () => {
    expect(checkedJson('{"a": [0.1, -2, 1000000000000000000000, 0.0000001], "b": "1.50 in a string"}', "t.c")).toEqual({
      a: [0.1, -2, 1e21, 1e-7],
      b: "1.50 in a string",
    });
  });

  test("JSON numbers JavaScript would change are refused, naming the value", () => {
    expect(() => checkedJson('{"a": 1.50}', "pm_x.meta")).toThrow(
      "cannot export pm_x.meta: its JSON number 1.50 would not survive",
    );
    expect(() => checkedJson("[12345678901234567890]", "pm_x.meta")).toThrow("12345678901234567890");
    expect(() => checkedJson("[0.1000000000000000055511151231257827]", "pm_x.meta")).toThrow("would not survive");
  });

  test("numbers become JSON numbers only when they print back as the same text", () => {
    expect([numberValue("42"), numberValue("0.7"), numberValue("1e+21")]).toEqual([42, 0.7, 1e21]);
    expect([
      numberValue("9007199254740993"),
      numberValue("-0"),
      numberValue("NaN"),
      numberValue("Infinity"),
      numberValue("1.50"),
    ]).toEqual(["9007199254740993", "-0", "NaN", "Infinity", "1.50"]);
  });

  test("bytea decodes from strict base64 only; unknown types are refused", () => {
    const row: Record<string, unknown> = { v: "AP8Q" };
    expect(decodeValue(row, "v", "bytea")).toBeNull();
    expect(row.v).toBe("\\x00ff10");
    expect(decodeValue({ v: "not base64!" }, "v", "bytea")).toContain("base64");
    expect(() => columnKind("pm_t", { name: "p", type: "point", typname: "point", generated: false })).toThrow(
      "no exact encoding",
    );
    expect(columnKind("pm_t", { name: "g", type: "integer", typname: "int4", generated: true })).toBe("skip");
  });
});
