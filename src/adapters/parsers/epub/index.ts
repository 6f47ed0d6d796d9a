/** EPUB 2/3 adapter of the Parser port; see epub-parser.ts. */
export { epubParser } from "./epub-parser.ts";
