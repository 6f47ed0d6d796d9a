import { coreSuite } from "./core.suite.ts";

coreSuite("pglite");
