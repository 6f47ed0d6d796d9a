/**
 * The labelled quantity set of issue 24 (tests/quantity/quantity-set.jsonl, one sentence per line): sentences read
 * from the shared fixtures (the npj, PLOS Medicine and MDPI Toxins PDFs, the Russian geoacoustics PDF, the Mozilla
 * Wikipedia, v8.dev and Docker HTML pages, Botchan and Chekhov's «Палата № 6»), each with every measurement a reader
 * finds in it. Rules of the labels:
 * - a measurement is a number (digits or words, English or Russian) with a unit of time, data size, frequency,
 *   length, area, mass, temperature, angle, percentage or money, or a rate of two of them ("forty yen a month",
 *   "min/day"); bare counts ("sixteen healthy men", «пять человек», "n = 5"), ordinals, calendar years and times of
 *   day ("three o'clock", «часов в восемь») are not measurements, and sentences holding only those are kept as
 *   negatives;
 * - `value` (or `low`/`high` for a range: "10-11%", "13 or 14 years", «шестьдесят-семьдесят рублей») is written in
 *   `unit`, a symbol as a reader writes it (h, min, d, wk, mo, yr, B, cm, ft, mi, ft2, verst, sazhen, Hz, deg, %,
 *   JPY, sen, RUB, USD, and "a/b" for a rate); a compound duration ("24 h and 11 min") is one quantity in seconds;
 *   a mean ± spread is the mean; "about", "~" and «с» (approximately) do not change the value;
 * - `what` is the head word (or words) of what was measured, as written in the sentence (a Russian stem where the
 *   word inflects: «точност», «погрешност»), found either before the number ("phase delay of 42 min") or after it
 *   ("60 days of HDBR");
 * - `quote` is the measurement's text as written.
 * The check half is frozen by hash ({@link quantityHalf}) and by a digest of its lines (quantity-set.test.ts), fixed
 * when the set was written and before any extraction rule existed: rules are tuned on the tune half only.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";

/** One labelled measurement: a single value or a range, in `unit` as written by the labeller. */
export interface LabelledQuantity {
  quote: string;
  value?: number;
  low?: number;
  high?: number;
  unit: string;
  what: string;
}

/** One labelled sentence. */
export interface QuantityItem {
  id: string;
  half: "tune" | "check";
  lang: "en" | "ru";
  /** Where the sentence was read: a path under shared/fixtures. */
  source: string;
  text: string;
  quantities: LabelledQuantity[];
}

/** The half of a sentence: SHA-256 of `"pegas-quantities-v1:" + text` (UTF-8); an even first byte is `tune`. */
export function quantityHalf(text: string): "tune" | "check" {
  return createHash("sha256").update(`pegas-quantities-v1:${text}`, "utf8").digest()[0] % 2 === 0 ? "tune" : "check";
}

/** The items, in file order. @throws Error naming the line when a line is malformed or a quote is not in its text. */
export function loadQuantitySet(path = new URL("./quantity-set.jsonl", import.meta.url).pathname): QuantityItem[] {
  return readFileSync(path, "utf8")
    .split("\n")
    .filter((l) => l.trim())
    .map((l, i) => {
      const it = JSON.parse(l) as QuantityItem;
      const bad = it.quantities.find(
        (q) =>
          !it.text.includes(q.quote) ||
          !q.unit ||
          !q.what ||
          (q.value === undefined) === (q.low === undefined || q.high === undefined),
      );
      if (typeof it.text !== "string" || bad) throw new Error(`quantity-set.jsonl line ${i + 1} is malformed`);
      return it;
    });
}

/** SHA-256 (hex) of the check half's lines as stored, in file order: any edit of a check item changes it. */
export function checkDigest(items: readonly QuantityItem[]): string {
  const h = createHash("sha256");
  for (const it of items) if (it.half === "check") h.update(`${JSON.stringify(it)}\n`, "utf8");
  return h.digest("hex");
}

/** The whole set. */
export const QUANTITY_SET: readonly QuantityItem[] = loadQuantitySet();
