// Files imported `with { type: "file" }` resolve to their path (a string): under node_modules when run from
// source, under /$bunfs/ inside the compiled executable. Patterns are narrow on purpose, so they cannot clash
// with a broader `*.wasm` declaration elsewhere.
declare module "*/@electric-sql/pglite/dist/pglite.wasm" {
  const path: string;
  export default path;
}
declare module "*/@electric-sql/pglite/dist/initdb.wasm" {
  const path: string;
  export default path;
}
declare module "*/@electric-sql/pglite/dist/pglite.data" {
  const path: string;
  export default path;
}
declare module "*/@electric-sql/pglite/dist/pg_trgm.tar.gz" {
  const path: string;
  export default path;
}
declare module "*/dist/pglite-template.tar.gz" {
  const path: string;
  export default path;
}
