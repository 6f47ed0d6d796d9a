/**
 * The measurements of an atom as memory_get shows them (pm_atom_quantity, docs/quantities.md): compact structured
 * entries (value or range in the canonical unit, the quote as written, what was measured) and one text line,
 * `Quantities: 1.2 s (cold start); 1.2 s = «1 200 мс» (холодный старт)`.
 */
import { z } from "zod";
import type { AtomDetail } from "../../../core/knowledge/get-atom.ts";

/** A stored measurement as memory_get reads it (QuantityRow: values in the canonical unit). */
type QuantityRow = AtomDetail["quantities"][number];

/** Measurements listed per atom (a claim rarely states more; the rest are counted). */
export const GET_QUANTITIES = 10;

/** Output field of memory_get: the atom's measurements. */
export const quantitiesOutput = z
  .array(
    z.object({
      value: z.number(),
      high: z.number().optional().describe("a range's upper end"),
      unit: z.string().describe("canonical unit"),
      quote: z.string(),
      subject: z.string(),
      conditions: z.array(z.string()).optional(),
      approximate: z.boolean().optional(),
    }),
  )
  .optional()
  .describe("measurements its claim states");

/** One measurement as memory_get's structured content holds it. */
export interface QuantityOut {
  value: number;
  high?: number;
  unit: string;
  quote: string;
  subject: string;
  conditions?: string[];
  approximate?: boolean;
}

/** A stored measurement as {@link QuantityOut}: the range end, conditions and approximation only when present. */
export function quantityOut(q: QuantityRow): QuantityOut {
  return {
    value: q.low,
    ...(q.high !== q.low ? { high: q.high } : {}),
    unit: q.canonicalUnit,
    quote: q.quote,
    subject: q.subject,
    ...(q.conditions.length ? { conditions: q.conditions } : {}),
    ...(q.approximate ? { approximate: true } : {}),
  };
}

/** A number without float noise (1.2, not 1.2000000000000002). */
const num = (x: number): string => String(Number(x.toPrecision(12)));

/** `1.2 s (cold start, on the ARM board)`, `≈100–200 USD = «$100 and $200» (flight)`: one measurement. */
export function quantityText(q: QuantityOut): string {
  const value = `${q.approximate ? "≈" : ""}${num(q.value)}${q.high !== undefined ? `–${num(q.high)}` : ""} ${q.unit}`;
  const written = q.quote.replace(/\s+/gu, " ").trim();
  const same = written === value || written === `${num(q.value)} ${q.unit}`;
  const about = [q.subject, ...(q.conditions ?? [])].filter((s) => s.trim()).join(", ");
  return `${value}${same ? "" : ` = «${written}»`}${about ? ` (${about})` : ""}`;
}

/** "Quantities: …; …" (the first {@link GET_QUANTITIES}, then how many more), or "" when there are none. */
export function quantitiesLine(list: readonly QuantityOut[] | undefined): string {
  if (!list?.length) return "";
  const shown = list.slice(0, GET_QUANTITIES).map(quantityText);
  const more = list.length > shown.length ? `; … ${list.length - shown.length} more` : "";
  return `Quantities: ${shown.join("; ")}${more}.`;
}
