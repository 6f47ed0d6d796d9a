/**
 * Integers across Bolt. neo4j-driver packs every JS `number` as a PackStream Float (neo4j.com/docs/bolt/current/
 * packstream/), while Memgraph needs Integers for ids, LIMIT and BFS bounds (a Float id never equals an Integer id,
 * and a Float depth is a runtime error), so every integer this adapter sends goes through {@link boltInt}. Integers
 * come back as the driver's 64-bit `Integer` (lossless mode); {@link toSafeNumber} turns them into numbers only
 * when that is exact.
 */
import neo4j, { type Integer } from "neo4j-driver";
import { PegasError } from "../../errors.ts";

const INT64_MAX = 2n ** 63n - 1n;
const DECIMAL = /^-?(0|[1-9][0-9]{0,18})$/;

/**
 * A driver Integer (sent as a Bolt Integer) from a safe JS integer, a bigint or a decimal string (exact beyond
 * 2^53, e.g. "9007199254740993"). @throws PegasError INVALID_INPUT for anything else or outside signed 64 bits.
 */
export function boltInt(v: number | bigint | string, what = "integer"): Integer {
  if (typeof v === "number") {
    if (!Number.isSafeInteger(v))
      throw new PegasError("INVALID_INPUT", `${what} ${v} is not an integer within ±(2^53−1)`);
    return neo4j.int(v);
  }
  const s = typeof v === "bigint" ? v.toString() : v;
  if (typeof s !== "string" || !DECIMAL.test(s) || BigInt(s) > INT64_MAX || BigInt(s) < -INT64_MAX - 1n) {
    throw new PegasError("INVALID_INPUT", `${what} '${String(v)}' is not a 64-bit decimal integer`);
  }
  return neo4j.int(s);
}

/**
 * A JS number from what the driver returned: an Integer within ±(2^53−1) (else PegasError INDEX_UNAVAILABLE naming
 * `what` and the exact value: the projection holds a value the port cannot carry), a float, or a bigint.
 * @throws PegasError INDEX_UNAVAILABLE also for a value that is no number at all.
 */
export function toSafeNumber(v: unknown, what: string): number {
  if (typeof v === "number") return v;
  if (neo4j.isInt(v)) {
    const i = v as Integer;
    if (i.inSafeRange()) return i.toNumber();
    throw outOfRange(what, i.toString());
  }
  if (typeof v === "bigint") {
    if (v <= BigInt(Number.MAX_SAFE_INTEGER) && v >= BigInt(Number.MIN_SAFE_INTEGER)) return Number(v);
    throw outOfRange(what, v.toString());
  }
  throw new PegasError(
    "INDEX_UNAVAILABLE",
    `Memgraph returned ${what} = ${JSON.stringify(v) ?? String(v)}, not a number`,
    {
      hint: "the projection does not hold what this adapter wrote; rebuild it (pegas-memory rebuild)",
    },
  );
}

function outOfRange(what: string, exact: string): PegasError {
  return new PegasError(
    "INDEX_UNAVAILABLE",
    `Memgraph returned ${what} = ${exact}, beyond the exact range of a number (±(2^53−1))`,
    {
      hint: "ids this large cannot come from the canonical store; rebuild the Memgraph projection (pegas-memory rebuild)",
    },
  );
}
