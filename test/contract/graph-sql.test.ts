/** The GraphStore contract against the recursive-SQL adapter, on PostgreSQL (skipped, with the reason, when none answers) and on PGlite. */
import type { Database } from "../../src/adapters/sql/database.ts";
import { SqlGraphStore } from "../../src/adapters/sql/graph.ts";
import { pgSkipReason } from "../support/pg.ts";
import { graphStoreContract } from "./graph-store.contract.ts";

const open = async (db: Database) => ({ graph: new SqlGraphStore(db), async dispose() {} });

graphStoreContract("sql", "postgres", open, (await pgSkipReason()) ?? undefined);
graphStoreContract("sql", "pglite", open);
