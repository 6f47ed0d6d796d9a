/** Text and Markdown adapter of the Parser port; see text-parser.ts. */
export { textParser } from "./text-parser.ts";
