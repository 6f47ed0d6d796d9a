/** Web page (HTML) adapter of the Parser port; see html-parser.ts. */
export { EMPTY_PAGE_WARNING, MIN_PAGE_TEXT, htmlParser } from "./html-parser.ts";
