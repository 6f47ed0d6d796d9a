// Files imported `with { type: "file" }` resolve to their path (a string): under node_modules when run from
// source, under /$bunfs/ inside the compiled executable. One narrow pattern per file, so nothing clashes with a
// broader `*.wasm` declaration elsewhere.
declare module "*/web-tree-sitter/web-tree-sitter.wasm" {
  const path: string;
  export default path;
}
declare module "*/tree-sitter-python.wasm" {
  const path: string;
  export default path;
}
declare module "*/tree-sitter-javascript.wasm" {
  const path: string;
  export default path;
}
declare module "*/tree-sitter-typescript.wasm" {
  const path: string;
  export default path;
}
declare module "*/tree-sitter-tsx.wasm" {
  const path: string;
  export default path;
}
declare module "*/tree-sitter-go.wasm" {
  const path: string;
  export default path;
}
declare module "*/tree-sitter-rust.wasm" {
  const path: string;
  export default path;
}
declare module "*/tree-sitter-java.wasm" {
  const path: string;
  export default path;
}
declare module "*/tree-sitter-c.wasm" {
  const path: string;
  export default path;
}
declare module "*/tree-sitter-cpp.wasm" {
  const path: string;
  export default path;
}
declare module "*/tree-sitter-c_sharp.wasm" {
  const path: string;
  export default path;
}
declare module "*/tree-sitter-ruby.wasm" {
  const path: string;
  export default path;
}
declare module "*/tree-sitter-bash.wasm" {
  const path: string;
  export default path;
}
