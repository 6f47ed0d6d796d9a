/**
 * The Bolt stand-in itself: PackStream markers byte for byte (Integer 8/16/32/64 with the tiny range, Float 64,
 * string/list/map sizes, structures), message chunking, and version negotiation with what neo4j-driver 6 proposes
 * (plain proposals, handshake manifest v1, an older version only, none in common).
 */
import { describe, expect, test } from "bun:test";
import { MemgraphGraph } from "../../src/adapters/memgraph/graph.ts";
import { BoltStandin, type BoltStandinOptions } from "../support/bolt-standin.ts";
import { rejectsWith } from "../support/errors.ts";
import {
  chunkMessage,
  Dechunker,
  float,
  int,
  PackReader,
  PackWriter,
  shapeOf,
  struct,
  toJs,
} from "../support/packstream.ts";

const hex = (v: unknown) => Buffer.from(new PackWriter().write(v).finish()).toString("hex");
const back = (v: unknown) => new PackReader(new PackWriter().write(v).finish()).read();

describe("PackStream", () => {
  test("integers take the smallest marker; 64-bit values survive exactly", () => {
    const cases: [bigint, string][] = [
      [0n, "00"],
      [127n, "7f"],
      [-16n, "f0"],
      [-17n, "c8ef"],
      [-128n, "c880"],
      [128n, "c90080"],
      [-129n, "c9ff7f"],
      [32767n, "c97fff"],
      [32768n, "ca00008000"],
      [-(2n ** 31n), "ca80000000"],
      [2n ** 31n, "cb0000000080000000"],
      [9007199254740993n, "cb0020000000000001"],
      [2n ** 63n - 1n, "cb7fffffffffffffff"],
      [-(2n ** 63n), "cb8000000000000000"],
    ];
    for (const [v, h] of cases) {
      expect(hex(int(v))).toBe(h);
      expect(back(int(v))).toEqual(int(v));
    }
    expect(() => int(2n ** 63n)).toThrow(RangeError);
  });

  test("floats, booleans, null, bytes", () => {
    expect(hex(float(1))).toBe("c13ff0000000000000");
    expect(hex(1.5)).toBe("c13ff8000000000000");
    expect(shapeOf(back(float(1)))).toBe("Float");
    expect([hex(true), hex(false), hex(null)]).toEqual(["c3", "c2", "c0"]);
    expect(hex(Uint8Array.of(1, 2))).toBe("cc020102");
    expect(toJs(back(Uint8Array.of(1, 2)))).toEqual(Uint8Array.of(1, 2));
  });

  test("string, list and map sizes: tiny, 8, 16 and 32 bit; UTF-8 strings", () => {
    expect(hex("")).toBe("80");
    expect(hex("a".repeat(15)).slice(0, 2)).toBe("8f");
    expect(hex("a".repeat(16)).slice(0, 4)).toBe("d010");
    expect(hex("a".repeat(256)).slice(0, 6)).toBe("d10100");
    expect(hex("a".repeat(65536)).slice(0, 10)).toBe("d200010000");
    expect(toJs(back("Дом 𝔸"))).toBe("Дом 𝔸");
    expect(hex([1, 2])).toBe("920102");
    expect(hex(new Array(16).fill(0)).slice(0, 4)).toBe("d410");
    expect(hex(new Array(300).fill(0)).slice(0, 6)).toBe("d5012c");
    expect(hex({ a: 1 })).toBe("a1816101");
    const big = Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`k${i}`, i]));
    expect(hex(big).slice(0, 4)).toBe("d814");
    expect(toJs(back(big))).toEqual(Object.fromEntries(Object.entries(big).map(([k, v]) => [k, BigInt(v)])));
  });

  test("structures and type shapes, recursively", () => {
    expect(hex(struct(0x4e, [1, ["L"], {}]))).toBe("b34e0191814ca0");
    const v = back({ rows: [{ id: int(5), c: 0.5, tags: ["x", null], ok: true }] });
    expect(shapeOf(v)).toEqual({ rows: [{ id: "Integer", c: "Float", tags: ["String", "Null"], ok: "Boolean" }] });
  });

  test("bad input: unknown marker, truncated value, non-string map key", () => {
    expect(() => new PackReader(Uint8Array.of(0xc4)).read()).toThrow(/unknown PackStream marker 0xc4/);
    expect(() => new PackReader(Uint8Array.of(0xcb, 0, 1)).read()).toThrow(/truncated/);
    expect(() => new PackReader(Uint8Array.of(0xa1, 0x01, 0x01)).read()).toThrow(/map key is a Integer/);
  });

  test("chunking: split deliveries, NOOP chunks, messages over 65 535 bytes", () => {
    const small = Uint8Array.of(0xb0, 0x0f);
    const large = new PackWriter().write("x".repeat(70_000)).finish();
    const wire = Uint8Array.from([0, 0, ...chunkMessage(small), ...chunkMessage(large)]);
    const d = new Dechunker();
    const got: Uint8Array[] = [];
    for (let at = 0; at < wire.length; at += 1000) got.push(...d.push(wire.subarray(at, at + 1000)));
    expect(got.map((m) => m.length)).toEqual([2, large.length]);
    expect(toJs(new PackReader(got[1]).read())).toBe("x".repeat(70_000));
  });
});

describe("handshake with neo4j-driver 6", () => {
  const countsVia = async (opts: BoltStandinOptions) => {
    const s = await BoltStandin.start({
      ...opts,
      script: [{ match: /UNION ALL/, rows: [{ entity: "atom", count: 2 }] }],
    });
    const g = new MemgraphGraph({ url: s.url, timeoutMs: 3_000 });
    try {
      return { counts: await g.counts(), s };
    } finally {
      await g.close();
      await s.stop();
    }
  };

  test("plain proposals: Bolt 5.2 (Memgraph's highest), HELLO then LOGON", async () => {
    const { counts, s } = await countsVia({});
    expect(counts.atom).toBe(2);
    expect(new Set(s.negotiated)).toEqual(new Set(["5.2"]));
    const names = s.messages.map((m) => m.name);
    expect(names.slice(0, 2)).toEqual(["HELLO", "LOGON"]);
    expect(s.messages[0].fields[0]).toMatchObject({ user_agent: expect.stringMatching(/^pegas-memory\//) });
  });

  test("handshake manifest v1: the driver picks from the listed versions", async () => {
    const { counts, s } = await countsVia({ manifest: true, versions: ["5.2", "5.1"] });
    expect(counts.atom).toBe(2);
    expect(new Set(s.negotiated)).toEqual(new Set(["5.2"]));
  });

  test("Bolt 4.4 only: credentials in HELLO, no LOGON", async () => {
    const { counts, s } = await countsVia({ versions: ["4.4"] });
    expect(counts.atom).toBe(2);
    expect(new Set(s.negotiated)).toEqual(new Set(["4.4"]));
    expect(s.messages.map((m) => m.name)).not.toContain("LOGON");
    expect(s.messages[0].fields[0]).toMatchObject({ scheme: "basic" });
  });

  test("no version in common: INDEX_UNAVAILABLE", async () => {
    const s = await BoltStandin.start({ versions: ["9.9"] });
    const g = new MemgraphGraph({ url: s.url, timeoutMs: 3_000 });
    try {
      await rejectsWith(g.counts(), "INDEX_UNAVAILABLE");
    } finally {
      await g.close();
      await s.stop();
    }
  });
});
