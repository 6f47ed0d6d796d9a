/**
 * Path of the embedded PGlite template (see pglite-template.ts, the only importer): under dist/ when run from source,
 * under /$bunfs/ inside the executable. Importing this module fails when the file was never made.
 */
import template from "../../dist/pglite-template.tar.gz" with { type: "file" };

/** Path of dist/pglite-template.tar.gz (or its embedded copy). */
export default template;
