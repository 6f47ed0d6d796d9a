/**
 * The GraphStore contract against a real Memgraph at MEMGRAPH_URL (with MEMGRAPH_USER / MEMGRAPH_PASSWORD when set):
 * the projection is reset, loaded with the seeded canonical data as projection changes, read through the contract,
 * and reset again. Everything in that Memgraph database is deleted, so point MEMGRAPH_URL at a server used for tests
 * (a rebuild restores a pegas-memory projection). Skipped, with the reason printed, when MEMGRAPH_URL is unset.
 */
import { MemgraphGraph } from "../../src/adapters/memgraph/graph.ts";
import { graphStoreContract } from "./graph-store.contract.ts";

const url = process.env.MEMGRAPH_URL;
const skip = url ? undefined : "MEMGRAPH_URL is not set (e.g. MEMGRAPH_URL=bolt://127.0.0.1:7687 for a Memgraph used by tests)";
if (skip) console.error(`skipped: GraphStore contract on Memgraph: ${skip}`);
else console.error(`GraphStore contract on Memgraph at ${url}: this deletes everything in that database`);

graphStoreContract(
  "memgraph",
  "pglite",
  async (_db, seeded) => {
    const graph = new MemgraphGraph({ url: url ?? "", user: process.env.MEMGRAPH_USER, password: process.env.MEMGRAPH_PASSWORD });
    await graph.reset();
    await graph.apply(seeded.changes);
    return {
      graph,
      async dispose() {
        try {
          await graph.reset();
        } finally {
          await graph.close();
        }
      },
    };
  },
  skip,
);
