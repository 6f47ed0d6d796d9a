/**
 * Value encoding of `pegas-memory export` per PostgreSQL type: which SQL expression reads a column (so that both
 * backends hand back the same JSON text, whatever the driver would parse), how the JSON read is turned into the
 * exported value, and how an exported value is turned back into what jsonb_populate_recordset restores exactly.
 * A type missing here is refused loudly, never carried approximately.
 */
import { PegasError } from "../../../errors.ts";

/**
 * How a column travels: `skip` is recomputed by the target (a transaction stamp such as xid8, or a generated column);
 * `native` is the JSON PostgreSQL's row_to_json gives (small integers, booleans, strings, arrays of them); `number`
 * (bigint, real, double, numeric) goes as PostgreSQL's text and becomes a JSON number only when that number prints
 * back as the same text (so 2^53 + 1, -0, NaN, 1.50 stay strings); `json` is checked to survive JavaScript; `bytea` is
 * base64; `number[]` is an array of `number` values.
 */
export type ColumnKind = "skip" | "native" | "number" | "json" | "bytea" | "number[]";

const KINDS: Record<string, ColumnKind> = {
  xid8: "skip",
  xid: "skip",
  int2: "native",
  int4: "native",
  bool: "native",
  text: "native",
  varchar: "native",
  bpchar: "native",
  uuid: "native",
  tsvector: "native",
  date: "native",
  timestamptz: "native",
  timestamp: "native",
  int8: "number",
  float4: "number",
  float8: "number",
  numeric: "number",
  json: "json",
  jsonb: "json",
  bytea: "bytea",
  _int2: "native",
  _int4: "native",
  _bool: "native",
  _text: "native",
  _varchar: "native",
  _uuid: "native",
  _date: "native",
  _timestamptz: "native",
  _int8: "number[]",
  _float4: "number[]",
  _float8: "number[]",
  _numeric: "number[]",
};

/** A column as the catalog describes it (`typname` as in pg_type, `generated` true for a generated column). */
export interface ColumnInfo {
  name: string;
  type: string;
  typname: string;
  generated: boolean;
}

/**
 * How `col` of `table` travels. @throws PegasError INTERNAL for a type this build cannot carry exactly (a new
 * migration used it: teach KINDS the type, with a round-trip test).
 */
export function columnKind(table: string, col: ColumnInfo): ColumnKind {
  if (col.generated) return "skip";
  const kind = KINDS[col.typname];
  if (kind) return kind;
  throw new PegasError(
    "INTERNAL",
    `cannot export ${table}.${col.name}: its type '${col.type}' has no exact encoding in this build`,
    {
      hint: "report it: src/adapters/sql/export/codec.ts must learn the type before this store can be exported",
    },
  );
}

/** A double-quoted SQL identifier. */
export const ident = (name: string): string => `"${name.replaceAll('"', '""')}"`;

/** The SQL expression that reads column `name` of row alias `t` for the export (its JSON shape per kind). */
export function selectExpr(kind: ColumnKind, name: string): string {
  const c = `t.${ident(name)}`;
  switch (kind) {
    case "number":
    case "json":
      return `${c}::text`;
    case "number[]":
      return `${c}::text[]`;
    case "bytea":
      return `translate(encode(${c}, 'base64'), E'\\n', '')`;
    default:
      return c;
  }
}

/** A number's PostgreSQL text as a JSON number when that number prints back as the same text, else the text. */
export function numberValue(text: string): number | string {
  const n = Number(text);
  return Number.isFinite(n) && String(n) === text ? n : text;
}

/** Sign, significant digits and exponent of a decimal literal ("1.50" and "15e-1" give the same key). */
function decimalKey(s: string): string {
  const m = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(s);
  if (!m) return s;
  let digits = (m[2] + (m[3] ?? "")).replace(/^0+/, "");
  if (!digits) return "0";
  let exp = Number(m[4] ?? 0) - (m[3]?.length ?? 0);
  const kept = digits.replace(/0+$/, "");
  exp += digits.length - kept.length;
  digits = kept;
  return `${m[1]}${digits}e${exp}`;
}

/**
 * Parses PostgreSQL's JSON text of a json/jsonb value, checking that every number in it survives a JavaScript double
 * and comes back as the same text (`1.50` or a 20-digit integer would not). `where` names the value for the error.
 * @throws PegasError INTERNAL for a number JavaScript would change.
 */
export function checkedJson(text: string, where: string): unknown {
  const outsideStrings = text.replace(/"(?:[^"\\]|\\.)*"/g, '""');
  for (const token of outsideStrings.match(/-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/g) ?? []) {
    const trailingZero = /\.\d*0(?:[eE]|$)/.test(token);
    if (trailingZero || decimalKey(token) !== decimalKey(String(Number(token)))) {
      throw new PegasError(
        "INTERNAL",
        `cannot export ${where}: its JSON number ${token} would not survive the export exactly`,
        {
          hint: "the value was written outside pegas-memory; rewrite it with fewer digits, then export again",
        },
      );
    }
  }
  return JSON.parse(text);
}

/** Turns a row as read by {@link selectExpr} (parsed JSON) into the exported row, in place. */
export function encodeRow(
  row: Record<string, unknown>,
  kinds: ReadonlyMap<string, ColumnKind>,
  table: string,
): Record<string, unknown> {
  for (const [name, kind] of kinds) {
    const v = row[name];
    if (v === null || v === undefined) continue;
    if (kind === "number") row[name] = numberValue(v as string);
    else if (kind === "number[]") row[name] = deepMap(v, (x) => numberValue(x as string));
    else if (kind === "json") row[name] = checkedJson(v as string, `${table}.${name}`);
  }
  return row;
}

function deepMap(v: unknown, f: (x: unknown) => unknown): unknown {
  if (Array.isArray(v)) return v.map((x) => deepMap(x, f));
  return v === null ? null : f(v);
}

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/**
 * Turns an exported value back into what jsonb_populate_recordset reads as the column's value (bytea: base64 → the
 * `\x…` hex text). Returns an error text for a value of the wrong shape, else null after replacing it in `row`.
 */
export function decodeValue(row: Record<string, unknown>, name: string, kind: ColumnKind): string | null {
  const v = row[name];
  if (v === null) return null;
  if (kind === "bytea") {
    if (typeof v !== "string" || !BASE64.test(v)) return `column ${name}: bytea must be a base64 string`;
    row[name] = `\\x${Buffer.from(v, "base64").toString("hex")}`;
  } else if (kind === "number" && typeof v !== "number" && typeof v !== "string") {
    return `column ${name}: a number or its text expected, got ${JSON.stringify(v).slice(0, 40)}`;
  }
  return null;
}
