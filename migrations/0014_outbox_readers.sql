-- pegas-memory schema, version 14: the outbox holds only rows some projection reads. Idempotent.
--
-- Each process with an external projection configured (Qdrant, Memgraph) registers it here at start, with the outbox
-- entity types it reads (Qdrant: atoms; Memgraph: atoms, documents, symbols and the three edge kinds), and its worker
-- refreshes seen_at on each retention pass (src/adapters/sql/outbox/readers.ts). A reader not seen for the retention
-- period (`outbox_retention_hours`) is dropped by the next pass. The embedded indexes follow the tables by their
-- change feed, never the outbox, so the embedded default registers nobody and queues nothing.
CREATE TABLE IF NOT EXISTS pm_outbox_reader (
  name          text PRIMARY KEY,
  entity_types  text[] NOT NULL,
  registered_at timestamptz NOT NULL DEFAULT now(),
  seen_at       timestamptz NOT NULL DEFAULT now()
);

-- Every writer inserts its outbox rows as before; a row whose entity type no registered reader reads is left out of
-- the INSERT itself, in the writer's transaction, so one rule holds whatever the writing process has configured. A
-- rule, not a trigger: the rewriter adds the condition to each INSERT as a hashed subplan (76 000 rows nobody reads
-- cost 0.27 s in PGlite, against 2.6 s to store them and 4 s through a row trigger). The price: an INSERT into
-- pm_outbox cannot use RETURNING or ON CONFLICT.
DROP TRIGGER IF EXISTS pm_outbox_wanted ON pm_outbox;
DROP FUNCTION IF EXISTS pm_outbox_wanted();
CREATE OR REPLACE RULE pm_outbox_unread AS ON INSERT TO pm_outbox
  WHERE NOT (NEW.entity_type IN (SELECT unnest(r.entity_types) FROM pm_outbox_reader r))
  DO INSTEAD NOTHING;

-- Existing stores: rows no reader reads go (before this version every write queued rows, and a store without Qdrant
-- or Memgraph kept them pending for ever). No reader is registered yet at this point: a store with a projection
-- gets its reader back at the next start, and `pegas-memory stats` shows any drift `rebuild` repairs.
DELETE FROM pm_outbox o
 WHERE NOT EXISTS (SELECT 1 FROM pm_outbox_reader r WHERE o.entity_type = ANY (r.entity_types));
