-- pegas-memory schema, version 8: rule inference and truth maintenance (issue 7; src/adapters/sql/infer*.ts,
-- src/adapters/sql/inference-tms.ts). Additive and idempotent: every statement can run again.

-- The rules memory_infer has applied (a `logical_rule` atom parsed into a chain body and a head kind). The truth
-- maintenance system re-derives with these after premises went (DRed), and a code store propagates them to the
-- edges it wrote; a rule whose atom is retracted or stale is no longer applied.
CREATE TABLE IF NOT EXISTS pm_inference_rule (
  rule_atom_id  bigint PRIMARY KEY REFERENCES pm_atom(id) ON DELETE CASCADE,
  body          text[] NOT NULL CHECK (cardinality(body) >= 1),
  head          text NOT NULL CHECK (head ~ '^[a-z][a-z0-9_]{0,63}$'),
  applied_at    timestamptz NOT NULL DEFAULT now()
);

-- The premise index of the recorded justifications (Doyle's justification-based TMS): one row per (derived edge,
-- premise edge), edges named by their table and row id as in the pm_edge view. The derived edge's own
-- `justification` column holds the same premises as JSON; this table finds the edges derived from a premise fast.
-- Rows of a derived edge deleted outside the TMS (a cascade) are harmless: lookups join the live edge tables.
CREATE TABLE IF NOT EXISTS pm_inference_premise (
  derived_origin text NOT NULL CHECK (derived_origin IN ('pm_atom_link', 'pm_code_dependency', 'pm_atom_symbol_link')),
  derived_id     bigint NOT NULL,
  premise_origin text NOT NULL CHECK (premise_origin IN ('pm_atom_link', 'pm_code_dependency', 'pm_atom_symbol_link')),
  premise_id     bigint NOT NULL,
  rule_atom_id   bigint NOT NULL,
  PRIMARY KEY (derived_origin, derived_id, premise_origin, premise_id)
);
CREATE INDEX IF NOT EXISTS pm_inference_premise_premise_idx ON pm_inference_premise (premise_origin, premise_id);
CREATE INDEX IF NOT EXISTS pm_inference_premise_rule_idx ON pm_inference_premise (rule_atom_id);

-- Inferred code dependencies have no path: truth maintenance finds them by this small index.
CREATE INDEX IF NOT EXISTS pm_code_dependency_inferred_idx ON pm_code_dependency (id) WHERE inferred;
