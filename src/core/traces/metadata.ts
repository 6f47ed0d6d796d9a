/**
 * Validation of a trace's `metadata`: a JSON object of bounded size and depth whose keys and strings are storable
 * in PostgreSQL jsonb (no NUL, no lone surrogates). Pure, no I/O.
 */
import { sanitizeText } from "../../domain/text.ts";
import { invalidInput } from "../../errors.ts";

/** Largest metadata, as UTF-8 bytes of its JSON text. */
export const MAX_METADATA_BYTES = 16 * 1024;
/** Deepest nesting of objects and arrays in metadata. */
export const MAX_METADATA_DEPTH = 16;

function typeName(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "array";
  if (typeof v === "object") return (v as object).constructor?.name ?? "object";
  if (typeof v === "number" && !Number.isFinite(v)) return String(v);
  return typeof v;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  if (v === null || typeof v !== "object" || Array.isArray(v)) return false;
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

/** Counts what sanitizing changed, so that one warning per kind of change is reported, not one per string. */
interface Changes {
  strings: number;
}

function cleanString(s: string, changes: Changes): string {
  const r = sanitizeText(s, "metadata");
  if (r.warnings.length) changes.strings++;
  return r.text;
}

function cleanValue(v: unknown, path: string, depth: number, changes: Changes): unknown {
  if (v === null || typeof v === "boolean") return v;
  if (typeof v === "number") {
    if (Number.isFinite(v)) return v;
    throw invalidInput(`metadata${path} is ${String(v)}; JSON has no such number`, "store it as a string or drop it");
  }
  if (typeof v === "string") return cleanString(v, changes);
  if (depth >= MAX_METADATA_DEPTH)
    throw invalidInput(
      `metadata is nested deeper than ${MAX_METADATA_DEPTH} levels (at metadata${path})`,
      "flatten it",
    );
  if (Array.isArray(v)) return v.map((x, i) => cleanValue(x, `${path}[${i}]`, depth + 1, changes));
  if (isPlainObject(v)) {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) {
      if (x === undefined) continue;
      // defineProperty, not assignment: a key "__proto__" (JSON.parse makes it an own key) must stay a key.
      const value = cleanValue(x, `${path}.${k.slice(0, 40)}`, depth + 1, changes);
      Object.defineProperty(out, cleanString(k, changes), {
        value,
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return out;
  }
  throw invalidInput(
    `metadata${path} is a ${typeName(v)}; only JSON values (object, array, string, number, boolean, null) are stored`,
  );
}

/**
 * Checks and cleans trace metadata: `undefined` becomes `{}`; anything but a plain JSON object, a non-finite number,
 * nesting deeper than {@link MAX_METADATA_DEPTH} or more than {@link MAX_METADATA_BYTES} bytes of JSON is refused.
 * NUL characters and lone surrogates in keys and strings are repaired and reported in `warnings`.
 * @throws PegasError INVALID_INPUT.
 */
export function cleanMetadata(metadata: unknown, warnings: string[]): Record<string, unknown> {
  if (metadata === undefined) return {};
  if (!isPlainObject(metadata)) {
    throw invalidInput(
      `metadata must be a JSON object, got ${typeName(metadata)}`,
      'wrap the value, e.g. {"value": …}',
    );
  }
  const changes: Changes = { strings: 0 };
  const clean = cleanValue(metadata, "", 0, changes) as Record<string, unknown>;
  const bytes = Buffer.byteLength(JSON.stringify(clean));
  if (bytes > MAX_METADATA_BYTES) {
    throw invalidInput(
      `metadata is ${bytes} bytes of JSON; the limit is ${MAX_METADATA_BYTES}`,
      "keep metadata small (ids, tool names, urls); put long text in content",
    );
  }
  if (changes.strings)
    warnings.push(
      `metadata: repaired ${changes.strings} key(s) or string(s) holding NUL characters or lone surrogates`,
    );
  return clean;
}
