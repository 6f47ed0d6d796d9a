/**
 * The GraphStore contract against a real Memgraph at MEMGRAPH_URL (with MEMGRAPH_USER / MEMGRAPH_PASSWORD when set):
 * the projection is reset, loaded with the seeded canonical data as projection changes, read through the contract,
 * and reset again; plus the Bolt integer cases on the real server (2^53 + 1 round-trips exactly, a LIMIT parameter
 * as a Bolt Integer). The suite resets the whole database, so it runs only on an empty Memgraph (the compose file's,
 * freshly started) unless PEGAS_TEST_MEMGRAPH_RESET=1 says that resetting this one is fine (a pegas-memory projection
 * comes back with `pegas-memory rebuild graph`). Skipped, with the reason printed, when MEMGRAPH_URL is unset or
 * Memgraph does not answer (tests/support/contract.ts).
 */
import { afterAll, expect, test } from "bun:test";
import neo4j from "neo4j-driver";
import { MemgraphGraph } from "../../src/adapters/memgraph/graph.ts";
import { contractSuite, memgraphSkipReason } from "../support/contract.ts";
import { graphStoreContract } from "./graph-store.contract.ts";

const url = process.env.MEMGRAPH_URL;
const auth = process.env.MEMGRAPH_USER
  ? neo4j.auth.basic(process.env.MEMGRAPH_USER, process.env.MEMGRAPH_PASSWORD ?? "")
  : undefined;

const skip = await memgraphSkipReason();
if (!skip) console.error(`GraphStore contract on Memgraph at ${url}: this deletes everything in that database`);

graphStoreContract(
  "memgraph",
  "pglite",
  async (_db, seeded) => {
    const graph = new MemgraphGraph({
      url: url ?? "",
      user: process.env.MEMGRAPH_USER,
      password: process.env.MEMGRAPH_PASSWORD,
    });
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

contractSuite("Bolt integers on a real Memgraph", skip, () => {
  const driver = url && !skip ? neo4j.driver(url, auth) : null;
  afterAll(async () => {
    await driver?.executeQuery("MATCH (n:PegasIntProbe) DELETE n");
    await driver?.close();
  });

  test("2^53 + 1 round-trips exactly; LIMIT takes an Integer parameter", async () => {
    const big = neo4j.int("9007199254740993");
    const r = await driver!.executeQuery("CREATE (n:PegasIntProbe {v: $v}) RETURN n.v AS v", { v: big });
    expect(neo4j.isInt(r.records[0].get("v"))).toBe(true);
    expect(r.records[0].get("v").toString()).toBe("9007199254740993");
    const limited = await driver!.executeQuery("UNWIND range(1, 10) AS x RETURN x LIMIT $n", { n: neo4j.int(3) });
    expect(limited.records.map((x) => x.get("x").toNumber())).toEqual([1, 2, 3]);
  });
});
