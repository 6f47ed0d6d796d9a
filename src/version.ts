/** The version of this build, from package.json (bundled into the executable). */
import pkg from "../package.json" with { type: "json" };

/** Semantic version string, e.g. "0.1.0". */
export const VERSION: string = pkg.version;
