-- pegas-memory schema, version 5: the outbox worker (src/worker/outbox.ts, src/adapters/sql/outbox.ts).
-- Additive and idempotent: every statement can run again.

-- The lease owner: a claim writes its worker's token here and pushes available_at to the lease's end; an ack or a
-- failure only touches rows that still carry the caller's token (a worker whose lease ran out lost its rows).
ALTER TABLE pm_outbox ADD COLUMN IF NOT EXISTS claim_token text;

-- Claims walk the pending rows in id order and test due-ness inside the index (available_at is a key column, so
-- rows leased by other workers or backing off are skipped without visiting the heap).
CREATE INDEX IF NOT EXISTS pm_outbox_due_idx ON pm_outbox (id, available_at)
  WHERE processed_at IS NULL AND dead_at IS NULL;

-- Head of line per entity: a claim takes an entity's rows only when no earlier row of it is pending and none is
-- leased by another worker, so two workers never resolve and apply the same entity at once.
CREATE INDEX IF NOT EXISTS pm_outbox_entity_idx ON pm_outbox (entity_type, entity_id, id)
  WHERE processed_at IS NULL AND dead_at IS NULL;

-- Dead letters, for the backlog figures and retryDead.
CREATE INDEX IF NOT EXISTS pm_outbox_dead_idx ON pm_outbox (id) WHERE dead_at IS NOT NULL;

-- Wakes workers that LISTEN on 'pm_outbox'. Statement-level: one notification per INSERT statement, and PostgreSQL
-- folds identical notifications of one transaction into one, delivered at commit.
CREATE OR REPLACE FUNCTION pm_outbox_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('pm_outbox', '');
  RETURN NULL;
END
$$;
CREATE OR REPLACE TRIGGER pm_outbox_notify AFTER INSERT ON pm_outbox
  FOR EACH STATEMENT EXECUTE FUNCTION pm_outbox_notify();
