/**
 * Builds small PDFs in memory for parser tests (no binary fixtures stored): one Helvetica font (a standard font,
 * so nothing is embedded) and text placed at exact positions, in exactly the content-stream order given. Only
 * ASCII text; `(`, `)` and `\` are escaped.
 */

/** One piece of text: its left baseline position in points (origin bottom-left) and its font size. */
export interface SynthText {
  x: number;
  y: number;
  text: string;
  size?: number;
  /** Draw the text turned a quarter turn counter-clockwise (reading upwards), as landscape pages are. */
  turned?: boolean;
}

/** A page of `SynthText`, drawn in array order, on a US Letter page (612 × 792 pt). */
export type SynthPage = SynthText[];

function escapePdf(s: string): string {
  return s.replace(/[\\()]/g, (c) => `\\${c}`);
}

/** The content stream of one page: one BT…ET per piece, so that pdf.js sees each as its own item. */
function contentStream(page: SynthPage): string {
  return page
    .map(
      (t) =>
        `BT /F1 ${t.size ?? 10} Tf ${t.turned ? "0 1 -1 0" : "1 0 0 1"} ${t.x} ${t.y} Tm (${escapePdf(t.text)}) Tj ET`,
    )
    .join("\n");
}

/** Serializes pages into a complete PDF 1.4 file with a correct cross-reference table. */
export function makePdf(pages: SynthPage[], info: { title?: string } = {}): Uint8Array {
  const objects: string[] = [];
  const pageIds = pages.map((_, i) => 5 + 2 * i);
  objects[1] = "<< /Type /Catalog /Pages 2 0 R >>";
  objects[2] = `<< /Type /Pages /Kids [${pageIds.map((id) => `${id} 0 R`).join(" ")}] /Count ${pages.length} >>`;
  objects[3] = "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>";
  objects[4] = info.title
    ? `<< /Title (${escapePdf(info.title)}) /Producer (pdf-synth) >>`
    : "<< /Producer (pdf-synth) >>";
  pages.forEach((page, i) => {
    const stream = contentStream(page);
    objects[pageIds[i]!] =
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> ` +
      `/Contents ${pageIds[i]! + 1} 0 R >>`;
    objects[pageIds[i]! + 1] = `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`;
  });
  let out = "%PDF-1.4\n";
  const offsets: number[] = [];
  for (let id = 1; id < objects.length; id++) {
    offsets[id] = out.length;
    out += `${id} 0 obj\n${objects[id]}\nendobj\n`;
  }
  const xref = out.length;
  out += `xref\n0 ${objects.length}\n0000000000 65535 f \n`;
  for (let id = 1; id < objects.length; id++) out += `${String(offsets[id]).padStart(10, "0")} 00000 n \n`;
  out += `trailer\n<< /Size ${objects.length} /Root 1 0 R /Info 4 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return new TextEncoder().encode(out);
}

/**
 * A two-column page drawn line ACROSS line (left line i, then right line i), the order that makes naive
 * extraction interleave the columns: a full-width title, two columns of `rows` lines, a full-width footer.
 */
export function twoColumnAcrossPage(left: string[], right: string[]): SynthPage {
  const page: SynthPage = [{ x: 72, y: 740, text: "A Full Width Title Spanning Both Columns Of This Page", size: 16 }];
  const rows = Math.max(left.length, right.length);
  for (let i = 0; i < rows; i++) {
    const y = 700 - 12 * i;
    if (left[i]) page.push({ x: 72, y, text: left[i]! });
    if (right[i]) page.push({ x: 320, y, text: right[i]! });
  }
  page.push({
    x: 72,
    y: 60,
    text: "Footer line that runs across the whole width of the page, under both columns.",
    size: 10,
  });
  return page;
}
