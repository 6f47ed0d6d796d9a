/**
 * A document's date as its format writes it, read leniently: ISO 8601 (HTML meta, JSON-LD, EPUB dc:date), the PDF
 * date string of ISO 32000-1 §7.9.4 (D:YYYYMMDDHHmmSSOHH'mm'), RFC 2822 (HTTP-style "Sun, 03 Mar 2024 10:00:00
 * GMT") and written dates ("March 3, 2024", «3 марта 2024 г.»). Null for anything else or an implausible year.
 */
import { parseIsoTime } from "./atom-time.ts";
import { eventTimeOf } from "./extract.ts";

const PDF_DATE = /^D:(\d{4})(\d{2})?(\d{2})?(\d{2})?(\d{2})?(\d{2})?(?:([Z+-])(\d{2})?'?(\d{2})?'?)?$/;
const RFC_2822 =
  /^(?:[A-Za-z]{3},?\s+)?\d{1,2}\s+[A-Za-z]{3}\s+\d{4}(?:\s+\d{2}:\d{2}(?::\d{2})?(?:\s+(?:[+-]\d{4}|[A-Z]{1,5}))?)?$/;

function pdfDate(m: RegExpExecArray): Date | null {
  const n = (i: number, dflt: number) => (m[i] === undefined ? dflt : Number(m[i]));
  const iso =
    `${m[1]}-${String(n(2, 1)).padStart(2, "0")}-${String(n(3, 1)).padStart(2, "0")}T` +
    `${String(n(4, 0)).padStart(2, "0")}:${String(n(5, 0)).padStart(2, "0")}:${String(n(6, 0)).padStart(2, "0")}` +
    (m[7] === "+" || m[7] === "-"
      ? `${m[7]}${String(n(8, 0)).padStart(2, "0")}:${String(n(9, 0)).padStart(2, "0")}`
      : "Z");
  return parseIsoTime(iso);
}

/** The instant a document's date field names (start of the day when only a day is given); null when unreadable. */
export function parseDocumentDate(text: string): Date | null {
  const s = text.trim();
  const pdf = PDF_DATE.exec(s);
  const at =
    (pdf ? pdfDate(pdf) : null) ??
    parseIsoTime(/^\d{4}$/.test(s) ? `${s}-01` : s) ??
    (RFC_2822.test(s) && Number.isFinite(Date.parse(s)) ? new Date(Date.parse(s)) : null) ??
    (() => {
      const e = eventTimeOf(s);
      return e && e.granularity === "day" ? new Date(e.start) : null;
    })();
  return at && at.getUTCFullYear() >= 1900 ? at : null;
}
