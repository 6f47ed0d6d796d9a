-- pegas-memory schema, version 19: quantities (issue 24, item 1). Each measurement a claim states is stored beside
-- its atom: the value or range in the canonical unit of its dimension (time in s, data in B with MB and MiB apart,
-- …; currencies are never converted), the unit as written, what was measured and under which conditions, the
-- stated precision, and the quote with its UTF-16 span in the claim (domain/quantity/extract.ts). Written in the
-- transaction of the atom; older atoms gain theirs through `pegas-memory reindex quantities`. Additive and idempotent.
CREATE TABLE IF NOT EXISTS pm_atom_quantity (
  id             bigserial PRIMARY KEY,
  atom_id        bigint NOT NULL REFERENCES pm_atom(id) ON DELETE CASCADE,
  -- The low and high ends in the canonical unit (equal for a single value).
  low            double precision NOT NULL,
  high           double precision NOT NULL,
  dimension      text NOT NULL CHECK (length(dimension) BETWEEN 1 AND 64),
  canonical_unit text NOT NULL CHECK (length(canonical_unit) BETWEEN 1 AND 32),
  unit           text NOT NULL CHECK (length(unit) BETWEEN 1 AND 32),
  subject        text NOT NULL DEFAULT '',
  conditions     text[] NOT NULL DEFAULT '{}',
  -- Stated precision: significant digits (null for words), half-width in the canonical unit (null: unknown, ± 5 %
  -- is assumed), and whether the sentence hedges it ("about", «около»).
  sig_digits     smallint,
  plus_minus     double precision,
  approximate    boolean NOT NULL DEFAULT false,
  quote          text NOT NULL,
  span_start     integer NOT NULL CHECK (span_start >= 0),
  span_end       integer NOT NULL,
  created_at     timestamptz NOT NULL DEFAULT now(),
  CHECK (span_end > span_start),
  CHECK (high >= low)
);
-- One row per span of an atom's claim: re-reading an atom (the backfill, a replayed write) adds nothing.
CREATE UNIQUE INDEX IF NOT EXISTS pm_atom_quantity_span_key ON pm_atom_quantity (atom_id, span_start, span_end);
-- A filtered search reads one canonical unit over a value range.
CREATE INDEX IF NOT EXISTS pm_atom_quantity_unit_idx ON pm_atom_quantity (canonical_unit, low, high);
