-- pegas-memory canonical schema, version 1. Additive and idempotent: every statement can run again.
-- PostgreSQL is the single source of truth; pm_outbox feeds the external projections (Qdrant, Memgraph).

CREATE EXTENSION IF NOT EXISTS pg_trgm;

-- One text search configuration for both languages: PostgreSQL's `russian` maps Cyrillic words to the Russian
-- Snowball stemmer (which folds ё to е) and ASCII words to the English one.
DO $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_ts_config WHERE cfgname = 'pegas') THEN
    CREATE TEXT SEARCH CONFIGURATION pegas (COPY = russian);
  END IF;
END
$$;

-- Every write of a row that an in-process index follows stamps the writing transaction's id; a reader that
-- remembers pg_snapshot_xmin of its last read sees every later change (the high-water mark).
CREATE OR REPLACE FUNCTION pm_stamp_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.change_xid := pg_current_xact_id();
  NEW.updated_at := now();
  RETURN NEW;
END
$$;

CREATE TABLE IF NOT EXISTS pm_document (
  id            bigserial PRIMARY KEY,
  kind          text NOT NULL CHECK (kind IN ('web', 'pdf', 'epub', 'text', 'code_repo')),
  uri           text NOT NULL UNIQUE,
  title         text,
  authority     real NOT NULL DEFAULT 0.5 CHECK (authority BETWEEN 0 AND 1),
  content_hash  text,            -- NULL: only referenced (a citation's source), never fetched
  version       integer NOT NULL DEFAULT 1,
  byte_size     bigint NOT NULL DEFAULT 0,
  metadata      jsonb NOT NULL DEFAULT '{}'::jsonb,
  status        text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'retracted')),
  created_at    timestamptz NOT NULL DEFAULT now(),
  updated_at    timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE IF NOT EXISTS pm_chunk (
  id            bigserial PRIMARY KEY,
  doc_id        bigint NOT NULL REFERENCES pm_document(id) ON DELETE CASCADE,
  doc_version   integer NOT NULL,
  ord           integer NOT NULL,
  text          text NOT NULL,
  content_hash  text NOT NULL,
  locator       jsonb NOT NULL,
  created_at    timestamptz NOT NULL DEFAULT now(),
  UNIQUE (doc_id, doc_version, ord)
);

CREATE TABLE IF NOT EXISTS pm_atom (
  id            bigserial PRIMARY KEY,
  type          text NOT NULL CHECK (type IN ('text', 'definition', 'logical_rule', 'code', 'table', 'fact')),
  claim         text NOT NULL,
  content       text NOT NULL,
  content_hash  text NOT NULL,
  confidence    real NOT NULL DEFAULT 0.5 CHECK (confidence BETWEEN 0 AND 1),
  status        text NOT NULL DEFAULT 'candidate'
                CHECK (status IN ('candidate', 'verified', 'stale', 'contested', 'retracted')),
  doc_id        bigint REFERENCES pm_document(id) ON DELETE SET NULL,
  lang          text NOT NULL DEFAULT 'und',
  metadata      jsonb NOT NULL DEFAULT '{}'::jsonb,
  search_tsv    tsvector NOT NULL,
  change_xid    xid8 NOT NULL DEFAULT pg_current_xact_id(),
  created_at    timestamptz NOT NULL DEFAULT now(),
  updated_at    timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX IF NOT EXISTS pm_atom_content_hash_key ON pm_atom (content_hash);
-- Keyset order of the change feed: (change_xid, id) lets a reader stop at once whatever the statistics say.
CREATE INDEX IF NOT EXISTS pm_atom_change_idx ON pm_atom (change_xid, id);
CREATE INDEX IF NOT EXISTS pm_atom_doc_idx ON pm_atom (doc_id);
CREATE INDEX IF NOT EXISTS pm_atom_tsv_idx ON pm_atom USING gin (search_tsv);
CREATE INDEX IF NOT EXISTS pm_atom_claim_trgm_idx ON pm_atom USING gin (claim gin_trgm_ops);
CREATE OR REPLACE TRIGGER pm_atom_stamp BEFORE UPDATE ON pm_atom FOR EACH ROW EXECUTE FUNCTION pm_stamp_change();

-- Canonical embeddings, one row per atom and model; the vector is little-endian float32 bytes of length 4·dim.
CREATE TABLE IF NOT EXISTS pm_atom_embedding (
  atom_id       bigint NOT NULL REFERENCES pm_atom(id) ON DELETE CASCADE,
  model         text NOT NULL,
  dim           integer NOT NULL CHECK (dim > 0),
  vector        bytea NOT NULL CHECK (octet_length(vector) = 4 * dim),
  change_xid    xid8 NOT NULL DEFAULT pg_current_xact_id(),
  created_at    timestamptz NOT NULL DEFAULT now(),
  updated_at    timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (atom_id, model)
);
CREATE INDEX IF NOT EXISTS pm_atom_embedding_change_idx ON pm_atom_embedding (model, change_xid, atom_id);
CREATE OR REPLACE TRIGGER pm_atom_embedding_stamp BEFORE UPDATE ON pm_atom_embedding
  FOR EACH ROW EXECUTE FUNCTION pm_stamp_change();

CREATE TABLE IF NOT EXISTS pm_citation (
  id            bigserial PRIMARY KEY,
  atom_id       bigint NOT NULL REFERENCES pm_atom(id) ON DELETE CASCADE,
  doc_id        bigint NOT NULL REFERENCES pm_document(id) ON DELETE CASCADE,
  chunk_id      bigint REFERENCES pm_chunk(id) ON DELETE SET NULL,
  doc_version   integer NOT NULL,
  locator       jsonb NOT NULL DEFAULT '{}'::jsonb,
  quoted_text   text NOT NULL,
  citation_key  text NOT NULL,
  created_at    timestamptz NOT NULL DEFAULT now(),
  UNIQUE (atom_id, citation_key)
);
CREATE INDEX IF NOT EXISTS pm_citation_doc_idx ON pm_citation (doc_id);

-- Relation kinds are single tokens; the seed lists are what extraction produces, any other token is allowed.
CREATE TABLE IF NOT EXISTS pm_atom_link (
  id            bigserial PRIMARY KEY,
  src_atom_id   bigint NOT NULL REFERENCES pm_atom(id) ON DELETE CASCADE,
  dst_atom_id   bigint NOT NULL REFERENCES pm_atom(id) ON DELETE CASCADE,
  kind          text NOT NULL CHECK (kind ~ '^[a-z][a-z0-9_]{0,63}$'),
  confidence    real NOT NULL DEFAULT 0.5 CHECK (confidence BETWEEN 0 AND 1),
  source        text NOT NULL DEFAULT 'extraction',
  inferred      boolean NOT NULL DEFAULT false,
  justification jsonb,
  created_at    timestamptz NOT NULL DEFAULT now(),
  UNIQUE (src_atom_id, dst_atom_id, kind),
  CHECK (NOT inferred OR justification IS NOT NULL)
);
CREATE INDEX IF NOT EXISTS pm_atom_link_dst_idx ON pm_atom_link (dst_atom_id);

CREATE TABLE IF NOT EXISTS pm_code_symbol (
  id             bigserial PRIMARY KEY,
  repo           text NOT NULL,
  path           text NOT NULL,
  language       text NOT NULL,
  name           text NOT NULL,
  qualified_name text NOT NULL,
  kind           text NOT NULL CHECK (kind IN
                 ('function', 'method', 'class', 'interface', 'struct', 'enum', 'module', 'constant', 'type')),
  signature      text,
  line_start     integer NOT NULL,
  line_end       integer NOT NULL,
  docstring      text,
  file_hash      text,
  metadata       jsonb NOT NULL DEFAULT '{}'::jsonb,
  created_at     timestamptz NOT NULL DEFAULT now(),
  UNIQUE (repo, path, qualified_name, kind, line_start)
);
CREATE INDEX IF NOT EXISTS pm_code_symbol_name_idx ON pm_code_symbol (name);
CREATE INDEX IF NOT EXISTS pm_code_symbol_name_trgm_idx ON pm_code_symbol USING gin (qualified_name gin_trgm_ops);

CREATE TABLE IF NOT EXISTS pm_atom_symbol_link (
  id            bigserial PRIMARY KEY,
  atom_id       bigint NOT NULL REFERENCES pm_atom(id) ON DELETE CASCADE,
  symbol_id     bigint NOT NULL REFERENCES pm_code_symbol(id) ON DELETE CASCADE,
  kind          text NOT NULL CHECK (kind ~ '^[a-z][a-z0-9_]{0,63}$'),
  confidence    real NOT NULL DEFAULT 0.5 CHECK (confidence BETWEEN 0 AND 1),
  source        text NOT NULL DEFAULT 'extraction',
  inferred      boolean NOT NULL DEFAULT false,
  justification jsonb,
  created_at    timestamptz NOT NULL DEFAULT now(),
  UNIQUE (atom_id, symbol_id, kind),
  CHECK (NOT inferred OR justification IS NOT NULL)
);

-- A dependency's source is a symbol or a module; its target is a resolved symbol or an unresolved name.
CREATE TABLE IF NOT EXISTS pm_code_dependency (
  id            bigserial PRIMARY KEY,
  repo          text NOT NULL,
  src_symbol_id bigint REFERENCES pm_code_symbol(id) ON DELETE CASCADE,
  src_module    text,
  dst_symbol_id bigint REFERENCES pm_code_symbol(id) ON DELETE SET NULL,
  dst_name      text NOT NULL,
  kind          text NOT NULL CHECK (kind ~ '^[a-z][a-z0-9_]{0,63}$'),
  confidence    real NOT NULL DEFAULT 1 CHECK (confidence BETWEEN 0 AND 1),
  source        text NOT NULL DEFAULT 'extraction',
  inferred      boolean NOT NULL DEFAULT false,
  justification jsonb,
  created_at    timestamptz NOT NULL DEFAULT now(),
  CHECK (src_symbol_id IS NOT NULL OR src_module IS NOT NULL),
  CHECK (NOT inferred OR justification IS NOT NULL)
);
CREATE INDEX IF NOT EXISTS pm_code_dependency_src_idx ON pm_code_dependency (src_symbol_id);
CREATE INDEX IF NOT EXISTS pm_code_dependency_dst_idx ON pm_code_dependency (dst_symbol_id);

-- The agent's own traces: kept apart from atoms, never returned by memory_search.
CREATE TABLE IF NOT EXISTS pm_episodic_trace (
  id            bigserial PRIMARY KEY,
  session_id    text,
  kind          text NOT NULL CHECK (kind IN ('plan', 'action', 'observation', 'reflection')),
  content       text NOT NULL,
  metadata      jsonb NOT NULL DEFAULT '{}'::jsonb,
  search_tsv    tsvector,
  created_at    timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX IF NOT EXISTS pm_episodic_trace_tsv_idx ON pm_episodic_trace USING gin (search_tsv);

CREATE TABLE IF NOT EXISTS pm_research_gap (
  id            bigserial PRIMARY KEY,
  question      text NOT NULL,
  reason        text,
  priority      integer NOT NULL DEFAULT 3 CHECK (priority BETWEEN 1 AND 5),
  status        text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'answered', 'dismissed')),
  metadata      jsonb NOT NULL DEFAULT '{}'::jsonb,
  created_at    timestamptz NOT NULL DEFAULT now(),
  updated_at    timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE IF NOT EXISTS pm_outbox (
  id            bigserial PRIMARY KEY,
  entity_type   text NOT NULL,
  entity_id     text NOT NULL,
  op            text NOT NULL CHECK (op IN ('upsert', 'delete')),
  payload       jsonb NOT NULL DEFAULT '{}'::jsonb,
  attempts      integer NOT NULL DEFAULT 0,
  last_error    text,
  available_at  timestamptz NOT NULL DEFAULT now(),
  processed_at  timestamptz,
  dead_at       timestamptz,
  created_at    timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX IF NOT EXISTS pm_outbox_pending_idx ON pm_outbox (id) WHERE processed_at IS NULL AND dead_at IS NULL;

-- The one edge relation of DESIGN.md over typed node ids (atom:<id>, symbol:<id>, doc:<id>, module:<name>).
CREATE OR REPLACE VIEW pm_edge AS
  SELECT 'atom:' || src_atom_id AS src, 'atom:' || dst_atom_id AS dst, kind, confidence, source, inferred,
         justification, 'pm_atom_link'::text AS origin, id AS origin_id
    FROM pm_atom_link
  UNION ALL
  SELECT 'atom:' || atom_id, 'symbol:' || symbol_id, kind, confidence, source, inferred, justification,
         'pm_atom_symbol_link', id
    FROM pm_atom_symbol_link
  UNION ALL
  SELECT COALESCE('symbol:' || src_symbol_id, 'module:' || src_module),
         COALESCE('symbol:' || dst_symbol_id, 'name:' || dst_name), kind, confidence, source, inferred,
         justification, 'pm_code_dependency', id
    FROM pm_code_dependency;
