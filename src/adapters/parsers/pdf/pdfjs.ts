/**
 * pdf.js access: the serverless build shipped by `unpdf` (no worker file, no font or CMap files read from disk,
 * so it runs inside the compiled executable), loaded lazily so that server start-up does not pay for it.
 * Every pdf.js failure leaves this module as a {@link PegasError}.
 */
import { PegasError } from "../../../errors.ts";

/** The pdf.js module (`unpdf/pdfjs`). */
export type Pdfjs = typeof import("unpdf/pdfjs");
/** An open pdf.js document. */
export type PdfDocument = import("unpdf/pdfjs").PDFDocumentProxy;

/** pdf.js VerbosityLevel.ERRORS: its warnings ("Warning: TT: undefined function") would otherwise be printed. */
const VERBOSITY_ERRORS = 0;

let loading: Promise<Pdfjs> | null = null;

/** Loads pdf.js once per process. @throws PegasError INTERNAL when the bundled module cannot be loaded. */
export async function loadPdfjs(): Promise<Pdfjs> {
  loading ??= import("unpdf/pdfjs");
  try {
    return await loading;
  } catch (err) {
    loading = null;
    throw new PegasError("INTERNAL", `pdf.js could not be loaded: ${(err as Error).message}`, { cause: err });
  }
}

/**
 * Opens a PDF from bytes (copied: pdf.js takes ownership of the buffer it is given).
 * @throws PegasError UNSUPPORTED_MEDIA (encrypted, damaged, not a PDF), CANCELLED (signal aborted).
 */
export async function openPdf(
  pdfjs: Pdfjs,
  bytes: Uint8Array,
  uri: string,
  signal?: AbortSignal,
): Promise<PdfDocument> {
  const task = pdfjs.getDocument({
    // A copy (pdf.js takes ownership of its buffer), and a plain Uint8Array: pdf.js refuses a Node Buffer.
    data: new Uint8Array(bytes),
    verbosity: VERBOSITY_ERRORS,
    isEvalSupported: false,
    useSystemFonts: false,
    disableFontFace: true,
    useWorkerFetch: false,
    isOffscreenCanvasSupported: false,
    stopAtErrors: false,
  });
  try {
    return await abortable(task.promise, signal, uri);
  } catch (err) {
    void task.destroy().catch(() => {});
    const tail = new TextDecoder("latin1").decode(bytes.subarray(Math.max(0, bytes.byteLength - 2048)));
    throw pdfError(err, uri, !tail.includes("%%EOF"));
  }
}

/**
 * Maps a pdf.js exception (PasswordException, InvalidPDFException, FormatError, …) to a PegasError
 * UNSUPPORTED_MEDIA; `truncated` (no `%%EOF` near the end) is named in the message, as the likely cause.
 */
export function pdfError(err: unknown, uri: string, truncated = false): PegasError {
  if (err instanceof PegasError) return err;
  const name = (err as { name?: string })?.name ?? "";
  const msg = err instanceof Error ? err.message : String(err);
  if (name === "PasswordException") {
    return new PegasError("UNSUPPORTED_MEDIA", `PDF '${uri}' is encrypted and needs a password`, {
      hint: "decrypt it first (e.g. qpdf --decrypt --password=… in.pdf out.pdf) and ingest the decrypted copy",
      cause: err,
    });
  }
  const what = truncated ? "is truncated (no %%EOF marker at its end)" : "is damaged or not a PDF";
  return new PegasError("UNSUPPORTED_MEDIA", `PDF '${uri}' ${what} (${name || "error"}: ${msg})`, {
    hint: "check that the file is complete (a download may have been cut short) and opens in a PDF viewer",
    cause: err,
  });
}

/** Rejects with PegasError CANCELLED as soon as `signal` aborts, even if pdf.js never settles the promise. */
export function abortable<T>(p: Promise<T>, signal: AbortSignal | undefined, uri: string): Promise<T> {
  if (!signal) return p;
  const cancelled = () => new PegasError("CANCELLED", `parsing PDF '${uri}' was cancelled`);
  if (signal.aborted) return Promise.reject(cancelled());
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(cancelled());
    signal.addEventListener("abort", onAbort, { once: true });
    p.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}

/** What the parser keeps of the info dictionary: each field trimmed, or null. */
export interface DocumentInfo {
  title: string | null;
  author: string | null;
  producer: string | null;
  /** CreationDate / ModDate (or XMP xmp:CreateDate / xmp:ModifyDate) as written, e.g. D:20240303120000+01'00'. */
  created: string | null;
  modified: string | null;
}

/** Title, author and producer from the info dictionary, falling back to XMP metadata; null when absent or junk. */
export async function readInfo(doc: PdfDocument): Promise<DocumentInfo> {
  const { info, metadata } = await doc.getMetadata();
  const dict = info as Record<string, unknown>;
  const xmp = (key: string): unknown => {
    try {
      return metadata?.get(key) ?? null;
    } catch {
      return null;
    }
  };
  return {
    title: clean(dict.Title, true) ?? clean(xmp("dc:title"), true),
    author: clean(dict.Author) ?? clean(xmp("dc:creator")),
    producer: clean(dict.Producer) ?? clean(xmp("pdf:producer")),
    created: clean(dict.CreationDate) ?? clean(xmp("xmp:createdate")),
    modified: clean(dict.ModDate) ?? clean(xmp("xmp:modifydate")),
  };
}

/** A trimmed non-empty string, or null; titles that are only a file name ("Microsoft Word - a.docx") are null. */
function clean(v: unknown, isTitle = false): string | null {
  const raw = Array.isArray(v) ? v.join("; ") : v;
  if (typeof raw !== "string") return null;
  const s = raw.replace(/\s+/g, " ").trim();
  if (s === "" || /^untitled$/i.test(s)) return null;
  if (isTitle && /\.(?:docx?|pdf|tex|dvi|rtf|odt|indd|qxd)$/i.test(s)) return null;
  return s;
}
