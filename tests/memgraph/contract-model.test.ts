/**
 * The shared GraphStore contract through the Memgraph adapter, the real neo4j-driver and Bolt, against the Bolt
 * stand-in answering from a model graph (model-graph.ts): reset, apply of the seeded changes, then every read. It
 * checks the adapter's own logic on the contract's data (planning, ordering, cutting, the path walk, mapping);
 * Memgraph's side is covered by tests/contract/graph-memgraph.test.ts when MEMGRAPH_URL is set.
 */
import { MemgraphGraph } from "../../src/adapters/memgraph/graph.ts";
import { graphStoreContract } from "../contract/graph-store.contract.ts";
import { BoltStandin } from "../support/bolt-standin.ts";
import { ModelGraph } from "./model-graph.ts";

graphStoreContract("memgraph adapter on the Bolt stand-in's model graph", "pglite", async (_db, seeded) => {
  const model = new ModelGraph();
  const standin = await BoltStandin.start({ script: model.script() });
  const graph = new MemgraphGraph({ url: standin.url, timeoutMs: 5_000 });
  await graph.reset();
  await graph.apply(seeded.changes);
  return {
    graph,
    async dispose() {
      await graph.close();
      await standin.stop();
    },
  };
});
