/**
 * Output schemas without null: a field zod declares `.nullable()` is declared optional instead (stricter clients,
 * Gemini among them, refuse `type: [x, "null"]`), and the structured content leaves out every field whose value is
 * null, so that it matches. In every result of ours a null field and an absent one mean the same: none, or not
 * known. Null items of an array stay (an array keeps its positions).
 */
import { type ZodRawShape, type ZodType, z } from "zod";
import type { ToolDef } from "./tool.ts";

/** `to` with `from`'s description when `to` has none. */
function described(from: ZodType, to: ZodType): ZodType {
  return from.description && !to.description ? to.describe(from.description) : to;
}

/** A schema with the nullable fields of its objects, at any depth, made optional. */
function withoutNullFields(s: ZodType): ZodType {
  if (s instanceof z.ZodObject) return described(s, z.object(shapeWithoutNull(s.shape)));
  if (s instanceof z.ZodArray) return described(s, z.array(withoutNullFields(s.element as ZodType)));
  if (s instanceof z.ZodOptional) return described(s, withoutNullFields(s.unwrap() as ZodType).optional());
  if (s instanceof z.ZodNullable) return described(s, withoutNullFields(s.unwrap() as ZodType).nullable());
  if (s instanceof z.ZodRecord) {
    return described(s, z.record(s.keyType as z.ZodString, withoutNullFields(s.valueType as ZodType)));
  }
  if (s instanceof z.ZodUnion) {
    const options = (s.options as ZodType[]).map(withoutNullFields) as [ZodType, ZodType, ...ZodType[]];
    return described(s, z.union(options));
  }
  return s;
}

/** One field: nullable (optional or not) becomes optional, and its inside loses null fields too. */
function field(s: ZodType): ZodType {
  let inner = s instanceof z.ZodOptional ? (s.unwrap() as ZodType) : s;
  const nullable = inner instanceof z.ZodNullable;
  if (inner instanceof z.ZodNullable) inner = described(inner, inner.unwrap() as ZodType);
  if (!nullable && !(s instanceof z.ZodOptional)) return withoutNullFields(s);
  return described(s, withoutNullFields(inner).optional());
}

/** A zod object shape whose nullable fields, at any depth, are optional instead. */
export function shapeWithoutNull(shape: ZodRawShape): ZodRawShape {
  return Object.fromEntries(Object.entries(shape).map(([k, v]) => [k, field(v as ZodType)]));
}

const cache = new WeakMap<ToolDef, ZodRawShape>();

/** A tool's output shape as it is registered and listed: {@link shapeWithoutNull} of its `outputSchema`, once. */
export function portableOutput(tool: ToolDef): ZodRawShape {
  let shape = cache.get(tool);
  if (!shape) cache.set(tool, (shape = shapeWithoutNull(tool.outputSchema)));
  return shape;
}

/** A copy of a JSON value without the null-valued fields of its objects, at any depth (array items stay). */
export function dropNulls<T>(value: T): T {
  if (Array.isArray(value)) return value.map((v) => dropNulls(v)) as T;
  if (value === null || typeof value !== "object" || value.constructor !== Object) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) if (v !== null) out[k] = dropNulls(v);
  return out as T;
}
