/**
 * A tool's zod shape → the JSON Schema z.toJSONSchema writes (draft 2020-12) → the short type texts and field rows
 * that docs/tools.md and the CLI help show ("integer 1..50", "one of hybrid, lexical, vector", "array of string").
 */
import { type ZodRawShape, z } from "zod";

/** The part of a JSON Schema node these docs read. */
export interface JsonSchema {
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  items?: JsonSchema;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  pattern?: string;
  description?: string;
  default?: unknown;
}

/** One documented field: `path` is dotted for nested fields (`hits[].score`). */
export interface FieldDoc {
  path: string;
  type: string;
  required: boolean;
  /** The schema's own default (JSON), when it declares one; most fields say theirs in the description. */
  default?: string;
  description: string;
}

/** JSON Schema of an object with the given zod shape: `input` what a call may send, `output` what a result holds. */
export function shapeSchema(shape: ZodRawShape, io: "input" | "output"): JsonSchema {
  return z.toJSONSchema(z.object(shape), { io, unrepresentable: "any" }) as JsonSchema;
}

// zod writes every integer's safe range; only bounds a schema chose say something.
const meaningful = (n: number | undefined): n is number => n !== undefined && Math.abs(n) < Number.MAX_SAFE_INTEGER;

function bounds(s: JsonSchema, integer: boolean): string {
  let lo = meaningful(s.minimum) ? s.minimum : undefined;
  let hi = meaningful(s.maximum) ? s.maximum : undefined;
  let loText = lo === undefined ? undefined : String(lo);
  if (meaningful(s.exclusiveMinimum)) {
    lo = integer ? s.exclusiveMinimum + 1 : s.exclusiveMinimum;
    loText = integer ? String(lo) : `> ${lo}`;
  }
  if (meaningful(s.exclusiveMaximum)) hi = integer ? s.exclusiveMaximum - 1 : s.exclusiveMaximum;
  if (loText !== undefined && hi !== undefined && !loText.startsWith(">")) return ` ${loText}..${hi}`;
  if (loText !== undefined) return loText.startsWith(">") ? ` ${loText}` : ` ≥ ${loText}`;
  return hi === undefined ? "" : ` ≤ ${hi}`;
}

function counted(min: number | undefined, max: number | undefined, unit: string): string {
  if (min !== undefined && min > 0 && max !== undefined) return ` of ${min}..${max} ${unit}`;
  if (max !== undefined) return ` of ≤ ${max} ${unit}`;
  return min !== undefined && min > 0 ? ` of ≥ ${min} ${unit}` : "";
}

const isNull = (s: JsonSchema) => s.type === "null";

/** The short type text of a schema node, e.g. `integer 1..50`, `one of out, in, both`, `string or null`. */
export function typeText(s: JsonSchema): string {
  const alternatives = s.anyOf ?? s.oneOf;
  if (alternatives) {
    const shown = alternatives.filter((a) => !isNull(a)).map(typeText);
    return [...shown, ...(alternatives.some(isNull) ? ["null"] : [])].join(" or ");
  }
  if (s.enum) return `one of ${s.enum.map(String).join(", ")}`;
  if (s.const !== undefined) return JSON.stringify(s.const);
  if (Array.isArray(s.type)) {
    const nonNull = s.type.filter((t) => t !== "null");
    const base = nonNull.length === 1 ? typeText({ ...s, type: nonNull[0] }) : nonNull.join(" or ");
    return s.type.includes("null") ? `${base} or null` : base;
  }
  switch (s.type) {
    case "integer":
    case "number":
      return `${s.type}${bounds(s, s.type === "integer")}`;
    case "string":
      return `string${counted(s.minLength, s.maxLength, "chars")}${s.pattern ? ` matching ${s.pattern}` : ""}`;
    case "array":
      return `array${counted(s.minItems, s.maxItems, "items")} of ${s.items ? typeText(s.items) : "any"}`;
    case "object":
      if (s.properties) return "object";
      if (typeof s.additionalProperties === "object" && Object.keys(s.additionalProperties).length)
        return `map of string → ${typeText(s.additionalProperties)}`;
      return "JSON object";
    case undefined:
      return "any";
    default:
      return s.type;
  }
}

/** The object schema a node holds fields of: itself, its non-null alternative, or its array items (`[]`). */
function nested(s: JsonSchema): { schema: JsonSchema; suffix: string } | undefined {
  if (s.properties) return { schema: s, suffix: "" };
  const alternatives = (s.anyOf ?? s.oneOf ?? []).filter((a) => !isNull(a));
  if (alternatives.length === 1) return nested(alternatives[0]);
  if (s.type === "array" && s.items) {
    const inner = nested(s.items);
    return inner && { schema: inner.schema, suffix: `[]${inner.suffix}` };
  }
  return undefined;
}

/**
 * The fields of an object schema in declaration order, descending `depth` levels into nested objects (1: the top
 * level only); a deeper object is one row whose type names its keys.
 */
export function fieldRows(schema: JsonSchema, depth: number, prefix = ""): FieldDoc[] {
  const required = new Set(schema.required ?? []);
  const rows: FieldDoc[] = [];
  for (const [name, s] of Object.entries(schema.properties ?? {})) {
    const path = `${prefix}${name}`;
    const inner = nested(s);
    let type = typeText(s);
    if (inner && depth <= 1)
      type = type.replace("object", `object {${Object.keys(inner.schema.properties ?? {}).join(", ")}}`);
    rows.push({
      path,
      type,
      required: required.has(name),
      ...(s.default !== undefined ? { default: JSON.stringify(s.default) } : {}),
      description: s.description ?? inner?.schema.description ?? "",
    });
    if (inner && depth > 1) rows.push(...fieldRows(inner.schema, depth - 1, `${path}${inner.suffix}.`));
  }
  return rows;
}

/** True when the node takes an array (alone or as one alternative): a CLI option for it may be repeated. */
export function takesMany(s: JsonSchema): boolean {
  return s.type === "array" || (s.anyOf ?? s.oneOf ?? []).some(takesMany);
}

/** The type of one element: the items of an array (or of the array alternative), else the node's own type. */
export function elementText(s: JsonSchema): string {
  if (s.type === "array" && s.items) return typeText(s.items);
  const alternatives = (s.anyOf ?? s.oneOf ?? []).filter((a) => !isNull(a));
  const single = alternatives.filter((a) => a.type !== "array");
  if (alternatives.some((a) => a.type === "array") && single.length === 1) return typeText(single[0]);
  return typeText(s);
}
