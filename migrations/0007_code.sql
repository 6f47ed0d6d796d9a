-- pegas-memory schema, version 7: code memory (issue 6). Additive and idempotent: every statement can run again.
-- Written by src/adapters/sql/code*.ts; read by memory_search_code and memory_code_graph.

-- One row per source file of a repository, for incremental runs: a file whose content hash is unchanged is not
-- parsed again. `imports` holds the file's import bindings ([{local, module, name}]) and `module` its module name,
-- which resolving dependency targets of later runs needs without parsing the file again.
CREATE TABLE IF NOT EXISTS pm_code_file (
  id            bigserial PRIMARY KEY,
  repo          text NOT NULL,
  path          text NOT NULL,
  language      text NOT NULL,
  module        text,
  content_hash  text NOT NULL,
  byte_size     bigint NOT NULL DEFAULT 0,
  status        text NOT NULL CHECK (status IN ('parsed', 'skipped', 'failed')),
  error         text,
  symbols       integer NOT NULL DEFAULT 0,
  dependencies  integer NOT NULL DEFAULT 0,
  syntax_errors integer NOT NULL DEFAULT 0,
  imports       jsonb NOT NULL DEFAULT '[]'::jsonb,
  updated_at    timestamptz NOT NULL DEFAULT now(),
  UNIQUE (repo, path)
);

-- Identifier-aware search: the words of name (weight A), qualified name (B), signature (C) and docstring (D), with
-- camelCase and snake_case split into words beside the whole identifier; built in TypeScript
-- (src/adapters/sql/code-words.ts) as a tsvector literal, so PostgreSQL's parser never re-splits them.
ALTER TABLE pm_code_symbol ADD COLUMN IF NOT EXISTS search_tsv tsvector;
CREATE INDEX IF NOT EXISTS pm_code_symbol_tsv_idx ON pm_code_symbol USING gin (search_tsv);
-- Trigram fallback on the short name (the qualified name has its index since version 1).
CREATE INDEX IF NOT EXISTS pm_code_symbol_short_name_trgm_idx ON pm_code_symbol USING gin (name gin_trgm_ops);
-- Resolution looks symbols up by repository and name; module (file) symbols by repository.
CREATE INDEX IF NOT EXISTS pm_code_symbol_repo_name_idx ON pm_code_symbol (repo, name);
CREATE INDEX IF NOT EXISTS pm_code_symbol_repo_module_idx ON pm_code_symbol (repo, qualified_name) WHERE kind = 'module';

-- Where a dependency was written (repository-relative path, 1-based line), the receiver of a call through an object
-- (`self`, `json`), and the target's last identifier (`loads` of `json.loads`, `decoder` of `./json/decoder.js`),
-- which finds the unresolved edges a newly stored symbol may resolve.
ALTER TABLE pm_code_dependency ADD COLUMN IF NOT EXISTS path text;
ALTER TABLE pm_code_dependency ADD COLUMN IF NOT EXISTS line integer;
ALTER TABLE pm_code_dependency ADD COLUMN IF NOT EXISTS receiver text;
ALTER TABLE pm_code_dependency ADD COLUMN IF NOT EXISTS dst_leaf text;
CREATE INDEX IF NOT EXISTS pm_code_dependency_repo_path_idx ON pm_code_dependency (repo, path);
CREATE INDEX IF NOT EXISTS pm_code_dependency_unresolved_leaf_idx ON pm_code_dependency (repo, dst_leaf) WHERE dst_symbol_id IS NULL;
