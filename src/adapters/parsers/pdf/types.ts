/**
 * Geometry shared by the PDF layout steps. Coordinates are PDF user-space units (1/72 inch) with y growing
 * upwards, as pdf.js reports them in `TextItem.transform`; `y` is a text baseline.
 */

/** One non-blank pdf.js text item in the page's main direction (turned upright): its text (ligatures expanded) and box. */
export interface Run {
  str: string;
  /** Left and right edge of the item along the baseline. */
  x0: number;
  x1: number;
  /** Baseline. */
  y: number;
  /** Font size (vertical scale of the text matrix). */
  size: number;
  /** pdf.js font id, e.g. `g_d0_f6`: only compared for equality (heading vs body). */
  font: string;
}

/** A visual text line: runs on one baseline band, left to right, with its extent and dominant style. */
export interface Line {
  runs: Run[];
  x0: number;
  x1: number;
  /** Baseline of the dominant run. */
  y: number;
  /** Size and font of the run that carries the most characters. */
  size: number;
  font: string;
  /** The line's text: runs joined with spaces where the gap between them is wide enough. */
  text: string;
}

/** Lines read in order as one unit: the whole page, one column of a two-column segment, or a full-width band. */
export interface Block {
  lines: Line[];
  /** True when this block's first line may continue the previous block's last paragraph (left → right column). */
  continues: boolean;
  /** True for rotated text (margin notes, stamps): its lines are joined as one paragraph, without geometry rules. */
  rotated?: boolean;
}

/** A page's text as ordered blocks, and how many text columns were found on it. */
export interface PageLayout {
  blocks: Block[];
  columns: 1 | 2;
}
