import { pgSkipReason } from "../support/pg.ts";
import { coreSuite } from "./core.suite.ts";

coreSuite("postgres", await pgSkipReason());
