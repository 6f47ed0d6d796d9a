/**
 * A reader of every outbox entity type, for tests that look at outbox rows without Qdrant or Memgraph configured:
 * since migration 0014 a row no registered reader reads is never stored.
 */
import { KNOWN_ENTITIES } from "../../src/adapters/sql/outbox/resolve.ts";
import type { OutboxStore, ReadersRegistered } from "../../src/ports/projections/outbox.ts";

/** The name the test reader is registered under. */
export const TEST_READER = "test-reader";

/** Registers {@link TEST_READER}, reading every entity type, on the database behind `outbox`. */
export function readEveryOutboxRow(outbox: Pick<OutboxStore, "registerReaders">): Promise<ReadersRegistered> {
  return outbox.registerReaders([{ name: TEST_READER, entityTypes: KNOWN_ENTITIES }]);
}
