/**
 * Child process for the PDF stdout-hygiene test: parses every fixture PDF, a truncated copy of each and a
 * not-a-PDF, writing nothing itself. Whatever appears on its stdout came from the parser or pdf.js; the parent
 * asserts that there is nothing. Exit status 0 when every parse ended as expected.
 */
import { readdirSync, readFileSync } from "node:fs";
import { pdfParser } from "../../src/adapters/parsers/pdf/index.ts";
import { PegasError } from "../../src/errors.ts";
import { fixturePath } from "./shared.ts";

const DIR = fixturePath("pdf/");
const LIMITS = { maxBytes: 64 << 20, maxZipEntries: 1, maxZipTotalBytes: 1, maxZipEntryBytes: 1 };

let failures = 0;
for (const name of readdirSync(DIR).filter((n) => n.endsWith(".pdf"))) {
  const bytes = new Uint8Array(readFileSync(DIR + name));
  await pdfParser.parse({ bytes, uri: name }, LIMITS);
  try {
    await pdfParser.parse({ bytes: bytes.slice(0, Math.floor(bytes.length * 0.4)), uri: name }, LIMITS);
  } catch (err) {
    if (!(err instanceof PegasError)) failures++;
  }
}
try {
  await pdfParser.parse({ bytes: new TextEncoder().encode("not a pdf"), uri: "x" }, LIMITS);
} catch (err) {
  if (!(err instanceof PegasError)) failures++;
}
process.exitCode = failures === 0 ? 0 : 1;
