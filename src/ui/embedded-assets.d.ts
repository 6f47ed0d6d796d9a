// Assets of the admin page imported `with { type: "text" }`: their text, embedded into the executable at build time.
declare module "*.css" {
  const text: string;
  export default text;
}
declare module "cytoscape/dist/cytoscape.esm.min.mjs" {
  const text: string;
  export default text;
}
